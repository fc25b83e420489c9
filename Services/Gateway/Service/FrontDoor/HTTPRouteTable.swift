/// The HTTP/JSON routes the gateway serves, and which one a request takes.
public struct HTTPRouteTable: Sendable {
  public let routes: [HTTPRoute]

  public init(routes: [HTTPRoute] = HTTPRouteTable.generated) {
    self.routes = routes
  }

  /// What a request's verb and path (without the query) find.
  public enum Match: Sendable {
    case route(HTTPRoute, pathValues: [String: String])
    /// The path exists, with other verbs (HTTP 405 with `Allow`).
    case verbNotAllowed(allowed: [HTTPRoute.Verb])
    /// No route has this path (HTTP 404).
    case notFound
  }

  public func match(verb: HTTPRoute.Verb, path: Substring) -> Match {
    var allowed: [HTTPRoute.Verb] = []
    for route in routes {
      guard let values = route.template.match(path) else { continue }
      if route.verb == verb { return .route(route, pathValues: values) }
      allowed.append(route.verb)
    }
    return allowed.isEmpty ? .notFound : .verbNotAllowed(allowed: allowed)
  }
}
