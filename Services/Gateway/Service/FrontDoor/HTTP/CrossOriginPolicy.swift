import HTTPTypes
import Hummingbird

/// Which web origins may call the HTTP/JSON front door from a browser (CORS), and the headers
/// every answer carries: HSTS (the front door only speaks HTTPS) and `nosniff`.
struct CrossOriginPolicy: Sendable {
  /// Allowed origins, exactly as browsers send them (`https://app.example.com`); `*` allows any.
  let allowedOrigins: Set<String>

  static let allowedMethods = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
  static let allowedHeaders = "authorization, content-type, last-event-id, x-request-id, traceparent, tracestate"
  static let exposedHeaders = "x-request-id, retry-after"

  func allows(_ origin: String) -> Bool {
    self.allowedOrigins.contains("*") || self.allowedOrigins.contains(origin)
  }

  /// The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`).
  func preflight(origin: String?) -> Response {
    var headers = HTTPFields()
    if let origin, self.allows(origin) {
      headers[.accessControlAllowOrigin] = origin
      headers[.accessControlAllowMethods] = Self.allowedMethods
      headers[.accessControlAllowHeaders] = Self.allowedHeaders
      headers[.accessControlMaxAge] = "600"
      headers[.vary] = "Origin"
    }
    return Response(status: .noContent, headers: headers)
  }

  /// Adds the CORS headers for `origin` (when allowed) and the security headers.
  func decorate(_ response: inout Response, origin: String?) {
    if let origin, self.allows(origin) {
      response.headers[.accessControlAllowOrigin] = origin
      response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
      response.headers[.vary] = "Origin"
    }
    response.headers[.strictTransportSecurity] = "max-age=31536000; includeSubDomains"
    response.headers[.xContentTypeOptions] = "nosniff"
  }
}
