import BinarioTransport
import Foundation
import NIOCore

/// One call relayed between a client and an upstream service, without decoding a message.
///
/// Everything here runs on the client connection's event loop (the upstream connection is
/// normally on the same loop: ``UpstreamConnections`` keeps a pool per loop). Client events go
/// upstream, upstream events go to the client; cancellation and deadlines travel both ways; when
/// one side cannot take more bytes, reads on the other side pause until it can.
final class ForwardedCall {
  private enum State {
    /// Before the upstream call is open: the client's events wait here.
    case waiting([ServerCallEvent])
    case open(BinarioClientCall, BinarioClientConnection)
    case done
  }

  private let call: any GatewayClientCall
  private let upstream: UpstreamConnections
  private let metadata: WireMetadata
  private let log: CallLog
  /// Runs when the upstream ends the call OK, before the client hears of it.
  private let onOK: (@Sendable () -> Void)?
  /// The caller's session, ending the call if it is revoked meanwhile.
  private var sessionWatch: (sessions: RevokedSessions, watch: RevokedSessions.Watch)?
  private var state = State.waiting([])
  private var sentHeaders = false
  /// An upstream connection has been asked for (once per call).
  private var upstreamRequested = false
  /// Client reads are paused because the upstream connection is full.
  private var clientReadsPaused = false
  /// Upstream reads are paused because the client connection is full.
  private var upstreamReadsPaused = false

  private init(
    call: any GatewayClientCall,
    upstream: UpstreamConnections,
    metadata: WireMetadata,
    log: CallLog,
    onOK: (@Sendable () -> Void)?
  ) {
    self.call = call
    self.upstream = upstream
    self.metadata = metadata
    self.log = log
    self.onOK = onOK
  }

  /// Starts relaying `call`; runs on its event loop, inside `acceptCall`.
  ///
  /// The upstream call opens once the client has half-closed or the current read burst is
  /// processed, whichever comes first, so the first message and half-close that arrived in the
  /// client's `Open` go upstream in one `Open` frame too.
  static func start(
    _ call: any GatewayClientCall,
    upstream: UpstreamConnections,
    metadata: WireMetadata,
    log: CallLog,
    onOK: (@Sendable () -> Void)?,
    session: (id: String, revoked: RevokedSessions)? = nil
  ) {
    let forwarded = ForwardedCall(call: call, upstream: upstream, metadata: metadata, log: log, onOK: onOK)
    let bound = NIOLoopBound(forwarded, eventLoop: call.eventLoop)
    if let session {
      let loop = call.eventLoop
      let watch = session.revoked.watch(session.id) { loop.execute { bound.value.sessionRevoked() } }
      forwarded.sessionWatch = (session.revoked, watch)
    }
    call.onEvent { event in bound.value.clientEvent(event) }
    call.eventLoop.execute { bound.value.openUpstream() }
  }

  /// The caller signed out, or identity ended their sessions (a disabled or deleted account):
  /// the call ends now, both ways.
  private func sessionRevoked() {
    let state = self.state
    if case .done = state { return }
    // The client's end first: cancelling upstream reports its own end, ignored once done.
    self.endClient(WireEnd(code: WireStatusCode.unauthenticated, message: "your session has ended; sign in again"))
    if case .open(let upstreamCall, _) = state { upstreamCall.cancel() }
  }

  private var bound: NIOLoopBound<ForwardedCall> { NIOLoopBound(self, eventLoop: self.call.eventLoop) }

  // MARK: Opening the upstream call

  private func openUpstream() {
    guard case .waiting = self.state, !self.upstreamRequested else { return }
    self.upstreamRequested = true
    let bound = self.bound
    self.upstream.withConnection(on: self.call.eventLoop) { result in
      bound.value.connected(result)
    }
  }

  private func connected(_ result: Result<BinarioClientConnection, UpstreamCallError>) {
    guard case .waiting(var events) = self.state else { return }  // the client gave up meanwhile
    let connection: BinarioClientConnection
    switch result {
    case .failure(let error):
      self.endClient(WireEnd(code: error.code, message: error.message))
      return
    case .success(let ready):
      connection = ready
    }

    var first: Data?
    var halfClose = false
    if case .message(let payload)? = events.first {
      first = payload
      events.removeFirst()
      if case .halfClose? = events.first {
        halfClose = true
        events.removeFirst()
      }
    } else if case .halfClose? = events.first {
      halfClose = true
      events.removeFirst()
    }
    let request = BinarioCallRequest(
      method: self.call.method,
      metadata: self.metadata,
      timeout: self.call.timeout,
      firstMessage: first,
      halfClose: halfClose
    )
    let bound = self.bound
    let loop = self.call.eventLoop
    let upstreamCall = connection.openCall(request) { event in
      if loop.inEventLoop {
        bound.value.upstreamEvent(event)
      } else {
        loop.execute { bound.value.upstreamEvent(event) }
      }
    }
    guard case .waiting = self.state else { return }  // ended at once (connection closing)
    self.state = .open(upstreamCall, connection)
    for event in events { self.clientEvent(event) }
  }

