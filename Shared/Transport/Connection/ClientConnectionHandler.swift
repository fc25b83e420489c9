import Foundation
import Logging
import NIOCore

/// The caller side of a connection: sends `Open` and the caller's frames, routes the callee's
/// `Headers`, `Message` and `End` to each call, and ends every open call with `UNAVAILABLE`
/// when the connection goes.
final class ClientConnectionHandler: FrameConnectionHandler {
  private struct CallState {
    var onEvent: @Sendable (ClientCallEvent) -> Void
    /// The call's frames queued outside the event loop; closed when the call ends.
    var outbound: OutboundFrameQueue
    var deadline: Scheduled<Void>?
    var readPaused = false
  }

  private var calls: [UInt64: CallState] = [:]
  /// Called on the event loop when the connection can take no new calls (peer's `GoAway`,
  /// closed).
  var onUnusable: (() -> Void)?
  var onReady: (() -> Void)?
  /// The service at the other end as the caller's own clients know it (`scheduling`), for the
  /// `UNAVAILABLE` its open calls end with when the connection goes; `nil`: "the server".
  var peerName: String?

  override var openCallCount: Int { self.calls.count }

  /// Whether a new call may be opened on this connection.
  var acceptsNewCalls: Bool { self.isReady && !self.goAwayReceived && !self.goAwaySent && !self.peerRefusesCalls }

  /// The server refused a call because it is going away (`End.refused`): its `GoAway` is on the
  /// way, and every call opened meanwhile would be refused too.
  private var peerRefusesCalls = false

  func openCall(
    id: UInt64,
    request: BinarioCallRequest,
    outbound: OutboundFrameQueue,
    onEvent: @escaping @Sendable (ClientCallEvent) -> Void
  ) {
    guard self.acceptsNewCalls, let context else {
      outbound.close()
      onEvent(.end(WireEnd.refused("connection is closing; retry")))
      return
    }
    var open = WireOpen()
    open.method = request.method
    open.metadata = request.metadata
    if let timeout = request.timeout {
      open.timeoutMs = UInt64(max(1, timeout.roundedUpMilliseconds))
    }
    var frames: [WireFrame] = []
    if let first = request.firstMessage {
      guard first.count <= self.configuration.maximumPayloadSize else {
        outbound.close()
        onEvent(.end(Self.messageTooLarge(first.count, limit: self.configuration.maximumPayloadSize)))
        return
      }
      // A first message that would push the Open frame over the limit travels in its own frame.
      let openOverhead = request.method.utf8.count + request.metadata.reduce(0) { $0 + $1.approximateSize }
      if first.count + openOverhead <= self.configuration.maximumPayloadSize {
        open.payload = first
        open.halfClose = request.halfClose
      } else {
        var message = WireFrame()
        message.callID = id
        message.kind = .message(.with { $0.payload = first })
        frames.append(message)
        if request.halfClose {
          var halfClose = WireFrame()
          halfClose.callID = id
          halfClose.kind = .halfClose(.init())
          frames.append(halfClose)
        }
      }
    } else {
      open.halfClose = request.halfClose
    }
    var openFrame = WireFrame()
    openFrame.callID = id
    openFrame.kind = .open(open)
    frames.insert(openFrame, at: 0)

    var state = CallState(onEvent: onEvent, outbound: outbound)
    if let timeout = request.timeout {
      state.deadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) {
        self.cancelCall(id, end: WireEnd(code: WireStatusCode.deadlineExceeded, message: "deadline exceeded"))
      }
    }
    self.calls[id] = state
    self.openCallsChanged()
    self.writeFrames(frames)
  }

  static func messageTooLarge(_ size: Int, limit: Int) -> WireEnd {
    WireEnd(
      code: WireStatusCode.resourceExhausted,
      message: "message of \(size) bytes is larger than the limit of \(limit) bytes"
    )
  }

  /// Whether the call is open here (its `Open` written, its end not yet seen).
  func isOpen(_ callID: UInt64) -> Bool { self.calls[callID] != nil }

  /// Writes frames of an open call (its messages and half-close); dropped if the call is over.
  func sendCallFrames(_ frames: [WireFrame], callID: UInt64) {
    guard !frames.isEmpty, self.calls[callID] != nil else { return }
    self.writeFrames(frames)
  }

  /// Tells the callee to abandon the call and ends it locally with `end`.
  func cancelCall(_ id: UInt64, end: WireEnd) {
    guard let state = self.remove(id) else { return }
    var frame = WireFrame()
    frame.callID = id
    frame.kind = .cancel(.init())
    self.writeFrame(frame)
    state.onEvent(.end(end))
  }

  func setReadPaused(_ paused: Bool, callID: UInt64) {
    guard var state = self.calls[callID], state.readPaused != paused else { return }
    state.readPaused = paused
    self.calls[callID] = state
    if paused { self.pauseReading() } else { self.resumeReading() }
  }

  @discardableResult
  private func remove(_ id: UInt64) -> CallState? {
    guard let state = self.calls.removeValue(forKey: id) else { return nil }
    state.deadline?.cancel()
    state.outbound.close()
    if state.readPaused { self.resumeReading() }
    self.openCallsChanged()
    return state
  }

  override func callFrameReceived(_ frame: WireFrame) throws {
    let id = frame.callID
    switch frame.kind {
    case .headers(let headers):
      self.calls[id]?.onEvent(.headers(headers.metadata))
    case .message(let message):
      self.calls[id]?.onEvent(.message(message.payload))
    case .end(let end):
      if end.refused, !self.peerRefusesCalls {
        // Before the call hears of it: a caller sending it again must find this connection
        // unusable, not open the call here once more.
        self.peerRefusesCalls = true
        self.onUnusable?()
      }
      if let state = self.remove(id) {
        state.onEvent(.end(end))
      }
    case .open, .halfClose, .cancel:
      throw BinarioProtocolError.unexpectedFrame("a callee sent a caller's frame")
    case .ping, .pong, .goAway:
      throw BinarioProtocolError.unexpectedFrame("connection frame with call_id \(id)")
    case .none:
      throw BinarioProtocolError.unexpectedFrame("frame with no kind")
    }
  }

  override func connectionReady() {
    self.onReady?()
  }

  override func peerWentAway(reason: String) {
    self.onUnusable?()
  }

  override func connectionClosed() {
    self.onUnusable?()
    let calls = self.calls
    self.calls.removeAll()
    let end = WireEnd(
      code: WireStatusCode.unavailable,
      message: self.peerName.map { "the \($0) service went away during the call; try again" } ?? "connection to the server was lost"
    )
    for (_, state) in calls {
      state.deadline?.cancel()
      state.outbound.close()
      state.onEvent(.end(end))
    }
  }
}

extension WireMetadataEntry {
  var approximateSize: Int {
    let valueSize: Int
    switch self.value {
    case .text(let text)?: valueSize = text.utf8.count
    case .binary(let data)?: valueSize = data.count
    case nil: valueSize = 0
    }
    return self.key.utf8.count + valueSize + 8
  }
}

extension Duration {
  /// Whole milliseconds, rounded up so a timeout never shrinks to zero on the wire.
  var roundedUpMilliseconds: Int64 {
    let (seconds, attoseconds) = self.components
    let perMillisecond: Int64 = 1_000_000_000_000_000
    let (ms, rest) = attoseconds.quotientAndRemainder(dividingBy: perMillisecond)
    return seconds * 1000 + ms + (rest > 0 ? 1 : 0)
  }
}
