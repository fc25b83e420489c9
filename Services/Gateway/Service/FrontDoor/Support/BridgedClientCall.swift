import BinarioTransport
import Foundation
import NIOCore
import Synchronization

/// A call from one of the gateway's async front doors (gRPC over HTTP/2, HTTP/JSON), shaped as
/// the frame layer's server call so ``GatewayCallForwarder`` checks, forwards and logs it like
/// any other.
///
/// The front door feeds the client's side in with ``deliver(_:)`` (waiting on
/// ``waitWhileReadsPaused()`` before reading the client's next message) and writes what arrives
/// on ``responses`` to the client, calling ``responseWritten(bytes:)`` after each message: that
/// is how ``isWritable`` learns the client keeps up. When the client goes away it calls
/// ``clientCancelled()``. The call enforces its own deadline.
public final class BridgedClientCall: GatewayClientCall {
  /// What the gateway answers, in order; the stream finishes after `.end`, or when the client
  /// cancelled.
  public enum Response: Sendable {
    case headers(WireMetadata)
    case message(Data)
    case end(WireEnd)
  }

  /// Unwritten response bytes above which ``isWritable`` is false.
  static let highWaterBytes = 256 * 1024

  public let method: String
  public let metadata: WireMetadata
  public let timeout: Duration?
  public let peer: BinarioCallPeer
  public let eventLoop: any EventLoop
  public let maximumPayloadSize: Int
  public let responses: AsyncStream<Response>
  private let continuation: AsyncStream<Response>.Continuation
  private let state = Mutex(State())

  private struct State {
    var handler: (@Sendable (ServerCallEvent) -> Void)?
    /// Events delivered before a handler was set.
    var pending: [ServerCallEvent] = []
    /// The answer is over (ended, expired or cancelled): nothing more is sent or delivered.
    var isOver = false
    var unwrittenBytes = 0
    var writableWaiters: [CheckedContinuation<Void, Never>] = []
    var readsPaused = false
    var readWaiters: [CheckedContinuation<Void, Never>] = []
    var deadline: Scheduled<Void>?
  }

  public init(
    method: String,
    metadata: WireMetadata,
    timeout: Duration?,
    peer: BinarioCallPeer,
    eventLoop: any EventLoop,
    maximumPayloadSize: Int
  ) {
    self.method = method
    self.metadata = metadata
    self.timeout = timeout
    self.peer = peer
    self.eventLoop = eventLoop
    self.maximumPayloadSize = maximumPayloadSize
    (self.responses, self.continuation) = AsyncStream.makeStream(of: Response.self)
    if let timeout {
      let (seconds, attoseconds) = timeout.components
      let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
      let delay = nanoseconds.overflow ? Int64.max : nanoseconds.partialValue + attoseconds / 1_000_000_000
      let scheduled = eventLoop.scheduleTask(in: .nanoseconds(max(0, delay))) { [weak self] () -> Void in self?.expire() }
      self.state.withLock { $0.deadline = scheduled }
    }
  }

  // MARK: The front door's side

  /// One event from the client; hops to the event loop.
  public func deliver(_ event: ServerCallEvent) {
    if self.eventLoop.inEventLoop {
      self.deliverOnLoop(event)
    } else {
      self.eventLoop.execute { self.deliverOnLoop(event) }
    }
  }

  /// The client went away (reset the stream, closed the connection) before the answer ended.
  public func clientCancelled() {
    self.abandon(.cancelledByPeer, answer: nil)
  }

  /// Returns while the gateway wants the client's messages (at once unless paused).
  public func waitWhileReadsPaused() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = self.state.withLock { state -> Bool in
        guard state.readsPaused, !state.isOver else { return true }
        state.readWaiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  /// The front door has written a message of `bytes` from ``responses`` to the client.
  public func responseWritten(bytes: Int) {
    let waiters = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.unwrittenBytes -= bytes
      guard state.unwrittenBytes < Self.highWaterBytes else { return [] }
      defer { state.writableWaiters = [] }
      return state.writableWaiters
    }
    for waiter in waiters { waiter.resume() }
  }

