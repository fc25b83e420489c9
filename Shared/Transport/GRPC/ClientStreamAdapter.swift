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

  private struct RequestState {
    var metadata: Metadata?
    var pending: [Data] = []
    var pendingBytes = 0
    /// Writers waiting for the call to open because `pending` is full.
    var openWaiters: [CheckedContinuation<Void, Never>] = []
    var halfClosed = false
    var openScheduled = false
    var call: BinarioClientCall?
    var isOver = false
  }

  private let connection: BinarioClientConnection
  private let method: String
  private let source: InboundPartBuffer<RPCResponsePart<BinarioBytes>>
  private let state = NIOLockedValueBox(RequestState())
  let inbound: Inbound

  init(connection: BinarioClientConnection, descriptor: MethodDescriptor) {
    self.connection = connection
    self.method = "/\(descriptor.fullyQualifiedMethod)"
    let state = self.state
    self.source = InboundPartBuffer(
      highWatermark: connection.configuration.inboundBufferHighWatermark,
      lowWatermark: connection.configuration.inboundBufferLowWatermark,
      resumeReading: {
        guard let call = state.withLockedValue({ $0.call }) else { return }
        call.eventLoop.execute { call.setReadPaused(false) }
      },
      // GRPCCore would report a bare CancellationError as UNKNOWN.
      cancellationError: { RPCError(code: .cancelled, message: "the call was cancelled by the caller") }
    )
    self.inbound = RPCAsyncSequence(wrapping: InboundPartSequence(buffer: self.source))
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
      let (call, pendingFull) = self.state.withLockedValue { state -> (BinarioClientCall?, Bool) in
        guard state.call == nil else { return (state.call, false) }
        state.pending.append(bytes.data)
        state.pendingBytes += bytes.count
        return (nil, state.pendingBytes >= self.connection.configuration.outboundQueueLimit)
      }
      if let call {
        call.send(bytes.data)
        await call.waitUntilWritable()
      } else if pendingFull {
        await self.waitUntilOpened()
      }
    }
  }

  /// Returns once the call is open on the connection (or over).
  private func waitUntilOpened() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = self.state.withLockedValue { state -> Bool in
        if state.call != nil || state.isOver { return true }
        state.openWaiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  private func resumeOpenWaiters() {
    let waiters = self.state.withLockedValue { state in
      defer { state.openWaiters = [] }
      return state.openWaiters
    }
    for waiter in waiters { waiter.resume() }
  }

  fileprivate func finishRequests() {
    let call = self.state.withLockedValue { state -> BinarioClientCall? in
      if state.call == nil { state.halfClosed = true }
      return state.call
    }
    call?.halfClose()
  }

  /// Opens the call in a task of its own on the event loop, even when already on it: the
  /// request parts the caller writes before that task runs (a unary call's message and end of
  /// input) then travel in the `Open` frame.
  private func scheduleOpen() {
    self.connection.eventLoop.execute { self.open() }
  }

  /// Runs on the event loop: opens the call with everything gathered so far.
  private func open() {
    let taken = self.state.withLockedValue { state -> (Metadata, [Data], Bool)? in
      guard !state.isOver, let metadata = state.metadata else { return nil }
      defer {
        state.pending.removeAll()
        state.pendingBytes = 0
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
    // Parts written while the call was being opened go out before the call is published: once
    // writers see it they send on it directly, and nothing of theirs may overtake these (a
    // half-close ahead of the message it follows would leave the server an empty request).
    var endedMeanwhile = false
    while true {
      let late = self.state.withLockedValue { state -> (messages: [Data], halfClose: Bool)? in
        if state.isOver || (state.pending.isEmpty && !state.halfClosed) {
          state.call = call
          endedMeanwhile = state.isOver
          return nil
        }
        defer {
          state.pending.removeAll()
          state.pendingBytes = 0
          state.halfClosed = false
        }
        return (state.pending, state.halfClosed)
      }
      guard let late else { break }
      for message in late.messages { call.send(message) }
      if late.halfClose { call.halfClose() }
    }
    self.resumeOpenWaiters()
    // The caller gave up while the Open frame was on its way: the callee must hear of it too,
    // or its handler would wait for messages that never come.
    if endedMeanwhile { call.cancel() }
  }

  // MARK: Responses (on the event loop)

  private func received(_ event: ClientCallEvent) {
    switch event {
    case .headers(let metadata):
      _ = self.source.yield(.metadata(Metadata(wire: metadata)))
    case .message(let payload):
      if self.source.yield(.message(BinarioBytes(payload))) == .pauseReading {
        self.state.withLockedValue { $0.call }?.setReadPaused(true)
      }
    case .end(let end):
      self.state.withLockedValue { $0.isOver = true }
      _ = self.source.yield(.status(Status(wire: end), Metadata(wire: end.trailers)))
      self.source.finish()
    }
  }

  /// Ends the call here with `end` (and tells the server, if it knows of the call).
  private func endLocally(_ end: WireEnd) {
    let call = self.state.withLockedValue { state -> BinarioClientCall? in
      guard !state.isOver else { return nil }
      state.isOver = true
      return state.call
    }
    // The local status first: cancelling the call ends it (on the event loop, maybe at once)
    // with CANCELLED, which must not overtake the reason the call really ended.
    _ = self.source.yield(.status(Status(wire: end), [:]))
    self.source.finish()
    call?.cancel()
    self.resumeOpenWaiters()
  }

  /// Called when the caller is done with the stream: a call still open is cancelled.
  func cancelIfOpen() {
    let call = self.state.withLockedValue { state -> BinarioClientCall? in
      guard !state.isOver else { return nil }
      state.isOver = true
      return state.call
    }
    call?.cancel()
    self.resumeOpenWaiters()
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
