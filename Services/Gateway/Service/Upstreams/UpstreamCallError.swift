import BinarioTransport

/// A call to an upstream that did not succeed: the status code it ended with (or the gateway
/// gave it) and a message for a person.
public struct UpstreamCallError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A gRPC status code (`WireStatusCode`).
  public var code: Int32
  public var message: String

  public init(code: Int32, message: String) {
    self.code = code
    self.message = message
  }

  init(end: WireEnd) {
    self.init(code: end.statusCode, message: end.statusMessage)
  }

  public var description: String { "status \(self.code): \(self.message)" }
}
