import BinarioTransport
import Foundation
import NIOCore
import Synchronization

/// A call from one of the gateway's async front doors (gRPC over HTTP/2, HTTP/JSON), shaped as
/// the frame layer's server call so ``GatewayCallForwarder`` checks, forwards and logs it like
/// any other.
///
/// The front door feeds the client's side in with ``deliver(_:)`` (waiting on
/// ``waitWhileReadsPaused()`` before reading the client's next message) and writes what
/// ``nextResponses()`` gives to the client, calling ``responseWritten(bytes:)`` after each
/// message: that is how ``isWritable`` learns the client keeps up. When the client goes away it
/// calls ``clientCancelled()``. The call enforces its own deadline.
///
/// Answers come in batches, everything sent since the front door last asked: a unary answer
/// (headers, message, end) sent in one turn of the event loop reaches the client in one write.
public final class BridgedClientCall: GatewayClientCall {
  /// What the gateway answers, in order; nothing follows `.end`, or the client's cancellation.
  public enum Response: Sendable {
    case headers(WireMetadata)
    case message(Data)
    case end(WireEnd)
  }

  /// Unwritten response bytes above which ``isWritable`` is false.
  static let highWaterBytes = 256 * 1024

  public let door: GatewayDoor
  public let method: String
  public let metadata: WireMetadata
  public let timeout: Duration?
  public let peer: BinarioCallPeer
  public let eventLoop: any EventLoop
  public let maximumPayloadSize: Int
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
    /// Answers not yet taken by the front door.
    var responses: [Response] = []
    /// The front door waiting for answers.
    var responseWaiter: CheckedContinuation<[Response], Never>?
  }

  public init(
    door: GatewayDoor,
    method: String,
    metadata: WireMetadata,
    timeout: Duration?,
    peer: BinarioCallPeer,
    eventLoop: any EventLoop,
    maximumPayloadSize: Int
  ) {
    self.door = door
    self.method = method
    self.metadata = metadata
    self.timeout = timeout
    self.peer = peer
    self.eventLoop = eventLoop
    self.maximumPayloadSize = maximumPayloadSize
    if let timeout {
      let (seconds, attoseconds) = timeout.components
      let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
      let delay = nanoseconds.overflow ? Int64.max : nanoseconds.partialValue + attoseconds / 1_000_000_000
      let scheduled = eventLoop.scheduleTask(in: .nanoseconds(max(0, delay))) { [weak self] () -> Void in self?.expire() }
      self.state.withLock { $0.deadline = scheduled }
    }
  }

  // MARK: The front door's side

  /// Every answer sent since the last call, in order, waiting for one if there is none yet;
  /// empty once the answer is over and all of it has been taken.
  public func nextResponses() async -> [Response] {
    await withCheckedContinuation { (continuation: CheckedContinuation<[Response], Never>) in
      let ready = self.state.withLock { state -> [Response]? in
        guard state.responses.isEmpty, !state.isOver else {
          defer { state.responses = [] }
          return state.responses
        }
        state.responseWaiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

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

  /// The gateway is shutting down: the call ends now, the client told `UNAVAILABLE` so that
  /// it reconnects (to another replica, or to this one once it is back).
  public func gatewayShuttingDown() {
    self.abandon(
      .connectionClosed,
      answer: WireEnd(code: WireStatusCode.unavailable, message: "the gateway is shutting down; reconnect")
    )
  }

  /// Resumes a front door waiting in ``nextResponses()`` with no answers (the call goes on), so
  /// it can do something else (write a keep-alive) and wait again.
  func wakeWaitingReader() {
    let waiter = self.state.withLock { state -> CheckedContinuation<[Response], Never>? in
      guard state.responses.isEmpty, let waiter = state.responseWaiter else { return nil }
      state.responseWaiter = nil
      return waiter
    }
    waiter?.resume(returning: [])
  }

  /// Whether the answer is over: nothing more will come.
  var isOver: Bool { self.state.withLock { $0.isOver } }

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
      // Kept only while the call lasts: the handler holds what relays the call, which holds
      // this call, and the cycle must end with the call.
      if !state.isOver { state.handler = handler }
      defer { state.pending = [] }
      return state.pending
    }
    for event in pending { handler(event) }
  }

  public func sendHeaders(_ metadata: WireMetadata) {
    let waiter = self.state.withLock { state in
      state.isOver ? nil : Self.answer(.headers(metadata), in: &state)
    }
    waiter?()
  }

  @discardableResult
  public func sendMessage(_ payload: Data) -> Bool {
    guard payload.count <= self.maximumPayloadSize else { return false }
    let waiter = self.state.withLock { state -> (() -> Void)? in
      guard !state.isOver else { return nil }
      state.unwrittenBytes += payload.count
      return Self.answer(.message(payload), in: &state)
    }
    waiter?()
    return true
  }

  public func end(_ end: WireEnd) {
    let (deadline, wake) = self.state.withLock { state -> (Scheduled<Void>?, () -> Void) in
      guard !state.isOver else { return (nil, {}) }
      state.responses.append(.end(end))
      return Self.close(&state)
    }
    deadline?.cancel()
    wake()
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
      let (handler, deadline, wake) = self.state.withLock {
        state -> ((@Sendable (ServerCallEvent) -> Void)?, Scheduled<Void>?, () -> Void) in
        guard !state.isOver else { return (nil, nil, {}) }
        if let answer { state.responses.append(.end(answer)) }
        let handler = state.handler
        if handler == nil { state.pending.append(.cancelled(reason)) }
        let (deadline, wake) = Self.close(&state)
        return (handler, deadline, wake)
      }
      deadline?.cancel()
      wake()
      handler?(.cancelled(reason))
    }
    if self.eventLoop.inEventLoop { work() } else { self.eventLoop.execute(work) }
  }

  /// Queues an answer; returns what wakes the front door if it is waiting for one.
  private static func answer(_ response: Response, in state: inout State) -> (() -> Void)? {
    state.responses.append(response)
    guard let waiter = state.responseWaiter else { return nil }
    state.responseWaiter = nil
    let batch = state.responses
    state.responses = []
    return { waiter.resume(returning: batch) }
  }

  /// Marks the answer over; returns the deadline to cancel and what wakes every waiter (the
  /// front door gets the last answers, or learns there are none).
  private static func close(_ state: inout State) -> (Scheduled<Void>?, () -> Void) {
    state.isOver = true
    state.handler = nil
    let waiters = state.writableWaiters + state.readWaiters
    state.writableWaiters = []
    state.readWaiters = []
    let responseWaiter = state.responseWaiter
    state.responseWaiter = nil
    let batch = state.responses
    if responseWaiter != nil { state.responses = [] }
    let deadline = state.deadline
    state.deadline = nil
    return (
      deadline,
      {
        for waiter in waiters { waiter.resume() }
        responseWaiter?.resume(returning: batch)
      }
    )
  }
}

/// A bridged call's answers one at a time, for a front door that handles them one by one.
struct BridgedResponseReader: Sendable {
  let call: BridgedClientCall
  /// The rest of the last batch, last answer first.
  private var buffered: [BridgedClientCall.Response] = []

  init(_ call: BridgedClientCall) {
    self.call = call
  }

  /// The next answer; `nil` once there are no more.
  mutating func next() async -> BridgedClientCall.Response? {
    if self.buffered.isEmpty {
      self.buffered = await self.call.nextResponses().reversed()
    }
    return self.buffered.popLast()
  }

  enum Waited {
    case response(BridgedClientCall.Response)
    /// Nothing came for the idle time; the call goes on.
    case idle
    case finished
  }

  /// The next answer, or ``Waited/idle`` when none comes within `idle`.
  mutating func next(idle: TimeAmount) async -> Waited {
    if self.buffered.isEmpty {
      let call = self.call
      let timer = call.eventLoop.scheduleTask(in: idle) { call.wakeWaitingReader() }
      let batch = await call.nextResponses()
      timer.cancel()
      if batch.isEmpty { return call.isOver ? .finished : .idle }
      self.buffered = batch.reversed()
    }
    return self.buffered.popLast().map { .response($0) } ?? .finished
  }
}
