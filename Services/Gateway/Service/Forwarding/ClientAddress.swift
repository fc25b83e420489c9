/// The IP address of a client, from the peer description the transport gives
/// (`SocketAddress.description`, e.g. `[IPv4]127.0.0.1/127.0.0.1:52114` or
/// `[IPv6]::1/::1:52114`, or gRPC's `ipv4:127.0.0.1:52114` and `ipv6:[::1]:52114`): the key of
/// signed-out clients' rate limits, and `x-forwarded-for`.
enum ClientAddress {
  static func ip(fromPeerDescription description: String) -> String {
    var rest = Substring(description)
    for prefix in ["ipv4:", "ipv6:"] where rest.hasPrefix(prefix) {
      rest = rest.dropFirst(prefix.count)
      if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
        return String(rest[rest.index(after: rest.startIndex) ..< close])
      }
    }
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
      rest = rest[rest.index(after: close)...]
    }
    if let slash = rest.lastIndex(of: "/") {
      rest = rest[rest.index(after: slash)...]
    }
    if let colon = rest.lastIndex(of: ":"), rest.utf8[rest.index(after: colon)...].allSatisfy(\.isASCIIDigit) {
      rest = rest[..<colon]
    }
    return rest.isEmpty ? description : String(rest)
  }
}
