import Logging
import NIOCore

/// Receives the calls peers open on a server (callee) connection.
///
/// `acceptCall` runs on the connection's event loop for each new call, before any of the call's
/// events are delivered. Set the call's event handler there (``BinarioServerCall/onEvent(_:)``)
/// to get its events without buffering.
public protocol BinarioCallAcceptor: Sendable {
  func acceptCall(_ call: BinarioServerCall)
}

/// The callee side of a connection: turns `Open`, `Message`, `HalfClose` and `Cancel` frames into
/// ``BinarioServerCall``s and their events, enforces deadlines, and refuses new calls once it is
/// going away.
final class ServerConnectionHandler: FrameConnectionHandler {
  private let acceptor: any BinarioCallAcceptor
  private var calls: [UInt64: BinarioServerCall] = [:]
  private var deadlines: [UInt64: Scheduled<Void>] = [:]
  /// Who is calling, worked out once per connection rather than per call.
  private var peer: BinarioCallPeer?
  /// Whether the listener has begun shutting down (asked at each `Open`, so no call slips in
  /// between the listener's decision and this connection's `GoAway`).
  private let listenerShutdown: @Sendable () -> GracefulShutdownEvent?

  init(
    acceptor: any BinarioCallAcceptor,
    configuration: BinarioConnectionConfiguration,
    requirePeerIdentity: Bool,
    logger: Logger,
    listenerShutdown: @escaping @Sendable () -> GracefulShutdownEvent? = { nil }
  ) {
    self.acceptor = acceptor
    self.listenerShutdown = listenerShutdown
    super.init(configuration: configuration, requirePeerIdentity: requirePeerIdentity, logger: logger)
  }

  override var openCallCount: Int { self.calls.count }

  override func callFrameReceived(_ frame: WireFrame) throws {
    let id = frame.callID
    switch frame.kind {
    case .open(let open):
      try self.open(id: id, open)
    case .message(let message):
      self.calls[id]?.deliver(.message(message.payload))
    case .halfClose:
      self.calls[id]?.deliver(.halfClose)
    case .cancel:
      if let call = self.calls[id] {
        self.remove(id)
        call.deliver(.cancelled(.cancelledByPeer))
      }
    case .headers, .end:
      throw BinarioProtocolError.unexpectedFrame("a caller sent a callee's frame")
    case .ping, .pong, .goAway:
      throw BinarioProtocolError.unexpectedFrame("connection frame with call_id \(id)")
    case .none:
      throw BinarioProtocolError.unexpectedFrame("frame with no kind")
    }
  }

  private func open(id: UInt64, _ open: WireOpen) throws {
    guard self.calls[id] == nil else {
      throw BinarioProtocolError.unexpectedFrame("Open for call \(id), which is already open")
    }
    let shutdown = self.goAwaySent ? nil : self.listenerShutdown()
    if self.goAwaySent || shutdown != nil {
      var end = WireFrame()
      end.callID = id
      end.kind = .end(WireEnd.refused("server is shutting down; retry"))
      self.writeFrame(end)
      // The listener's shutdown event is still on its way to this connection: apply it now.
      if let shutdown { self.beginGracefulShutdown(gracePeriod: shutdown.gracePeriod) }
      return
    }
    if let limit = self.configuration.maximumConcurrentCalls, self.calls.count >= limit {
      var end = WireFrame()
      end.callID = id
      end.kind = .end(
        WireEnd(
          code: WireStatusCode.resourceExhausted,
          message: "\(limit) calls are open on this connection, the most it takes; wait for one to end, or open another connection"
        )
      )
      self.writeFrame(end)
      return
    }
    guard let context, let peer = self.peer else { return }
    let call = BinarioServerCall(callID: id, open: open, peer: peer, connection: self, eventLoop: context.eventLoop)
    self.calls[id] = call
    if let timeout = call.timeout {
      self.deadlines[id] = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) {
        self.deadlineExceeded(id)
      }
    }
    self.openCallsChanged()
    self.acceptor.acceptCall(call)
    if open.hasPayload { call.deliver(.message(open.payload)) }
    if open.halfClose { call.deliver(.halfClose) }
  }

  private func deadlineExceeded(_ id: UInt64) {
    guard let call = self.calls[id] else { return }
    var end = WireFrame()
    end.callID = id
    end.kind = .end(WireEnd(code: WireStatusCode.deadlineExceeded, message: "deadline exceeded"))
    self.writeFrame(end)
    self.remove(id)
    call.deliver(.cancelled(.deadlineExceeded))
  }

  /// The call's owner ended it (its `End` frame is written).
  func callEnded(_ id: UInt64) {
    self.remove(id)
  }

  private func remove(_ id: UInt64) {
    guard self.calls.removeValue(forKey: id) != nil else { return }
    self.deadlines.removeValue(forKey: id)?.cancel()
    self.openCallsChanged()
  }

  override func connectionReady() {
    guard let context else { return }
    self.peer = BinarioCallPeer(
      identity: self.peerIdentity,
      remoteAddress: context.channel.remoteAddress?.description ?? "unknown",
      localAddress: context.channel.localAddress?.description ?? "unknown"
    )
  }

  override func connectionClosed() {
    let calls = self.calls
    self.calls.removeAll()
    for (_, deadline) in self.deadlines { deadline.cancel() }
    self.deadlines.removeAll()
    for (_, call) in calls { call.deliver(.cancelled(.connectionClosed)) }
  }
}
