import Logging
import NIOCore
import NIOSSL
import NIOTLS

/// What both sides of a Binario connection share: the TLS handshake check, keepalive, idle
/// timeout, `GoAway`, batched flushes, read pausing for backpressure, and closing on protocol
/// errors.
///
/// ``ServerConnectionHandler`` (the callee side) and ``ClientConnectionHandler`` (the caller side)
/// add the per-call frame handling. Everything here runs on the channel's event loop.
class FrameConnectionHandler: ChannelDuplexHandler {
  typealias InboundIn = WireFrame
  typealias OutboundIn = WireFrame
  typealias OutboundOut = WireFrame

  let configuration: BinarioConnectionConfiguration
  let logger: Logger
  let writability = ConnectionWritability()
  /// Whether this side requires the peer to present exactly one URI SAN.
  private let requirePeerIdentity: Bool

  private(set) var context: ChannelHandlerContext?
  private(set) var peerIdentity: BinarioPeerIdentity?
  private(set) var isActive = false
  private(set) var isReady = false
  private(set) var goAwaySent = false
  private(set) var goAwayReceived = false

  private var isReading = false
  private var flushPending = false
  /// A task that flushes at the end of the loop's current batch is queued.
  private var flushTaskQueued = false
  private var framesSinceFlush = 0
  private var pendingShutdown: GracefulShutdownEvent?
  private var readPausers = 0
  private var readPending = false

  private var receivedSinceKeepaliveCheck = false
  private var nextPingNonce: UInt64 = 1
  private var keepaliveTask: Scheduled<Void>?
  private var idleTask: Scheduled<Void>?
  /// When the last call ended, while none is open.
  private var idleSince: NIODeadline?
  private var graceTask: Scheduled<Void>?

  init(configuration: BinarioConnectionConfiguration, requirePeerIdentity: Bool, logger: Logger) {
    self.configuration = configuration
    self.requirePeerIdentity = requirePeerIdentity
    self.logger = logger
  }

  // MARK: For subclasses

  /// A frame of a call (`call_id` ≠ 0) arrived.
  func callFrameReceived(_ frame: WireFrame) throws {}
  /// The connection is usable: TLS handshake done, peer identity checked.
  func connectionReady() {}
  /// The connection is gone; every open call must be ended.
  func connectionClosed() {}
  /// The peer sent `GoAway`.
  func peerWentAway(reason: String) {}
  /// The number of calls open on this connection (for idle detection and draining).
  var openCallCount: Int { 0 }

  // MARK: Writing

  /// Writes a frame; the flush happens at the end of the current read burst, or right away when
  /// not inside one.
  final func writeFrame(_ frame: WireFrame) {
    guard let context, self.isActive else { return }
    context.write(self.wrapOutboundOut(frame), promise: nil)
    self.flushAfterWriting(frames: 1, context: context)
  }

  /// Writes several frames with one flush.
  final func writeFrames(_ frames: some Sequence<WireFrame>) {
    guard let context, self.isActive else { return }
    var count = 0
    for frame in frames {
      context.write(self.wrapOutboundOut(frame), promise: nil)
      count += 1
    }
    self.flushAfterWriting(frames: count, context: context)
  }

  /// Inside a read burst, frames wait for the burst's end to leave with one flush, unless
  /// ``flushEveryFrames`` have piled up: then they leave at once, so the peer can work on the
  /// first answers while this side works on the rest of the burst (both sides busy at once,
  /// instead of taking turns on whole bursts). Outside a burst (a task answering a call) they
  /// wait for a flush queued behind the loop's current tasks, so the answers of every call
  /// written in this batch leave together (see
  /// ``BinarioConnectionConfiguration/coalescesFlushes``).
  private func flushAfterWriting(frames: Int, context: ChannelHandlerContext) {
    self.flushPending = true
    guard self.isReading else {
      self.flushOutsideReadBurst(context: context)
      return
    }
    self.framesSinceFlush += frames
    if self.framesSinceFlush >= Self.flushEveryFrames {
      self.framesSinceFlush = 0
      self.flushIfPending()
    }
  }

  private func flushOutsideReadBurst(context: ChannelHandlerContext) {
    guard self.configuration.coalescesFlushes else {
      self.flushIfPending()
      return
    }
    guard !self.flushTaskQueued else { return }
    self.flushTaskQueued = true
    context.eventLoop.assumeIsolated().execute {
      self.flushTaskQueued = false
      self.flushIfPending()
    }
  }

  private func flushIfPending() {
    guard self.flushPending, let context = self.context else { return }
    self.flushPending = false
    context.flush()
  }