  // MARK: Client → upstream

  private func clientEvent(_ event: ServerCallEvent) {
    switch self.state {
    case .waiting(var events):
      switch event {
      case .cancelled(let reason):
        self.state = .done
        self.clientGaveUp(reason)
        self.endSessionWatch()
      case .halfClose:
        // The client has sent all it will send (a unary call's `Open` carries it all): open
        // the upstream call now rather than a turn of the loop later.
        events.append(event)
        self.state = .waiting(events)
        self.openUpstream()
      case .message:
        events.append(event)
        self.state = .waiting(events)
      }
    case .open(let upstreamCall, let connection):
      switch event {
      case .message(let payload):
        guard upstreamCall.send(payload) else {
          upstreamCall.cancel()
          self.endClient(WireEnd(code: WireStatusCode.resourceExhausted, message: "the message is larger than the upstream's frame limit"))
          return
        }
        if !connection.channel.isWritable { self.pauseClientReads(until: upstreamCall) }
      case .halfClose:
        upstreamCall.halfClose()
      case .cancelled(let reason):
        self.state = .done
        upstreamCall.cancel()
        self.clientGaveUp(reason)
        self.endSessionWatch()
      }
    case .done:
      ()
    }
  }

  private func clientGaveUp(_ reason: CallCancellationReason) {
    switch reason {
    case .cancelledByPeer: self.log.ended(code: WireStatusCode.cancelled, message: "the client cancelled the call")
    case .deadlineExceeded: self.log.ended(code: WireStatusCode.deadlineExceeded, message: "deadline exceeded")
    case .connectionClosed: self.log.ended(code: WireStatusCode.cancelled, message: "the client's connection closed")
    }
  }

  private func pauseClientReads(until upstreamCall: BinarioClientCall) {
    guard !self.clientReadsPaused else { return }
    self.clientReadsPaused = true
    self.call.setReadPaused(true)
    let bound = self.bound
    let loop = self.call.eventLoop
    Task {
      await upstreamCall.waitUntilWritable()
      loop.execute { bound.value.resumeClientReads() }
    }
  }

  private func resumeClientReads() {
    guard self.clientReadsPaused else { return }
    self.clientReadsPaused = false
    self.call.setReadPaused(false)
  }

  // MARK: Upstream → client

  private func upstreamEvent(_ event: ClientCallEvent) {
    if case .done = self.state { return }
    switch event {
    case .headers(var headers):
      self.sentHeaders = true
      headers.append(.text(GatewayRequestID.key, self.log.requestID))
      self.call.sendHeaders(headers)
    case .message(let payload):
      guard self.call.sendMessage(payload) else {
        if case .open(let upstreamCall, _) = self.state { upstreamCall.cancel() }
        self.endClient(WireEnd(code: WireStatusCode.resourceExhausted, message: "the upstream's message is larger than the frame limit"))
        return
      }
      if !self.call.isWritable, case .open(let upstreamCall, _) = self.state {
        self.pauseUpstreamReads(upstreamCall)
      }
    case .end(let end):
      if end.statusCode == WireStatusCode.ok { self.onOK?() }
      self.endClient(end)
    }
  }

  private func pauseUpstreamReads(_ upstreamCall: BinarioClientCall) {
    guard !self.upstreamReadsPaused else { return }
    self.upstreamReadsPaused = true
    Self.onLoop(upstreamCall.eventLoop) { upstreamCall.setReadPaused(true) }
    let bound = self.bound
    let loop = self.call.eventLoop
    let call = self.call
    Task {
      await call.waitUntilWritable()
      loop.execute { bound.value.resumeUpstreamReads() }
    }
  }

  private func resumeUpstreamReads() {
    guard self.upstreamReadsPaused else { return }
    self.upstreamReadsPaused = false
    if case .open(let upstreamCall, _) = self.state {
      Self.onLoop(upstreamCall.eventLoop) { upstreamCall.setReadPaused(false) }
    }
  }

  // MARK: Ending

  /// Sends `end` to the client (with the request id when no headers carried it) and logs the call.
  private func endClient(_ end: WireEnd) {
    var end = end
    if !self.sentHeaders { end.trailers.append(.text(GatewayRequestID.key, self.log.requestID)) }
    self.state = .done
    self.call.end(end)
    self.log.ended(code: end.statusCode, message: end.statusMessage)
    self.endSessionWatch()
  }

  private func endSessionWatch() {
    guard let (sessions, watch) = self.sessionWatch else { return }
    self.sessionWatch = nil
    sessions.unwatch(watch)
  }

  private static func onLoop(_ loop: any EventLoop, _ body: @escaping @Sendable () -> Void) {
    if loop.inEventLoop { body() } else { loop.execute(body) }
  }
}
