import BinarioDomain
import Logging
import ServiceLifecycle

/// A background job (deliveries, expiries, reminders, fetches, checks), the suite's one loop for
/// them: it runs a pass, waits, and again, until graceful shutdown.
///
/// After a pass it waits `interval`, or less when the pass says when it is next due, or until a
/// wake-up (a commit that made work) arrives, whichever comes first. A pass that throws is logged
/// and tried again after `retry`'s backoff. A pass reads what is due from the database and the
/// domain's injected clock, so it is idempotent and a restart simply runs what fell due while the
/// process was down.
public struct PeriodicJob: Service {
  public let name: String
  let interval: Duration
  let wakeUps: AsyncStream<Void>?
  let retry: Backoff
  var timer: any JobTimer
  let logger: Logger
  let pass: @Sendable () async throws -> Duration?

  /// - Parameters:
  ///   - name: for the logs and the service group ("offer-timeouts").
  ///   - wakeUps: a stream whose elements ask for a pass now; when it finishes, so does the job.
  ///   - pass: one pass; it returns how soon the next one is due, or `nil` for `interval`.
  public init(
    _ name: String,
    every interval: Duration,
    wakeUps: AsyncStream<Void>? = nil,
    retry: Backoff = Backoff(initial: .seconds(1), maximum: .seconds(60)),
    timer: any JobTimer = ContinuousJobTimer(),
    logger: Logger,
    pass: @escaping @Sendable () async throws -> Duration?
  ) {
    self.name = name
    self.interval = interval
    self.wakeUps = wakeUps
    self.retry = retry
    self.timer = timer
    self.logger = logger
    self.pass = pass
  }

  public func run() async throws {
    await cancelWhenGracefulShutdown { await self.runPasses() }
  }

  /// The passes and the waits between them, until cancelled or the wake-ups finish.
  public func runPasses() async {
    // One stream of "run a pass now": the timer of each wait and every wake-up feed it; the loop
    // reads it with one iterator throughout (cancelling a read would end the stream).
    let (ticks, tick) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    await withTaskGroup(of: Void.self) { group in
      if let wakeUps {
        group.addTask {
          for await _ in wakeUps { tick.yield() }
          tick.finish()
        }
      }
      var iterator = ticks.makeAsyncIterator()
      var failures = 0
      var pendingTimer: Task<Void, Never>?
      while !Task.isCancelled {
        var wait = interval
        do {
          if let due = try await pass() { wait = min(max(due, .zero), interval) }
          failures = 0
        } catch is CancellationError {
          break
        } catch {
          failures += 1
          wait = retry.delay(afterFailures: failures)
          logger.warning(
            "\(name) failed; trying again",
            metadata: ["job": "\(name)", "error": "\(error)", "failures": "\(failures)", "in": "\(wait)"]
          )
        }
        pendingTimer = Task { [timer, wait] in
          if (try? await timer.sleep(for: wait)) != nil { tick.yield() }
        }
        guard await iterator.next() != nil else { break }
        // A wake-up may have come first: that wait's timer must not cause a pass of its own.
        pendingTimer?.cancel()
      }
      pendingTimer?.cancel()
      group.cancelAll()
    }
  }
}

extension ServiceRunnerContext {
  /// Runs `job` beside the server until graceful shutdown (waiting on the test clock, when the
  /// process runs on one: ``domainClock()``).
  public func addJob(_ job: PeriodicJob) {
    var timed = job
    if let timer = jobTimer.withLock({ $0 }) { timed.timer = timer }
    addService(timed, name: job.name)
  }
}
