import Foundation

/// Which upstream service owns each proto package, and where each upstream listens.
///
/// A package is routed by an explicit route (`binario.geo_offers.v1` → `geo-offers`) or, failing
/// that, by convention: `binario.<name>.v<N>` goes to the upstream called `<name>` (underscores
/// read as hyphens), if there is one. Anything else has no route.
public struct RoutingTable: Sendable {
  /// Upstream name → address.
  public let upstreams: [String: UpstreamAddress]
  /// Proto package → upstream name, beyond the convention.
  public let routes: [String: String]

  /// - Throws: ``GatewayConfigurationError`` when a route names an upstream that is not listed.
  public init(upstreams: [String: UpstreamAddress], routes: [String: String] = [:]) throws(GatewayConfigurationError) {
    for (package, upstream) in routes where upstreams[upstream] == nil {
      throw GatewayConfigurationError(
        "the route for package \(package) names upstream \"\(upstream)\", which has no address; "
          + "add it with --upstream \(upstream)=host:port"
      )
    }
    self.upstreams = upstreams
    self.routes = routes
  }

  /// The upstream that owns `package`, or `nil` when no route leads anywhere.
  public func upstream(forPackage package: String) -> String? {
    if let explicit = self.routes[package] { return explicit }
    // Read as UTF-8 bytes: this runs for every call the gateway forwards.
    let parts = package.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].elementsEqual("binario".utf8), parts[2].first == UInt8(ascii: "v"),
      parts[2].count > 1, parts[2].dropFirst().allSatisfy(\.isASCIIDigit)
    else { return nil }
    let name = String(decoding: parts[1].map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
    return self.upstreams[name] != nil ? name : nil
  }

  /// The upstream for a wire method name (`/binario.identity.v1.Identity/Login`).
  public func upstream(forMethod method: String) -> String? {
    guard let path = MethodPath(method) else { return nil }
    return self.upstream(forPackage: path.package)
  }

  /// Every upstream name, sorted.
  public var upstreamNames: [String] { self.upstreams.keys.sorted() }
}
