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
  /// The largest payload ``send(_:)`` accepts.
  public let maximumPayloadSize: Int

  init(
    callID: UInt64,
    connection: NIOLoopBound<ClientConnectionHandler>,
    writability: ConnectionWritability,
    maximumPayloadSize: Int
  ) {
    self.callID = callID
    self.eventLoop = connection.eventLoop
    self.connection = connection
    self.writability = writability
    self.maximumPayloadSize = maximumPayloadSize
  }

  /// Sends one message. Returns `false` (sending nothing) if it is too large for a frame.
  @discardableResult
  public func send(_ payload: Data) -> Bool {
    guard payload.count <= self.maximumPayloadSize else { return false }
    self.onLoop { $0.sendMessage(payload, callID: self.callID) }
    return true
  }

  /// Tells the callee no more messages follow.
  public func halfClose() {
    self.onLoop { $0.sendHalfClose(callID: self.callID) }
  }

  /// Sends one message and, if `halfClose`, the end of the caller's messages, in one batch.
  public func send(_ payload: Data?, halfClose: Bool) {
    self.onLoop { connection in
      if let payload { connection.sendMessage(payload, callID: self.callID) }
      if halfClose { connection.sendHalfClose(callID: self.callID) }
    }
  }

  /// Abandons the call: the callee is told (`Cancel`), and the call ends locally with `CANCELLED`.
  public func cancel() {
    self.onLoop { $0.cancelCall(self.callID, end: WireEnd(code: WireStatusCode.cancelled, message: "cancelled by the caller")) }
  }

  /// Returns once the connection can take more bytes (or has closed).
  public func waitUntilWritable() async {
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
