import BinarioDomain
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The web app (`clients/web`): its page at `/`, its files under `/app/`, the JavaScript
/// libraries it uses, from Debian's packages, under `/lib/`, and its service worker at `/sw.js`
/// (a worker controls the paths under its own, so it must be at the root). `/app/shell.json`
/// lists every path of the app shell for the worker to keep a copy of.
///
/// Every file is read once at start, so no request path reaches the file system: a path is a
/// key in a dictionary or a 404. Every answer carries a Content-Security-Policy that lets the
/// page load and call nothing but this origin, and run no inline script or style.
struct WebApp: Sendable {
  /// The libraries the app loads, by the path it asks for under `/lib/`, and where Debian's
  /// packages put them under `--web-libraries` (`/usr/share/javascript`).
  static let libraries: [(path: String, package: String)] = [
    ("leaflet/leaflet.min.js", "libjs-leaflet"),
    ("leaflet/leaflet.css", "libjs-leaflet"),
    ("leaflet/images/layers.png", "libjs-leaflet"),
    ("leaflet/images/layers-2x.png", "libjs-leaflet"),
    ("leaflet/images/marker-icon.png", "libjs-leaflet"),
    ("leaflet/images/marker-icon-2x.png", "libjs-leaflet"),
    ("leaflet/images/marker-shadow.png", "libjs-leaflet"),
    ("chart.js/chart.min.js", "libjs-chart.js"),
    ("qrcode-generator/qrcode.js", "node-qrcode-generator"),
  ]

  /// The most files, and bytes in all, the app's folder may hold: it is read into memory.
  static let maximumFiles = 500
  static let maximumBytes = 32 << 20

  /// The policy every answer carries: this origin only, and the map tiles' origin for images
  /// when the deployment names a tile server.
  static func contentSecurityPolicy(mapTiles: MapTiles?) -> String {
    [
      "default-src 'none'", "script-src 'self'", "style-src 'self'",
      "img-src 'self' data: blob:" + (mapTiles.map { " \($0.origin)" } ?? ""),
      "connect-src 'self'", "font-src 'self'", "manifest-src 'self'", "base-uri 'none'", "form-action 'self'",
      "frame-ancestors 'none'",
    ].joined(separator: "; ")
  }

  let contentSecurityPolicy: String
  /// No Referer at all, unless a tile server is set: tile servers (OpenStreetMap's among them)
  /// ask browser apps for one, so the origin alone is sent elsewhere then (never the page's
  /// path or query, which may hold a password-reset token).
  let referrerPolicy: String
  /// What `/app/config.json` tells the app (JSON): `{"mapTiles": {"url", "attribution"}}` or `{}`.
  let configuration: Data

  static let contentTypes: [String: String] = [
    "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8", "json": "application/json", "geojson": "application/geo+json",
    "svg": "image/svg+xml", "png": "image/png", "webmanifest": "application/manifest+json", "txt": "text/plain; charset=utf-8",
  ]

  private struct File: Sendable {
    var contentType: String
    var body: ByteBuffer
    /// The same, gzip-compressed, where the package ships it (`leaflet.min.js.gz`).
    var gzipped: ByteBuffer?
    /// A strong validator of the contents: a revalidation of an unchanged file is a 304.
    var entityTag: String

    init(contentType: String, body: Data, gzipped: Data? = nil) {
      self.contentType = contentType
      self.body = ByteBuffer(bytes: body)
      self.gzipped = gzipped.map { ByteBuffer(bytes: $0) }
      self.entityTag = "\"" + SHA256.hash(data: body).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
    }
  }

  /// Every file served, by its path (`/`, `/app/js/app.js`, `/lib/leaflet/leaflet.min.js`).
  private let files: [String: File]
  /// What `/app/shell.json` lists: the page and every file under `/app/` and `/lib/`.
  let shellFiles: [String]

