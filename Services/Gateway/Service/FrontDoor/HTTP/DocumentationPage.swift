import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The documentation page at `/docs`: Swagger UI over `/openapi.json`, from the packaged
/// distribution `scripts/install-swagger-ui.sh` installs (no CDN). Signing in through the page
/// (`POST /v1/sessions`, "Try it out") authorizes the calls tried after it with the new token.
///
/// The files are read once at start; only the ones named here are served, so no request path
/// reaches the file system.
struct DocumentationPage: Sendable {
  /// Swagger UI's files the page needs, with their content types.
  static let distributionFiles: [String: String] = [
    "swagger-ui.css": "text/css; charset=utf-8",
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
    "favicon-32x32.png": "image/png",
  ]

  /// Everything the page serves by name under `/docs/`, with its content type.
  private let files: [String: (contentType: String, body: ByteBuffer)]

  /// Reads Swagger UI's distribution from `folder`.
  /// - Throws: ``GatewayConfigurationError`` naming a missing file.
  init(folder: String) throws(GatewayConfigurationError) {
    var files: [String: (contentType: String, body: ByteBuffer)] = [:]
    for (name, contentType) in Self.distributionFiles {
      let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
      guard let data = FileManager.default.contents(atPath: path) else {
        throw GatewayConfigurationError(
          "the documentation folder \(folder) has no \(name); install Swagger UI with scripts/install-swagger-ui.sh"
        )
      }
      files[name] = (contentType, ByteBuffer(bytes: data))
    }
    files["index.html"] = ("text/html; charset=utf-8", ByteBuffer(string: Self.indexHTML))
    files["binario-docs.js"] = ("text/javascript; charset=utf-8", ByteBuffer(string: Self.initializerJS))
    self.files = files
  }

  /// The answer for `/docs` (`name` empty or `index.html`) and `/docs/<name>`; `nil` for a
  /// name it does not serve.
  func response(for name: Substring) -> Response? {
    let name = name.isEmpty ? "index.html" : String(name)
    guard let file = self.files[name] else { return nil }
    var headers = HTTPFields()
    headers[.contentType] = file.contentType
    headers[.cacheControl] = "no-cache"
    // Swagger UI styles elements inline and draws images from data: URLs; scripts only from here.
    headers[.contentSecurityPolicy] =
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.body))
  }

  static let indexHTML = """
    <!doctype html>
    <html lang="en">
    <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Binario API</title>
      <link rel="stylesheet" href="/docs/swagger-ui.css">
      <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
    </head>
    <body>
      <div id="swagger-ui"></div>
      <script src="/docs/swagger-ui-bundle.js"></script>
      <script src="/docs/swagger-ui-standalone-preset.js"></script>
      <script src="/docs/binario-docs.js"></script>
    </body>
    </html>

    """

  /// Starts Swagger UI on `/openapi.json`; after a successful sign-in it authorizes the page
  /// with the access token from the answer.
  static let initializerJS = """
    window.addEventListener("load", function () {
      const ui = SwaggerUIBundle({
        url: "/openapi.json",
        dom_id: "#swagger-ui",
        deepLinking: true,
        persistAuthorization: true,
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        layout: "StandaloneLayout",
        responseInterceptor: function (response) {
          try {
            const signIn = response.url.endsWith("/v1/sessions") && response.status === 200;
            const tokens = signIn && response.body && response.body.tokens;
            const token = tokens && tokens.accessToken;
            if (token) { ui.preauthorizeApiKey("bearer", token); }
          } catch (error) { console.warn("could not authorize with the new token", error); }
          return response;
        },
      });
      window.ui = ui;
    });

    """
}
