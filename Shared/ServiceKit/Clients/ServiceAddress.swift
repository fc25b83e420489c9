/// Where another service listens: `host:port` (`identity:7101`, `127.0.0.1:7101`, `[::1]:7101`).
public struct ServiceAddress: Sendable, Hashable, CustomStringConvertible {
  public var host: String
  public var port: Int

  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// Parses `host:port`; IPv6 hosts in brackets.
  public init(parsing text: String) throws(ServiceAddressError) {
    guard let colon = text.lastIndex(of: ":") else { throw ServiceAddressError(text: text) }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (1 ... 65535).contains(port) else {
      throw ServiceAddressError(text: text)
    }
    self.host = host
    self.port = port
  }

  public var description: String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }
}

/// A service address that is not `host:port`.
public struct ServiceAddressError: Error, Sendable, Hashable, CustomStringConvertible {
  public var text: String

  public var description: String {
    "\"\(text)\" is not host:port (e.g. identity:7101 or 127.0.0.1:7101)"
  }
}
