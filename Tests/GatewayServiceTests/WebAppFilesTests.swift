import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import GatewayService

/// The web app's files as the gateway serves them: read once, found by path only, each answer
/// with the Content-Security-Policy that allows nothing from elsewhere.
@Suite("The web app's files at the HTTP/JSON front door")
struct WebAppFilesTests {
  /// A web app folder and a libraries folder, as Debian lays them out, in a temporary folder.
  struct Folders {
    let root: URL
    var app: URL { root.appendingPathComponent("web") }
    var libraries: URL { root.appendingPathComponent("javascript") }

    init(leaving missing: String? = nil) throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("web-app-\(UUID().uuidString)")
      try write("<!doctype html><title>app</title>", to: app.appendingPathComponent("index.html"))
      try write("export const x = 1;", to: app.appendingPathComponent("js/app.js"))
      try write("self.addEventListener('fetch', () => {});", to: app.appendingPathComponent("sw.js"))
      try write("{}", to: app.appendingPathComponent("data/base-map.geojson"))
      try write("secret", to: app.appendingPathComponent("notes.swp"))
      for (path, _) in WebApp.libraries where path != missing {
        try write("/* \(path) */", to: libraries.appendingPathComponent(path))
      }
      try write("gzip of leaflet", to: libraries.appendingPathComponent("leaflet/leaflet.min.js.gz"))
    }

    private func write(_ text: String, to url: URL) throws {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
  }

