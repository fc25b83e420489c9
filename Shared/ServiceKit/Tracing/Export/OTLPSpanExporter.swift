import BinarioTracing
import Logging
import Metrics
import ServiceLifecycle

/// The process's one span-exporting task: it takes batches from the ``SpanExportQueue`` when one
/// is full or the schedule delay has passed, and sends each to the collector. On graceful
/// shutdown it sends what is left, then ends.
///
/// A batch the collector refuses or does not answer in time is dropped after one try, logged,
/// and counted in `binario_trace_spans_dropped_total` (as are spans a full queue refused):
/// traces are worth less than the calls they describe.
struct OTLPSpanExporter<C: Clock>: Service where C.Duration == Duration {
  let queue: SpanExportQueue
  let sender: any OTLPTraceSender
  let resource: [(key: String, value: String)]
  let scheduleDelay: Duration
  let clock: C
  let logger: Logger
  private let dropped: Counter
  private let exported: Counter

  init(
    queue: SpanExportQueue,
    sender: any OTLPTraceSender,
    resource: [(key: String, value: String)],
    scheduleDelay: Duration,
    clock: C,
    logger: Logger
  ) {
    ServiceMetrics.describe("binario_trace_spans_dropped_total", help: "Spans dropped: the export queue was full or the collector refused them")
    ServiceMetrics.describe("binario_trace_spans_exported_total", help: "Spans the collector accepted")
    self.dropped = Counter(label: "binario_trace_spans_dropped_total")
    self.exported = Counter(label: "binario_trace_spans_exported_total")
    self.queue = queue
    self.sender = sender
    self.resource = resource
    self.scheduleDelay = scheduleDelay
    self.clock = clock
    self.logger = logger
  }

  func run() async throws {
    try await withThrowingDiscardingTaskGroup { group in
      group.addTask { try await self.sender.run() }
      await withGracefulShutdownHandler {
        await self.exportUntilClosed()
      } onGracefulShutdown: {
        self.queue.close()
      }
      self.sender.close()
    }
  }

  private func exportUntilClosed() async {
    while !Task.isCancelled {
      await self.queue.waitForBatch(delay: self.scheduleDelay, clock: self.clock)
      let (spans, closed, dropped) = self.queue.take()
      if dropped > 0 {
        self.dropped.increment(by: dropped)
        self.logger.warning("trace spans dropped: the export queue was full", metadata: ["spans": "\(dropped)"])
      }
      if !spans.isEmpty { await self.export(spans) }
      if closed && self.queue.isEmpty { return }
    }
  }

  private func export(_ spans: [FinishedSpan]) async {
    do {
      try await self.sender.send(OTLPTraceExport(spans: spans, resource: self.resource))
      self.exported.increment(by: spans.count)
    } catch {
      self.dropped.increment(by: spans.count)
      self.logger.warning(
        "trace spans not exported",
        metadata: ["spans": "\(spans.count)", "error": "\(error)"]
      )
    }
  }
}
