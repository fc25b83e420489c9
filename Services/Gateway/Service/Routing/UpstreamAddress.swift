/// Where an upstream service listens: `host:port` (`identity:7101`, `127.0.0.1:7101`,
/// `[::1]:7101`).
public struct UpstreamAddress: Sendable, Hashable, CustomStringConvertible {
  public var host: String
  public var port: Int

  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// Parses `host:port`; IPv6 hosts in brackets.
  public init(parsing text: String) throws(GatewayConfigurationError) {
    let invalid = GatewayConfigurationError("\"\(text)\" is not host:port (e.g. identity:7101 or 127.0.0.1:7101)")
    guard let colon = text.lastIndex(of: ":") else { throw invalid }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
      throw invalid
    }
    self.host = host
    self.port = port
  }

  public var description: String {
    self.host.contains(":") ? "[\(self.host)]:\(self.port)" : "\(self.host):\(self.port)"
  }
}