  // MARK: GatewayClientCall

  public func onEvent(_ handler: @escaping @Sendable (ServerCallEvent) -> Void) {
    self.eventLoop.preconditionInEventLoop()
    let pending = self.state.withLock { state -> [ServerCallEvent] in
      state.handler = handler
      defer { state.pending = [] }
      return state.pending
    }
    for event in pending { handler(event) }
  }

  public func sendHeaders(_ metadata: WireMetadata) {
    self.state.withLock { state in
      guard !state.isOver else { return }
      self.continuation.yield(.headers(metadata))
    }
  }

  @discardableResult
  public func sendMessage(_ payload: Data) -> Bool {
    guard payload.count <= self.maximumPayloadSize else { return false }
    self.state.withLock { state in
      guard !state.isOver else { return }
      state.unwrittenBytes += payload.count
      self.continuation.yield(.message(payload))
    }
    return true
  }

  public func end(_ end: WireEnd) {
    let (deadline, waiters) = self.state.withLock { state -> (Scheduled<Void>?, [CheckedContinuation<Void, Never>]) in
      guard !state.isOver else { return (nil, []) }
      self.continuation.yield(.end(end))
      return Self.close(&state)
    }
    self.continuation.finish()
    deadline?.cancel()
    for waiter in waiters { waiter.resume() }
  }

  public var isWritable: Bool {
    self.state.withLock { $0.isOver || $0.unwrittenBytes < Self.highWaterBytes }
  }

  public func waitUntilWritable() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = self.state.withLock { state -> Bool in
        guard !state.isOver, state.unwrittenBytes >= Self.highWaterBytes else { return true }
        state.writableWaiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  public func setReadPaused(_ paused: Bool) {
    let waiters = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.readsPaused = paused
      guard !paused else { return [] }
      defer { state.readWaiters = [] }
      return state.readWaiters
    }
    for waiter in waiters { waiter.resume() }
  }

  // MARK: Internals

  private func deliverOnLoop(_ event: ServerCallEvent) {
    let handler = self.state.withLock { state -> (@Sendable (ServerCallEvent) -> Void)? in
      guard !state.isOver else { return nil }
      guard let handler = state.handler else {
        state.pending.append(event)
        return nil
      }
      return handler
    }
    handler?(event)
  }

  private func expire() {
    self.abandon(.deadlineExceeded, answer: WireEnd(code: WireStatusCode.deadlineExceeded, message: "deadline exceeded"))
  }

  /// Ends the call without the gateway ending it: tells the client `answer` (if it is still
  /// there) and the handler why.
  private func abandon(_ reason: CallCancellationReason, answer: WireEnd?) {
    let work: @Sendable () -> Void = {
      let (handler, deadline, waiters) = self.state.withLock {
        state -> ((@Sendable (ServerCallEvent) -> Void)?, Scheduled<Void>?, [CheckedContinuation<Void, Never>]) in
        guard !state.isOver else { return (nil, nil, []) }
        if let answer { self.continuation.yield(.end(answer)) }
        let handler = state.handler
        if handler == nil { state.pending.append(.cancelled(reason)) }
        let (deadline, waiters) = Self.close(&state)
        return (handler, deadline, waiters)
      }
      self.continuation.finish()
      deadline?.cancel()
      for waiter in waiters { waiter.resume() }
      handler?(.cancelled(reason))
    }
    if self.eventLoop.inEventLoop { work() } else { self.eventLoop.execute(work) }
  }

  /// Marks the answer over; returns the deadline to cancel and every waiter to resume.
  private static func close(_ state: inout State) -> (Scheduled<Void>?, [CheckedContinuation<Void, Never>]) {
    state.isOver = true
    let waiters = state.writableWaiters + state.readWaiters
    state.writableWaiters = []
    state.readWaiters = []
    defer { state.deadline = nil }
    return (state.deadline, waiters)
  }
}
