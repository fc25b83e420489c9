import Foundation
import GRPCCore
import NIOConcurrencyHelpers
import NIOCore

/// One GRPCCore client stream on a frame-layer connection.
///
/// Request parts written before the connection's event loop gets to the call are gathered into
/// the `Open` frame: a unary call's metadata, message and end of input usually leave as a single
/// frame. Response frames become a backpressured async sequence of response parts.
final class ClientStreamAdapter: Sendable {
  typealias Inbound = RPCAsyncSequence<RPCResponsePart<BinarioBytes>, any Error>
  typealias Outbound = RPCWriter<RPCRequestPart<BinarioBytes>>.Closable
  private typealias Producer = NIOThrowingAsyncSequenceProducer<
    RPCResponsePart<BinarioBytes>, any Error,
    NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, ResponseDemand
  >

  private struct RequestState {
    var metadata: Metadata?
    var pending: [Data] = []
    var halfClosed = false
    var openScheduled = false
    var call: BinarioClientCall?
    var isOver = false
  }

  private let connection: BinarioClientConnection
  private let method: String
  private let source: Producer.Source
  private let state = NIOLockedValueBox(RequestState())
  let inbound: Inbound

  init(connection: BinarioClientConnection, descriptor: MethodDescriptor) {
    self.connection = connection
    self.method = "/\(descriptor.fullyQualifiedMethod)"
    let demand = ResponseDemand()
    let produced = Producer.makeSequence(
      backPressureStrategy: .init(
        lowWatermark: connection.configuration.inboundBufferLowWatermark,
        highWatermark: connection.configuration.inboundBufferHighWatermark
      ),
      finishOnDeinit: false,
      delegate: demand
    )
    self.source = produced.source
    self.inbound = RPCAsyncSequence(wrapping: CancellationAsRPCError(base: produced.sequence))
    demand.adapter.withLockedValue { $0 = self }
  }

  var outbound: Outbound { RPCWriter.Closable(wrapping: RequestWriter(adapter: self)) }

  // MARK: Requests

  fileprivate func write(_ part: RPCRequestPart<BinarioBytes>) async throws {
    switch part {
    case .metadata(let metadata):
      let schedule = self.state.withLockedValue { state -> Bool in
        state.metadata = metadata
        defer { state.openScheduled = true }
        return !state.openScheduled
      }
      if schedule { self.scheduleOpen() }
    case .message(let bytes):
      let limit = self.connection.configuration.maximumPayloadSize
      guard bytes.count <= limit else {
        self.endLocally(ClientConnectionHandler.messageTooLarge(bytes.count, limit: limit))
        throw RPCError(code: .resourceExhausted, message: "request message of \(bytes.count) bytes is larger than the limit of \(limit) bytes")
      }
      let call = self.state.withLockedValue { state -> BinarioClientCall? in
        if state.call == nil { state.pending.append(bytes.data) }
        return state.call
      }
      call?.send(bytes.data)
      await self.connection.waitUntilWritable()
    }
  }

  fileprivate func finishRequests() {
    let call = self.state.withLockedValue { state -> BinarioClientCall? in
      if state.call == nil { state.halfClosed = true }
      return state.call
    }
    call?.halfClose()
  }

  private func scheduleOpen() {
    if self.connection.eventLoop.inEventLoop {
      self.open()
    } else {
      self.connection.eventLoop.execute { self.open() }
    }
  }

  /// Runs on the event loop: opens the call with everything gathered so far.
  private func open() {
    let taken = self.state.withLockedValue { state -> (Metadata, [Data], Bool)? in
      guard !state.isOver, let metadata = state.metadata else { return nil }
      defer {
        state.pending.removeAll()
        state.halfClosed = false
      }
      return (metadata, state.pending, state.halfClosed)
    }
    guard let (metadata, pending, halfClosed) = taken else { return }
    var request = BinarioCallRequest(method: self.method, metadata: metadata.wireEntries(), timeout: metadata.grpcTimeout)
    request.firstMessage = pending.first
    request.halfClose = halfClosed && pending.count <= 1
    let call = self.connection.openCall(request) { [self] event in self.received(event) }
    for message in pending.dropFirst() { call.send(message) }
    if halfClosed && pending.count > 1 { call.halfClose() }
    // Parts written while the call was being opened.
    let (late, lateHalfClose) = self.state.withLockedValue { state -> ([Data], Bool) in
      state.call = call
      defer {
        state.pending.removeAll()
        state.halfClosed = false
      }
      return (state.pending, state.halfClosed)
    }
    for message in late { call.send(message) }
    if lateHalfClose { call.halfClose() }
  }

  // MARK: Responses (on the event loop)

  private func received(_ event: ClientCallEvent) {
    switch event {
    case .headers(let metadata):
      _ = self.source.yield(.metadata(Metadata(wire: metadata)))
    case .message(let payload):
      if self.source.yield(.message(BinarioBytes(payload))) == .stopProducing {
        self.state.withLockedValue { $0.call }?.setReadPaused(true)
      }
    case .end(let end):
      self.state.withLockedValue { $0.isOver = true }
      _ = self.source.yield(.status(Status(wire: end), Metadata(wire: end.trailers)))
      self.source.finish()
    }
  }

  fileprivate func resumeReading() {
    guard let call = self.state.withLockedValue({ $0.call }) else { return }
    call.eventLoop.execute { call.setReadPaused(false) }
  }

  /// Ends the call here with `end` (and tells the server, if it knows of the call).
  private func endLocally(_ end: WireEnd) {
    let call = self.state.withLockedValue { state -> BinarioClientCall? in
      guard !state.isOver else { return nil }
      state.isOver = true
      return state.call
    }
    call?.cancel()
    _ = self.source.yield(.status(Status(wire: end), [:]))
    self.source.finish()
  }

  /// Called when the caller is done with the stream: a call still open is cancelled.
  func cancelIfOpen() {
    let call = self.state.withLockedValue { state -> BinarioClientCall? in
      guard !state.isOver else { return nil }
      state.isOver = true
      return state.call
    }
    call?.cancel()
  }
}

/// Resumes reading when the response reader catches up.
private final class ResponseDemand: NIOAsyncSequenceProducerDelegate {
  let adapter = NIOLockedValueBox<ClientStreamAdapter?>(nil)

  func produceMore() {
    self.adapter.withLockedValue { $0 }?.resumeReading()
  }

  func didTerminate() {
    let adapter = self.adapter.withLockedValue { adapter in
      defer { adapter = nil }
      return adapter
    }
    adapter?.resumeReading()
  }
}

private struct RequestWriter: ClosableRPCWriterProtocol {
  typealias Element = RPCRequestPart<BinarioBytes>
  let adapter: ClientStreamAdapter

  func write(_ element: Element) async throws {
    try await self.adapter.write(element)
  }

  func write(contentsOf elements: some Sequence<Element>) async throws {
    for element in elements { try await self.adapter.write(element) }
  }

  func finish() async {
    self.adapter.finishRequests()
  }

  func finish(throwing error: any Error) async {
    self.adapter.cancelIfOpen()
  }
}

/// Reports the caller's task cancellation as gRPC's `CANCELLED` instead of a bare
/// `CancellationError`, which GRPCCore would turn into `UNKNOWN`.
private struct CancellationAsRPCError<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  typealias Element = Base.Element
  let base: Base

  struct AsyncIterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator

    mutating func next() async throws -> Element? {
      do {
        return try await self.base.next()
      } catch is CancellationError {
        throw RPCError(code: .cancelled, message: "the call was cancelled by the caller")
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: self.base.makeAsyncIterator())
  }
}
