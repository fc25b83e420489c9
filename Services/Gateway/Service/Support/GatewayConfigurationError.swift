/// A gateway setting that cannot be used (a malformed upstream address, a route to nowhere, a
/// rate that is not a number). The message says what is wrong and how to write it.
public struct GatewayConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { self.message }
}
