import Foundation
import NIOCore

/// What happens to a call on the caller's side, in order, on the connection's event loop.
public enum ClientCallEvent: Sendable {
  /// The callee's initial metadata.
  case headers(WireMetadata)
  /// One message from the callee.
  case message(Data)
  /// The call is over. Local failures end calls too: a closed connection ends them with
  /// `UNAVAILABLE`, a passed deadline with `DEADLINE_EXCEEDED`, ``BinarioClientCall/cancel()``
  /// with `CANCELLED`.
  case end(WireEnd)
}

/// What a caller sends to open a call.
public struct BinarioCallRequest: Sendable {
  public var method: String
  public var metadata: WireMetadata
  public var timeout: Duration?
  /// The first message, when the caller already has it (unary and server-streaming calls).
  public var firstMessage: Data?
  /// No messages follow: a unary call is a single `Open` frame.
  public var halfClose: Bool

  public init(
    method: String,
    metadata: WireMetadata = [],
    timeout: Duration? = nil,
    firstMessage: Data? = nil,
    halfClose: Bool = false
  ) {
    self.method = method
    self.metadata = metadata
    self.timeout = timeout
    self.firstMessage = firstMessage
    self.halfClose = halfClose
  }
}

/// One call on the caller's side of a connection. Methods may be called from any thread.
public final class BinarioClientCall: Sendable {
  public let callID: UInt64
  public let eventLoop: any EventLoop
  private let connection: NIOLoopBound<ClientConnectionHandler>
  private let writability: ConnectionWritability
  let outbound: OutboundFrameQueue
  /// The largest payload ``send(_:)`` accepts.
  public let maximumPayloadSize: Int

  init(
    callID: UInt64,
    connection: NIOLoopBound<ClientConnectionHandler>,
    writability: ConnectionWritability,
    outboundQueueLimit: Int,
    maximumPayloadSize: Int
  ) {
    self.callID = callID
    self.eventLoop = connection.eventLoop
    self.connection = connection
    self.writability = writability
    self.outbound = OutboundFrameQueue(limit: outboundQueueLimit)
    self.maximumPayloadSize = maximumPayloadSize
  }

  /// Sends one message. Returns `false` (sending nothing) if it is too large for a frame.
  @discardableResult
  public func send(_ payload: Data) -> Bool {
    guard payload.count <= self.maximumPayloadSize else { return false }
    self.send(payload, halfClose: false)
    return true
  }

  /// Tells the callee no more messages follow.
  public func halfClose() {
    self.send(nil, halfClose: true)
  }

  /// Sends one message and, if `halfClose`, the end of the caller's messages, in one batch.
  ///
  /// On the event loop, when the connection batches flushes
  /// (``FrameConnectionHandler/batchesWritesOnLoop``), the frames are written at once; otherwise
  /// they queue up and leave with one task on the event loop and one flush (see
  /// ``OutboundFrameQueue``). ``waitUntilWritable()`` waits while that queue is full.
  public func send(_ payload: Data?, halfClose: Bool) {
    var frames: [WireFrame] = []
    if let payload {
      var frame = WireFrame()
      frame.callID = self.callID
      frame.kind = .message(.with { $0.payload = payload })
      frames.append(frame)
    }
    if halfClose {
      var frame = WireFrame()
      frame.callID = self.callID
      frame.kind = .halfClose(.init())
      frames.append(frame)
    }
    // A call opened from another thread is open on the loop only once its opening task ran;
    // until then frames take the queue, whose task runs after the opening one.
    if self.eventLoop.inEventLoop, self.connection.value.batchesWritesOnLoop,
      self.connection.value.isOpen(self.callID)
    {
      self.connection.value.sendCallFrames(self.outbound.takeAll() + frames, callID: self.callID)
    } else if self.outbound.enqueue(frames, bytes: payload?.count ?? 0) {
      self.eventLoop.execute {
        self.connection.value.sendCallFrames(self.outbound.takeAll(), callID: self.callID)
      }
    }
  }

  /// Abandons the call: the callee is told (`Cancel`), and the call ends locally with `CANCELLED`.
  public func cancel() {
    self.onLoop { $0.cancelCall(self.callID, end: WireEnd(code: WireStatusCode.cancelled, message: "cancelled by the caller")) }
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
    self.connection.value.setReadPaused(paused, callID: self.callID)
  }

  private func onLoop(_ body: @escaping @Sendable (ClientConnectionHandler) -> Void) {
    if self.eventLoop.inEventLoop {
      body(self.connection.value)
    } else {
      self.eventLoop.execute { body(self.connection.value) }
    }
  }
}
