import BinarioTransport
import Foundation
import NIOCore

/// One call relayed between a client and an upstream service, without decoding a message.
///
/// Everything here runs on the client connection's event loop (the upstream connection is
/// normally on the same loop: ``UpstreamConnections`` keeps a pool per loop). Client events go
/// upstream, upstream events go to the client; cancellation and deadlines travel both ways; when
/// one side cannot take more bytes, reads on the other side pause until it can.
///
/// A call whose upstream is unavailable is held (``UpstreamHold``): it waits for the upstream
/// to come back, within the hold's bound and the call's deadline, and is sent then. A call the
/// upstream ends `UNAVAILABLE` before any answer reached the client is sent again the same way
/// when that is safe: always when the upstream `refused` it (it ran none of it), otherwise when
/// its method is a read or a write carrying its idempotency key (``RetrySafety``). A stream
/// that resumes after a cursor is opened again after the last cursor the client was sent, even
/// part way: the client sees one stream through the upstream's restart.
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
  /// Headers or a message went to the client: the call can no longer be sent again.
  private var answered = false
  /// An upstream connection has been asked for (the first attempt).
  private var upstreamRequested = false
  /// The pool's wait for a connection, cancelled if the client goes away meanwhile.
  private var upstreamWait: Task<Void, Never>?
  /// What was sent upstream, kept to send it again: the first message and whether the client
  /// had half-closed. `nil` once a further message went upstream (the call cannot be repeated).
  private var retained: (first: Data?, halfClose: Bool)?
  /// The request bytes of this call's place among the upstream's held calls, while it holds one.
  private var heldBytes: Int?
  /// Times the call was sent again since its upstream last answered.
  private var retries = 0
  /// Whether and how the call may be sent again once it may have run.
  private let safety: RetrySafety?
  /// For a resumable stream: the cursor of the last answer the client was sent.
  private var lastCursor: String?
  /// When the call began to wait for its upstream: its arrival, or a stream's interruption.
  private var holdingSince: ContinuousClock.Instant
  /// The most times a call is sent again; the hold's time bound usually comes first.
  private static let maximumRetries = 8
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
    self.safety = RetrySafety.of(method: call.method)
    self.holdingSince = log.started
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
    self.askForConnection(wait: nil)
  }

  /// Asks the upstream's pool for a connection; `wait`: for how long to wait while the upstream
  /// is unavailable (a held call), `nil` to fail at once.
  private func askForConnection(wait: Duration?) {
    guard case .waiting = self.state else { return }
    let bound = self.bound
    // `connected` may run before this returns (a ready connection), and clears the wait.
    if let task = self.upstream.withConnection(on: self.call.eventLoop, wait: wait, { bound.value.connected($0) }) {
      self.upstreamWait = task
    }
  }

  private func connected(_ result: Result<BinarioClientConnection, UpstreamCallError>) {
    self.upstreamWait = nil
    guard case .waiting(var events) = self.state else { return }  // the client gave up meanwhile
    let connection: BinarioClientConnection
    switch result {
    case .failure(let error):
      if self.heldBytes == nil, let wait = self.holdPlace(for: events) {
        // The upstream is unavailable: wait for it rather than fail the call.
        self.log.log(.debug, "upstream unavailable; holding the call", ["wait": "\(wait)"])
        self.askForConnection(wait: wait)
        return
      }
      self.endClient(WireEnd(code: error.code, message: error.message))
      return
    case .success(let ready):
      connection = ready
      self.leaveHoldPlace()
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
    self.retained = (first, halfClose)
    let request = BinarioCallRequest(
      method: self.call.method,
      metadata: self.metadata,
      timeout: self.remainingTimeout,
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
    guard case .waiting = self.state else { return }  // ended at once, or being sent again
    self.state = .open(upstreamCall, connection)
    for event in events { self.clientEvent(event) }
  }

  /// The caller's timeout less the time the call has spent at the gateway (held, or sent before).
  private var remainingTimeout: Duration? {
    guard let timeout = self.call.timeout else { return nil }
    return max(.milliseconds(1), timeout - (ContinuousClock.now - self.log.started))
  }

  // MARK: Holding and sending again

  /// A place among the upstream's held calls (taken now if the call holds none yet) and how
  /// long it may still wait; `nil` when holding is off, the call's time to hold is up, or the
  /// upstream's places are full.
  private func holdPlace(for events: [ServerCallEvent]) -> Duration? {
    guard let hold = self.upstream.hold else { return nil }
    var until = self.holdingSince + hold.maximumWait
    if let timeout = self.call.timeout {
      // A held call gives up a little before its caller's deadline, so the caller hears why
      // (UNAVAILABLE, naming the service) rather than DEADLINE_EXCEEDED.
      until = min(until, self.log.started + timeout - max(.milliseconds(50), timeout / 10))
    }
    let wait = until - ContinuousClock.now
    guard wait > .zero else { return nil }
    if self.heldBytes == nil {
      let bytes = events.reduce(0) { total, event in
        if case .message(let payload) = event { total + payload.count } else { total }
      }
      guard self.upstream.heldCalls.enter(bytes: bytes) else {
        self.log.log(.warning, "upstream unavailable and its held calls are at their limit; failing the call")
        return nil
      }
      self.heldBytes = bytes
    }
    return wait
  }

  private func leaveHoldPlace() {
    guard let bytes = self.heldBytes else { return }
    self.heldBytes = nil
    self.upstream.heldCalls.leave(bytes: bytes)
  }

  /// Sends the call again after its upstream ended it `UNAVAILABLE` with `end`, when that is
  /// safe and time is left; `false` when the client must hear `end`.
  private func sendAgain(after end: WireEnd, on connection: BinarioClientConnection) -> Bool {
    guard end.statusCode == WireStatusCode.unavailable else { return false }
    var resuming = false
    if case .resumable? = self.safety { resuming = self.answered }
    guard !self.answered || resuming, let retained = self.retained, self.retries < Self.maximumRetries,
      end.refused || self.safety?.allowsRetry(of: retained.first) == true
    else {
      self.log.log(
        .debug,
        "upstream ended the call unavailable; not sending it again",
        ["answered": "\(self.answered)", "kept": "\(self.retained != nil)", "attempts": "\(self.retries + 1)"]
      )
      return false
    }
    var events: [ServerCallEvent] = []
    var first = retained.first
    if resuming {
      // After what the client has: its headers came already, and each answer since told where.
      // The hold's time runs from the interruption (not from a long stream's start).
      if self.retries == 0 { self.holdingSince = .now }
      if let cursor = self.lastCursor { first = self.safety?.request(first, resumingAfter: cursor) ?? first }
    }
    if let first { events.append(.message(first)) }
    if retained.halfClose { events.append(.halfClose) }
    guard let wait = self.holdPlace(for: events) else { return false }
    self.retries += 1
    self.retained = nil
    self.state = .waiting(events)
    self.log.metrics?.recordRetry(upstream: self.log.upstream, reason: resuming ? "resumed" : end.refused ? "refused" : "unavailable")
    self.log.log(
      .debug,
      "upstream ended the call unavailable; sending it again",
      ["attempt": "\(self.retries + 1)", "refused": "\(end.refused)", "upstream_message": "\(end.statusMessage)"]
    )
    if end.refused || !connection.isUsable {
      // The upstream is going or gone: the pool connects anew, or waits for it to come back.
      self.askForConnection(wait: wait)
    } else {
      // The upstream answered UNAVAILABLE itself (one of its own peers is away): a pause first.
      let delay = min(Duration.milliseconds(25 << min(self.retries - 1, 6)), wait)
      let bound = self.bound
      self.call.eventLoop.scheduleTask(in: TimeAmount(delay)) {
        bound.value.askForConnection(wait: max(.milliseconds(1), wait - delay))
      }
    }
    return true
  }

  // MARK: Client → upstream

  private func clientEvent(_ event: ServerCallEvent) {
    switch self.state {
    case .waiting(var events):
      switch event {
      case .cancelled(let reason):
        self.state = .done
        self.upstreamWait?.cancel()
        self.upstreamWait = nil
        self.leaveHoldPlace()
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
        // Kept only while it is the call's one message (it may come after the `Open`).
        if let retained = self.retained, retained.first == nil, !retained.halfClose {
          self.retained = (payload, false)
        } else {
          self.retained = nil
        }
        guard upstreamCall.send(payload) else {
          upstreamCall.cancel()
          self.endClient(WireEnd(code: WireStatusCode.resourceExhausted, message: "the message is larger than the upstream's frame limit"))
          return
        }
        if !connection.channel.isWritable { self.pauseClientReads(until: upstreamCall) }
      case .halfClose:
        self.retained?.halfClose = true
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
      // A resumed stream's upstream sends headers again; the client had them.
      guard !self.sentHeaders else { return }
      self.sentHeaders = true
      self.answered = true
      headers.append(.text(GatewayRequestID.key, self.log.requestID))
      self.call.sendHeaders(headers)
    case .message(let payload):
      self.answered = true
      self.retries = 0
      if let cursor = self.safety?.cursor(of: payload) { self.lastCursor = cursor }
      guard self.call.sendMessage(payload) else {
        if case .open(let upstreamCall, _) = self.state { upstreamCall.cancel() }
        self.endClient(WireEnd(code: WireStatusCode.resourceExhausted, message: "the upstream's message is larger than the frame limit"))
        return
      }
      if !self.call.isWritable, case .open(let upstreamCall, _) = self.state {
        self.pauseUpstreamReads(upstreamCall)
      }
    case .end(let end):
      if case .open(_, let connection) = self.state, self.sendAgain(after: end, on: connection) { return }
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
    self.upstreamWait?.cancel()
    self.upstreamWait = nil
    self.leaveHoldPlace()
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
