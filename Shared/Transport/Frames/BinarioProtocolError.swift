/// A breach of the wire protocol by the peer. The connection it happened on is closed; other
/// connections are not affected.
public enum BinarioProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A frame's length prefix is above the receiver's limit.
  case frameTooLarge(length: Int, limit: Int)
  /// A frame's bytes are not a `binario.wire.v1.Frame`.
  case undecodableFrame
  /// The connection ended in the middle of a frame.
  case truncatedFrame(missingBytes: Int)
  /// A frame that is valid protobuf but not allowed here (e.g. `Open` with call id 0).
  case unexpectedFrame(String)
  /// The TLS peer negotiated an application protocol other than `binario/1`.
  case wrongApplicationProtocol(String?)
  /// A frame began arriving and did not complete within the receiver's time (a peer dribbling
  /// bytes to hold the connection).
  case frameTooSlow(Duration)

  public var description: String {
    switch self {
    case .frameTooLarge(let length, let limit):
      return "frame of \(length) bytes is above the limit of \(limit) bytes"
    case .undecodableFrame:
      return "frame does not decode as binario.wire.v1.Frame"
    case .truncatedFrame(let missing):
      return "connection closed with a frame \(missing) bytes short"
    case .unexpectedFrame(let what):
      return "unexpected frame: \(what)"
    case .wrongApplicationProtocol(let proto):
      return "peer negotiated application protocol \(proto ?? "none"), expected binario/1"
    case .frameTooSlow(let limit):
      return "a frame did not arrive whole within \(limit)"
    }
  }
}