  @Test func servesThePageItsFilesAndItsLibrariesWithTheirTypes() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let app = try WebApp(folder: folders.app.path, libraries: folders.libraries.path)
    for (path, type) in [
      ("/", "text/html; charset=utf-8"), ("/reset-password", "text/html; charset=utf-8"),
      ("/app/js/app.js", "text/javascript; charset=utf-8"), ("/app/data/base-map.geojson", "application/geo+json"),
      ("/lib/leaflet/leaflet.css", "text/css; charset=utf-8"), ("/lib/qrcode-generator/qrcode.js", "text/javascript; charset=utf-8"),
      ("/lib/leaflet/images/layers.png", "image/png"),
    ] {
      let response = try #require(app.response(for: path), "\(path) is not served")
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == type, "\(path)")
      #expect(response.headers[.contentSecurityPolicy] == WebApp.contentSecurityPolicy(mapTiles: nil))
    }
  }

  @Test func withoutATileServerTheAppIsToldNoneAndImagesComeFromHereOnly() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let app = try WebApp(folder: folders.app.path, libraries: folders.libraries.path)
    let config = try #require(app.response(for: "/app/config.json"))
    #expect(String(decoding: app.configuration, as: UTF8.self) == "{}")
    let policy = try #require(config.headers[.contentSecurityPolicy])
    #expect(policy.contains("img-src 'self' data: blob:;"))
    #expect(app.shellFiles.contains("/app/config.json"), "the worker keeps the config for use offline")
  }

  @Test func aTileServersOriginIsAllowedForImagesAndTheAppIsToldItsTemplateAndAttribution() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let tiles = try MapTiles(template: "https://tiles.example.org:8443/osm/{z}/{x}/{y}.png", attribution: "© OpenStreetMap contributors")
    #expect(tiles.origin == "https://tiles.example.org:8443")
    let app = try WebApp(folder: folders.app.path, libraries: folders.libraries.path, mapTiles: tiles)
    let config = try #require(app.response(for: "/app/config.json"))
    #expect(config.headers[.contentType] == "application/json")
    let json = try JSONSerialization.jsonObject(with: app.configuration) as? [String: [String: String]]
    #expect(json?["mapTiles"] == ["url": "https://tiles.example.org:8443/osm/{z}/{x}/{y}.png", "attribution": "© OpenStreetMap contributors"])
    let policy = try #require(app.response(for: "/")?.headers[.contentSecurityPolicy])
    #expect(policy.contains("img-src 'self' data: blob: https://tiles.example.org:8443;"))
    #expect(policy.contains("connect-src 'self';"), "tiles are images: nothing else may reach the tile server")
    #expect(app.response(for: "/")?.headers[HTTPField.Name("Referrer-Policy")!] == "strict-origin-when-cross-origin")
    let untiled = try WebApp(folder: folders.app.path, libraries: folders.libraries.path)
    #expect(untiled.response(for: "/")?.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
  }

  @Test func aTileTemplateMustBeHTTPSWithItsPlaceholdersAndComeWithAnAttribution() {
    for template in [
      "http://tile.openstreetmap.org/{z}/{x}/{y}.png", "https://tile.openstreetmap.org/{z}/{x}.png",
      "https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png", "tile.openstreetmap.org/{z}/{x}/{y}.png", "https:///{z}/{x}/{y}",
    ] {
      #expect(throws: GatewayConfigurationError.self, "\(template)") { try MapTiles(template: template, attribution: "© OSM") }
    }
    #expect(throws: GatewayConfigurationError.self) { try MapTiles(template: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", attribution: " ") }
    #expect(throws: Never.self) { try MapTiles(template: "https://tile.openstreetmap.org/{z}/{x}/{y}{r}.png", attribution: "© OSM") }
  }

  @Test func nothingElseIsServedNorReachedThroughThePath() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let app = try WebApp(folder: folders.app.path, libraries: folders.libraries.path)
    for path in [
      "/app/notes.swp", "/app/index", "/app/../web/index.html", "/app/js/../js/app.js", "/lib/leaflet/leaflet.esm.js", "/lib/leaflet/leaflet.js",
      "/lib/leaflet/leaflet.min.js.gz",
      "/lib/../../etc/passwd", "/app/", "/index.html",
    ] {
      #expect(app.response(for: path) == nil, "\(path) was served")
    }
    #expect(WebApp.owns("/app/anything") && WebApp.owns("/lib/x") && WebApp.owns("/") && !WebApp.owns("/v1/me"))
  }

  @Test func aLibraryDebianShipsCompressedGoesCompressedToWhoeverTakesGzip() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let app = try WebApp(folder: folders.app.path, libraries: folders.libraries.path)
    let compressed = try #require(app.response(for: "/lib/leaflet/leaflet.min.js", acceptEncoding: "gzip, deflate, br"))
    #expect(compressed.headers[.contentEncoding] == "gzip" && compressed.headers[.vary] == "Accept-Encoding")
    for refusing in [nil, "br", "gzip;q=0", "identity"] {
      let plain = try #require(app.response(for: "/lib/leaflet/leaflet.min.js", acceptEncoding: refusing))
      #expect(plain.headers[.contentEncoding] == nil, "\(refusing ?? "no Accept-Encoding")")
    }
    // A file with no compressed copy goes as it is.
    #expect(app.response(for: "/lib/chart.js/chart.min.js", acceptEncoding: "gzip")?.headers[.contentEncoding] == nil)
    #expect(WebApp.acceptsGzip("deflate, gzip;q=0.5") && WebApp.acceptsGzip("*") && !WebApp.acceptsGzip("*;q=0"))
  }

  @Test func theServiceWorkerControlsTheOriginAndListsTheShellItKeeps() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let app = try WebApp(folder: folders.app.path, libraries: folders.libraries.path)
    let worker = try #require(app.response(for: "/sw.js"))
    #expect(worker.headers[.contentType] == "text/javascript; charset=utf-8")
    #expect(WebApp.owns("/sw.js"))
    #expect(app.response(for: "/app/shell.json")?.headers[.contentType] == "application/json")
    let files = app.shellFiles
    #expect(files.first == "/")
    #expect(files.contains("/app/js/app.js") && files.contains("/app/sw.js") && files.contains("/lib/chart.js/chart.min.js"))
    #expect(!files.contains("/app/notes.swp") && !files.contains("/reset-password"))
  }

  @Test func anUnchangedFileRevalidatesAsNotModified() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let app = try WebApp(folder: folders.app.path, libraries: folders.libraries.path)
    let first = try #require(app.response(for: "/app/js/app.js"))
    let tag = try #require(first.headers[.eTag])
    #expect(app.response(for: "/app/js/app.js", ifNoneMatch: tag)?.status == .notModified)
    #expect(app.response(for: "/app/js/app.js", ifNoneMatch: "\"something-else\"")?.status == .ok)
    // The compressed representation has its own tag.
    let compressed = try #require(app.response(for: "/lib/leaflet/leaflet.min.js", acceptEncoding: "gzip"))
    let plain = try #require(app.response(for: "/lib/leaflet/leaflet.min.js"))
    #expect(compressed.headers[.eTag] != plain.headers[.eTag])
    #expect(app.response(for: "/lib/leaflet/leaflet.min.js", acceptEncoding: "gzip", ifNoneMatch: plain.headers[.eTag])?.status == .ok)
  }

  @Test func theAppsOwnTextFilesAreSentGzippedToWhoeverTakesIt() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let script = String(repeating: "export const answer = 42; // the same line, many times\n", count: 200)
    try Data(script.utf8).write(to: folders.app.appendingPathComponent("js/app.js"))
    let app = try WebApp(folder: folders.app.path, libraries: folders.libraries.path)
    let compressed = try #require(app.response(for: "/app/js/app.js", acceptEncoding: "gzip"))
    #expect(compressed.headers[.contentEncoding] == "gzip" && compressed.headers[.vary] == "Accept-Encoding")
    #expect(app.response(for: "/app/js/app.js")?.headers[.contentEncoding] == nil)
    #expect(app.response(for: "/", acceptEncoding: "gzip")?.headers[.contentEncoding] == "gzip")
    // What the browser would decode: the file itself (the system's gzip reads it).
    let gzipped = try #require(Gzip.compress(Data(script.utf8)))
    #expect(gzipped.count < script.utf8.count / 10)
    let file = folders.root.appendingPathComponent("app.js.gz")
    try gzipped.write(to: file)
    let gunzip = Process()
    gunzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gunzip.arguments = ["-dc", file.path]
    let output = Pipe()
    gunzip.standardOutput = output
    try gunzip.run()
    let decoded = output.fileHandleForReading.readDataToEndOfFile()
    gunzip.waitUntilExit()
    #expect(String(decoding: decoded, as: UTF8.self) == script)
  }

  @Test func thePageNamesTheCatalogueOfTheBrowsersLanguageToFetchAtOnce() throws {
    let folders = try Folders()
    defer { folders.remove() }
    let app = try WebApp(folder: folders.app.path, libraries: folders.libraries.path)
    let link = HTTPField.Name("Link")!
    #expect(
      app.response(for: "/", acceptLanguage: "it-IT,it;q=0.9,en;q=0.8")?.headers[link] == "</app/locales/it.json>; rel=preload; as=fetch; crossorigin"
    )
    #expect(app.response(for: "/", acceptLanguage: "de-DE")?.headers[link] == "</app/locales/en.json>; rel=preload; as=fetch; crossorigin")
    #expect(app.response(for: "/")?.headers[.vary]?.contains("Accept-Language") == true)
    #expect(app.response(for: "/app/js/app.js", acceptLanguage: "it")?.headers[link] == nil)
  }

  @Test func thePolicyAllowsNothingFromElsewhere() {
    let policy = WebApp.contentSecurityPolicy(mapTiles: nil)
    #expect(policy.contains("default-src 'none'"))
    for directive in ["script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"] {
      #expect(policy.contains(directive), "\(directive)")
    }
    #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval") && !policy.contains("https:") && !policy.contains("*"))
  }

  @Test func aMissingLibraryNamesTheDebianPackage() throws {
    let folders = try Folders(leaving: "chart.js/chart.min.js")
    defer { folders.remove() }
    do {
      _ = try WebApp(folder: folders.app.path, libraries: folders.libraries.path)
      Issue.record("the app started without Chart.js")
    } catch {
      #expect(error.message.contains("libjs-chart.js"), "\(error.message)")
    }
    #expect(throws: GatewayConfigurationError.self) {
      _ = try WebApp(folder: folders.root.appendingPathComponent("nowhere").path, libraries: folders.libraries.path)
    }
  }
}