  /// Closes the connection after flushing what was written in the current read burst (a last
  /// `End` or `GoAway`).
  final func closeConnection() {
    self.flushIfPending()
    self.context?.close(promise: nil)
  }

  func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
    self.flushIfPending()
    context.close(mode: mode, promise: promise)
  }

  /// Whether frames written on the event loop right now leave together with others, with one
  /// flush: inside a read burst they leave with the burst's flush, and with
  /// ``BinarioConnectionConfiguration/coalescesFlushes`` with the flush queued behind the loop's
  /// current tasks. Writers on the loop then write at once instead of queueing a task of their own.
  var batchesWritesOnLoop: Bool { self.isReading || self.configuration.coalescesFlushes }

  /// How many frames written during one read burst leave together at most.
  static let flushEveryFrames = 32

  // MARK: Backpressure on reads

  /// Stops reading from the socket until every pauser has resumed; used when a call's reader is
  /// slower than its peer's writer.
  final func pauseReading() {
    self.readPausers += 1
  }

  final func resumeReading() {
    guard self.readPausers > 0 else { return }
    self.readPausers -= 1
    if self.readPausers == 0, self.readPending, let context {
      self.readPending = false
      context.read()
    }
  }

  func read(context: ChannelHandlerContext) {
    if self.readPausers > 0 {
      self.readPending = true
    } else {
      context.read()
    }
  }

  // MARK: Lifecycle

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
    if context.channel.isActive { self.becameActive(context: context) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    self.context = nil
  }

  func channelActive(context: ChannelHandlerContext) {
    self.becameActive(context: context)
    context.fireChannelActive()
  }

  private func becameActive(context: ChannelHandlerContext) {
    guard !self.isActive else { return }
    self.isActive = true
    self.scheduleKeepalive()
    if let pending = self.pendingShutdown {
      self.pendingShutdown = nil
      self.beginGracefulShutdown(gracePeriod: pending.gracePeriod)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    self.isActive = false
    self.isReady = false
    self.keepaliveTask?.cancel()
    self.idleTask?.cancel()
    self.graceTask?.cancel()
    self.writability.close()
    self.connectionClosed()
    context.fireChannelInactive()
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    self.writability.update(isWritable: context.channel.isWritable)
    context.fireChannelWritabilityChanged()
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case TLSUserEvent.handshakeCompleted(let negotiated) = event {
      self.handshakeCompleted(context: context, negotiatedProtocol: negotiated)
    }
    context.fireUserInboundEventTriggered(event)
  }

  private func handshakeCompleted(context: ChannelHandlerContext, negotiatedProtocol: String?) {
    guard negotiatedProtocol == binarioALPNIdentifier else {
      self.closeForProtocolError(BinarioProtocolError.wrongApplicationProtocol(negotiatedProtocol))
      return
    }
    if let certificate = try? context.pipeline.syncOperations.nioSSL_peerCertificate() {
      do {
        self.peerIdentity = try BinarioPeerIdentity(certificate: certificate)
      } catch {
        if self.requirePeerIdentity {
          self.logger.warning("refusing peer", metadata: ["reason": "\(error)"])
          self.sendGoAway(reason: "\(error)")
          self.closeConnection()
          return
        }
      }
    } else if self.requirePeerIdentity {
      self.logger.warning("refusing peer", metadata: ["reason": "no client certificate"])
      self.closeConnection()
      return
    }
    self.isReady = true
    self.openCallsChanged()
    self.connectionReady()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if let protocolError = error as? BinarioProtocolError {
      self.closeForProtocolError(protocolError)
    } else {
      self.logger.debug("connection error", metadata: ["error": "\(error)"])
      self.closeConnection()
    }
  }

  final func closeForProtocolError(_ error: BinarioProtocolError) {
    self.logger.warning("closing connection: protocol error", metadata: ["error": "\(error)"])
    self.sendGoAway(reason: "protocol error: \(error)")
    self.closeConnection()
  }

  // MARK: Reading

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = self.unwrapInboundIn(data)
    self.isReading = true
    self.receivedSinceKeepaliveCheck = true
    guard self.isReady else {
      // TLS delivers application data only after the handshake; a frame before `isReady` means
      // the handshake check refused the peer and the close is under way.
      return
    }
    do {
      if frame.callID == 0 {
        try self.connectionFrameReceived(frame)
      } else {
        try self.callFrameReceived(frame)
      }
    } catch let error as BinarioProtocolError {
      self.closeForProtocolError(error)
    } catch {
      self.closeForProtocolError(.unexpectedFrame("\(error)"))
    }
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    self.isReading = false
    self.framesSinceFlush = 0
    self.flushIfPending()
    context.fireChannelReadComplete()
  }

  private func connectionFrameReceived(_ frame: WireFrame) throws {
    switch frame.kind {
    case .ping(let ping):
      var pong = WireFrame()
      pong.kind = .pong(.with { $0.nonce = ping.nonce })
      self.writeFrame(pong)
    case .pong:
      ()  // Receiving anything counts as liveness.
    case .goAway(let goAway):
      self.goAwayReceived = true
      self.peerWentAway(reason: goAway.reason)
      self.closeIfDrained()
    default:
      throw BinarioProtocolError.unexpectedFrame("call frame with call_id 0")
    }
  }

  // MARK: Keepalive, idle, going away

  private func scheduleKeepalive() {
    guard let context else { return }
    let loop = context.eventLoop.assumeIsolated()
    self.keepaliveTask = loop.scheduleTask(in: TimeAmount(self.configuration.keepaliveInterval)) {
      self.keepaliveCheck()
    }
  }

  private func keepaliveCheck() {
    guard self.isActive, let context else { return }
    if self.receivedSinceKeepaliveCheck {
      self.receivedSinceKeepaliveCheck = false
      self.scheduleKeepalive()
      return
    }
    var ping = WireFrame()
    ping.kind = .ping(.with { $0.nonce = self.nextPingNonce })
    self.nextPingNonce &+= 1
    self.writeFrame(ping)
    let loop = context.eventLoop.assumeIsolated()
    self.keepaliveTask = loop.scheduleTask(in: TimeAmount(self.configuration.keepaliveTimeout)) {
      if self.receivedSinceKeepaliveCheck {
        self.receivedSinceKeepaliveCheck = false
        self.scheduleKeepalive()
      } else {
        self.logger.info("closing connection: keepalive timed out")
        self.closeConnection()
      }
    }
  }

  /// Subclasses call this whenever a call opens or ends.
  ///
  /// Idleness is tracked with a timestamp rather than a timer per idle spell: a connection
  /// whose calls come one at a time is idle between every two of them, and scheduling and
  /// cancelling a timer each time costs more than the rest of the bookkeeping of a call.
  final func openCallsChanged() {
    guard self.isActive else { return }
    if self.openCallCount > 0 {
      self.idleSince = nil
    } else {
      if self.closeIfDrained() { return }
      self.idleSince = self.context?.eventLoop.now
      if self.idleTask == nil { self.scheduleIdleCheck() }
    }
  }

  /// Checks, when the idle timeout since ``idleSince`` has passed, whether the connection is
  /// still idle: then it goes away; otherwise the check waits for the next idle spell.
  private func scheduleIdleCheck() {
    guard let context, let idle = self.configuration.idleTimeout, let since = self.idleSince else { return }
    self.idleTask = context.eventLoop.assumeIsolated().scheduleTask(deadline: since + TimeAmount(idle)) {
      self.idleTask = nil
      guard self.openCallCount == 0, let since = self.idleSince else { return }
      if context.eventLoop.now >= since + TimeAmount(idle) {
        self.sendGoAway(reason: "idle")
        self.closeConnection()
      } else {
        self.scheduleIdleCheck()
      }
    }
  }

  /// After a `GoAway` either way, the connection closes once its last call ends.
  @discardableResult
  final func closeIfDrained() -> Bool {
    guard self.goAwaySent || self.goAwayReceived, self.openCallCount == 0, self.context != nil else { return false }
    self.closeConnection()
    return true
  }

  final func sendGoAway(reason: String) {
    guard !self.goAwaySent else { return }
    self.goAwaySent = true
    var frame = WireFrame()
    frame.kind = .goAway(.with { $0.reason = reason })
    self.writeFrame(frame)
  }

  /// Graceful shutdown: `GoAway`, let open calls finish, close after the grace period at most.
  final func beginGracefulShutdown(gracePeriod: Duration?) {
    guard let context, self.isActive else {
      // Accepted while the listener shuts down, before the channel is active: apply it then.
      self.pendingShutdown = GracefulShutdownEvent(gracePeriod: gracePeriod)
      return
    }
    self.sendGoAway(reason: "shutting down")
    if self.closeIfDrained() { return }
    if let gracePeriod {
      self.graceTask = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(gracePeriod)) {
        self.closeConnection()
      }
    }
  }

  func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
    if let shutdown = event as? GracefulShutdownEvent {
      self.beginGracefulShutdown(gracePeriod: shutdown.gracePeriod)
      promise?.succeed()
    } else {
      context.triggerUserOutboundEvent(event, promise: promise)
    }
  }
}

/// Sent down a connection's pipeline to start its graceful shutdown.
struct GracefulShutdownEvent: Sendable {
  var gracePeriod: Duration?
}
