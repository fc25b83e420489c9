import BinarioTransport

/// The frame-layer echo server's logic: every message of a call goes straight back, and the
/// caller's half-close ends the call with `OK`. No `Headers` frame.
///
/// Everything runs on the connection's event loop (`acceptCall` and the call's events are
/// delivered there), so each answer is written without a hop: for a unary call that is one
/// `Message` and one `End` frame, flushed together at the end of the read burst.
struct FrameEchoAcceptor: BinarioCallAcceptor {
  func acceptCall(_ call: BinarioServerCall) {
    call.onEvent { event in
      switch event {
      case .message(let payload):
        call.sendMessage(payload)
      case .halfClose:
        call.end(WireEnd(code: WireStatusCode.ok))
      case .cancelled:
        break
      }
    }
  }
}
