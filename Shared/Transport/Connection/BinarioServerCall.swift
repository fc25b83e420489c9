import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// What happens to a call on the callee's side, in order, on the connection's event loop.
public enum ServerCallEvent: Sendable {
  /// One message from the caller.
  case message(Data)
  /// The caller sent its last message.
  case halfClose
  /// The call ended without the callee ending it: the caller cancelled, the deadline passed
  /// (the transport has already answered `DEADLINE_EXCEEDED`), or the connection closed.
  /// Nothing the callee sends afterwards goes anywhere.
  case cancelled(CallCancellationReason)
}

/// Why a call was abandoned before it ended normally.
public enum CallCancellationReason: Sendable, Hashable {
  case cancelledByPeer
  case deadlineExceeded
  case connectionClosed
}

/// Who opened a call and over what: the peer's proven identity (absent on server-only TLS) and
/// its address.
public struct BinarioCallPeer: Sendable, Hashable {
  public var identity: BinarioPeerIdentity?
  public var remoteAddress: String
  public var localAddress: String

  public init(identity: BinarioPeerIdentity?, remoteAddress: String, localAddress: String) {
    self.identity = identity
    self.remoteAddress = remoteAddress
    self.localAddress = localAddress
  }
}

/// One call on the callee's side of a connection, as the frame layer sees it: the `Open` frame's
/// contents, a stream of ``ServerCallEvent``s, and methods to answer.
///
/// Answering methods may be called from any thread; they hop to the connection's event loop when
/// needed. Events are delivered on the event loop to the handler set with ``onEvent(_:)``; events
/// that arrive before a handler is set are kept and replayed to it.
public final class BinarioServerCall: Sendable {
  public let callID: UInt64
  /// The full method name, e.g. `/binario.identity.v1.Identity/Login`.
  public let method: String
  public let metadata: WireMetadata
  /// The caller's timeout (`timeout_ms`), or `nil` for none. The transport enforces it.
  public let timeout: Duration?
  public let peer: BinarioCallPeer
  public let eventLoop: any EventLoop

  private let state: NIOLoopBoundBox<State>
  private let connection: NIOLoopBound<ServerConnectionHandler>
  let writability: ConnectionWritability
  private let outbound: OutboundFrameQueue
  /// The largest payload ``sendMessage(_:)`` accepts.
  public let maximumPayloadSize: Int

  struct State {
    var handler: (@Sendable (ServerCallEvent) -> Void)?
    var pendingEvents: [ServerCallEvent] = []
    var isFinished = false
    var readPaused = false
  }

  init(
    callID: UInt64,
    open: WireOpen,
    peer: BinarioCallPeer,
    connection: ServerConnectionHandler,
    eventLoop: any EventLoop
  ) {
    self.callID = callID
    self.method = open.method
    self.metadata = open.metadata
    self.timeout = open.timeoutMs == 0 ? nil : .milliseconds(Int64(clamping: open.timeoutMs))
    self.peer = peer
    self.eventLoop = eventLoop
    self.state = NIOLoopBoundBox(State(), eventLoop: eventLoop)
    self.connection = NIOLoopBound(connection, eventLoop: eventLoop)
    self.writability = connection.writability
    self.outbound = OutboundFrameQueue(limit: connection.configuration.outboundQueueLimit)
    self.maximumPayloadSize = connection.configuration.maximumPayloadSize
  }

  /// Sets the receiver of this call's events. Must be called on ``eventLoop``.
  public func onEvent(_ handler: @escaping @Sendable (ServerCallEvent) -> Void) {
    let pending = self.state.value.pendingEvents
    self.state.value.pendingEvents = []
    // A call already over only hands over what it had: kept, the handler (which usually
    // captures the call) and the call would keep each other alive.
    if !self.state.value.isFinished { self.state.value.handler = handler }
    for event in pending { handler(event) }
  }

  /// Sends initial metadata (at most once, before any message).
  public func sendHeaders(_ metadata: WireMetadata) {
    var frame = WireFrame()
    frame.callID = self.callID
    frame.kind = .headers(.with { $0.metadata = metadata })
    self.send([frame], ends: false)
  }

  /// Sends one message. Returns `false` (sending nothing) if it is too large for a frame.
  @discardableResult
  public func sendMessage(_ payload: Data) -> Bool {
    guard payload.count <= self.maximumPayloadSize else { return false }
    var frame = WireFrame()
    frame.callID = self.callID
    frame.kind = .message(.with { $0.payload = payload })
    self.send([frame], ends: false)
    return true
  }

  /// Ends the call with a status and trailers.
  public func end(_ end: WireEnd) {
    var frame = WireFrame()
    frame.callID = self.callID
    frame.kind = .end(end)
    self.send([frame], ends: true)
  }

  /// On the event loop, frames are written at once when the connection batches their flush
  /// (``FrameConnectionHandler/batchesWritesOnLoop``). Otherwise frames queue up and one task on
  /// the event loop writes everything queued by then with a single flush (see
  /// ``OutboundFrameQueue``): a handler answering a unary call (headers, message, end) costs one
  /// flush, not three, wherever its task runs.
  func send(_ frames: [WireFrame], ends: Bool) {
    if self.eventLoop.inEventLoop, self.connection.value.batchesWritesOnLoop {
      self.sendOnLoop(self.outbound.takeAll() + frames)
      return
    }
    let bytes = frames.reduce(0) { $0 + $1.payloadSize }
    if self.outbound.enqueue(frames, bytes: bytes) {
      self.eventLoop.execute { self.sendOnLoop(self.outbound.takeAll()) }
    }
  }

  private func sendOnLoop(_ frames: [WireFrame]) {
    guard !frames.isEmpty, !self.state.value.isFinished else { return }
    let connection = self.connection.value
    connection.writeFrames(frames)
    if frames.contains(where: \.isEnd) {
      self.finish()
      connection.callEnded(self.callID)
    }
  }

  /// Whether this call may send more right now without waiting: its queue ahead of the event
  /// loop has room and the connection takes more bytes.
  public var isWritable: Bool { self.outbound.hasRoom && self.writability.isWritable }

  /// Returns once this call may send more (or is over): writers that wait here after each
  /// message never make either side buffer without bound.
  public func waitUntilWritable() async {
    await self.outbound.waitForRoom()
    await self.writability.waitUntilWritable()
  }

  /// Stops (or resumes) reading the connection while this call's reader is behind.
  /// Must be called on ``eventLoop``.
  public func setReadPaused(_ paused: Bool) {
    guard self.state.value.readPaused != paused, !self.state.value.isFinished else { return }
    self.state.value.readPaused = paused
    if paused {
      self.connection.value.pauseReading()
    } else {
      self.connection.value.resumeReading()
    }
  }

  // MARK: Driven by the connection handler, on the event loop

  var isFinished: Bool { self.state.value.isFinished }

  func deliver(_ event: ServerCallEvent) {
    guard !self.state.value.isFinished else { return }
    let handler = self.state.value.handler
    if case .cancelled = event { self.finish() }
    if let handler {
      handler(event)
    } else {
      self.state.value.pendingEvents.append(event)
    }
  }

  private func finish() {
    self.state.value.isFinished = true
    // The handler usually captures this call: dropping it breaks the cycle, so the call (and
    // whatever its handler holds) is freed once the connection forgets it.
    self.state.value.handler = nil
    self.outbound.close()
    if self.state.value.readPaused {
      self.state.value.readPaused = false
      self.connection.value.resumeReading()
    }
  }
}