  /// Reads the app from `folder` and its libraries from `libraries`; `mapTiles`: the tile server
  /// its maps draw on, if any (`/app/config.json` tells the app).
  /// - Throws: ``GatewayConfigurationError`` naming what is missing (and the package to install).
  init(folder: String, libraries: String, mapTiles: MapTiles? = nil) throws(GatewayConfigurationError) {
    let root = URL(fileURLWithPath: folder).standardizedFileURL
    guard let index = FileManager.default.contents(atPath: root.appendingPathComponent("index.html").path) else {
      throw GatewayConfigurationError("the web app's folder \(folder) has no index.html (the app is clients/web)")
    }
    let page = File(contentType: Self.contentTypes["html"]!, body: index, gzipped: Gzip.compress(index))
    var files = Dictionary(uniqueKeysWithValues: Self.pagePaths.map { ($0, page) })
    var total = index.count
    let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
    while let url = walker?.nextObject() as? URL {
      guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
        let contentType = Self.contentTypes[url.pathExtension.lowercased()]
      else { continue }
      let relative = url.standardizedFileURL.path.dropFirst(root.path.count)
      guard let data = FileManager.default.contents(atPath: url.path) else {
        throw GatewayConfigurationError("the web app's file \(url.path) cannot be read")
      }
      total += data.count
      guard files.count < Self.maximumFiles, total <= Self.maximumBytes else {
        throw GatewayConfigurationError(
          "the web app's folder \(folder) holds more than \(Self.maximumFiles) files or \(Self.maximumBytes >> 20) MiB; is it the right folder?"
        )
      }
      // Text compresses well (a third of the bytes); images are compressed already.
      let compressible = !contentType.hasPrefix("image/png")
      files["/app" + relative] = File(contentType: contentType, body: data, gzipped: compressible ? Gzip.compress(data) : nil)
    }
    let libraryRoot = URL(fileURLWithPath: libraries)
    for (path, package) in Self.libraries {
      guard let data = FileManager.default.contents(atPath: libraryRoot.appendingPathComponent(path).path) else {
        throw GatewayConfigurationError(
          "the web app needs \(libraries)/\(path): install Debian's \(package) (scripts/install-system-packages.sh does)"
        )
      }
      let type = Self.contentTypes[URL(fileURLWithPath: path).pathExtension] ?? "application/octet-stream"
      let gzipped = FileManager.default.contents(atPath: libraryRoot.appendingPathComponent(path + ".gz").path)
      files["/lib/" + path] = File(contentType: type, body: data, gzipped: gzipped)
    }
    guard let worker = files["/app/sw.js"] else {
      throw GatewayConfigurationError("the web app's folder \(folder) has no sw.js (the app is clients/web)")
    }
    files[Self.serviceWorkerPath] = worker
    // What the deployment tells the app (its map tiles), beside the app's own files.
    let tiles = mapTiles.map { ["url": $0.template, "attribution": $0.attribution] }
    let config =
      (try? JSONSerialization.data(
        withJSONObject: tiles.map { ["mapTiles": $0] } ?? [String: Any](),
        options: [.sortedKeys, .withoutEscapingSlashes]
      )) ?? Data("{}".utf8)
    files[Self.configPath] = File(contentType: Self.contentTypes["json"]!, body: config)
    self.configuration = config
    // Every path of the shell, in a stable order (the worker's copy is refreshed as it is used).
    let shell = ["/"] + files.keys.filter { $0.hasPrefix("/app/") || $0.hasPrefix("/lib/") }.sorted()
    let listing = try? JSONSerialization.data(withJSONObject: ["files": shell], options: [.sortedKeys, .withoutEscapingSlashes])
    files[Self.shellListingPath] = File(contentType: Self.contentTypes["json"]!, body: listing ?? Data())
    self.files = files
    self.shellFiles = shell
    self.contentSecurityPolicy = Self.contentSecurityPolicy(mapTiles: mapTiles)
    self.referrerPolicy = mapTiles == nil ? "no-referrer" : "strict-origin-when-cross-origin"
  }

  static let serviceWorkerPath = "/sw.js"
  static let shellListingPath = "/app/shell.json"
  static let configPath = "/app/config.json"

  /// The paths that open the app's page: `/`, and the links identity's emails carry (a
  /// password reset opens `/reset-password?token=...`).
  static let pagePaths = ["/", "/reset-password"]

  /// Whether `path` is one the app answers (a page, `/app/...`, `/lib/...`), found or not.
  static func owns(_ path: String) -> Bool {
    pagePaths.contains(path) || path == serviceWorkerPath || path.hasPrefix("/app/") || path.hasPrefix("/lib/")
  }

  /// The file at `path`, or `nil`; gzip-compressed when the client takes it and the package
  /// ships it so (Debian compresses Leaflet: 39 KB rather than 141).
  ///
  /// The page's answer also names, in a `Link` header, the message catalogue of the language the
  /// browser asks for (`Accept-Language`): the browser fetches it while it fetches the app's
  /// modules, rather than after them (the app reads it first thing; no inline script may say so
  /// earlier).
  func response(
    for path: String,
    acceptEncoding: String? = nil,
    ifNoneMatch: String? = nil,
    acceptLanguage: String? = nil
  ) -> Response? {
    guard let file = self.files[path] else { return nil }
    var headers = HTTPFields()
    var body = file.body
    // The compressed file is another representation, with a validator of its own.
    var entityTag = file.entityTag
    if let gzipped = file.gzipped {
      headers[.vary] = "Accept-Encoding"
      if Self.acceptsGzip(acceptEncoding) {
        headers[.contentEncoding] = "gzip"
        body = gzipped
        entityTag = String(entityTag.dropLast()) + "-gzip\""
      }
    }
    headers[.eTag] = entityTag
    // Revalidated each load (a 304 when unchanged): the gateway's files change with the
    // gateway, and a stale module beside a fresh one would break the app.
    headers[.cacheControl] = "no-cache"
    if let ifNoneMatch, ifNoneMatch.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == entityTag }) {
      headers[.contentEncoding] = nil
      return Response(status: .notModified, headers: headers)
    }
    headers[.contentType] = file.contentType
    if Self.pagePaths.contains(path) {
      let language = acceptLanguage.flatMap(Language.init(acceptLanguage:)) ?? .fallback
      headers[HTTPField.Name("Link")!] = "</app/locales/\(language.rawValue).json>; rel=preload; as=fetch; crossorigin"
      headers[.vary] = [headers[.vary], "Accept-Language"].compactMap { $0 }.joined(separator: ", ")
    }
    headers[.contentSecurityPolicy] = self.contentSecurityPolicy
    headers[HTTPField.Name("Referrer-Policy")!] = self.referrerPolicy
    headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] = "same-origin"
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
  }

  /// Whether an `Accept-Encoding` header takes gzip (not refused with `q=0`).
  static func acceptsGzip(_ header: String?) -> Bool {
    guard let header else { return false }
    return header.split(separator: ",").contains { item in
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      guard parts.first == "gzip" || parts.first == "*" else { return false }
      let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
      return quality > 0
    }
  }
}
