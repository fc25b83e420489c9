import AsyncHTTPClient
import BinarioTestSupport
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// The gateway's standard front doors on one suite start: HTTP/JSON with an HTTP client (the
/// flow, each error's status and body, an SSE stream, CORS, the documents), then the standard
/// clients — Python's grpcio over gRPC/HTTP/2, Swagger UI in headless Chromium, a GTFS-realtime
/// consumer, the load generator through all three doors, the alerts and the dashboard against
/// every process's metrics (deploy/monitoring), and schemathesis against the served OpenAPI
/// document.
@Suite("The gateway's front doors, end to end", .serialized)
struct FrontDoorTests {
  static let webOrigin = "https://app.binario.test"
  static let tileAttribution = "© Stand-in tiles contributors"

  @Test func httpJSONGRPCDocsPageAndSchemathesis() async throws {
    let tools = try FrontDoorTools()
    // A tile server for the web app's maps (the other suites draw the schematic base map).
    let tiles = try await StandInTileServer.start()
    let flags = RunningSuite.ExtraFlags(
      gateway: ["--cors-origin", Self.webOrigin, "--map-tiles", tiles.template, "--map-attribution", Self.tileAttribution]
    )
    do {
      try await Self.run(flags: flags, tiles: tiles, tools: tools)
    } catch {
      await tiles.stop()
      throw error
    }
    await tiles.stop()
  }

  static func run(flags: RunningSuite.ExtraFlags, tiles: StandInTileServer, tools: FrontDoorTools) async throws {
    try await RunningSuite.with(extraFlags: flags) { suite in
      try await suite.waitUntilTheGatewaySeesIdentityServing()
      let http = try FrontDoorHTTP(port: suite.gatewayHTTPPort, caFile: suite.caFile)
      do {
        try await Self.everyFrontDoor(suite, http, tools)
        let map = try await tools.python(
          "Tests/FrontDoorClients/map_tiles.py",
          [
            "--url", "https://localhost:\(suite.gatewayHTTPPort)", "--tiles-origin", "https://localhost:\(tiles.port)",
            "--attribution", Self.tileAttribution,
          ]
        )
        #expect(map.status == 0, "map tiles: \(map.standardOutput)\(map.standardError)")
        #expect(!tiles.tilesRequested.isEmpty, "the tile server was asked for no tile")
      } catch {
        try? await http.client.shutdown()
        throw error
      }
      try await http.client.shutdown()
    }
  }

  static func everyFrontDoor(_ suite: RunningSuite, _ http: FrontDoorHTTP, _ tools: FrontDoorTools) async throws {
    do {

      let admin = try await http.signIn(email: RunningSuite.adminEmail, password: RunningSuite.adminPassword)
      let passenger = try await Self.signUp(http, email: "json@example.com", admin: admin)
      try await Self.errors(http, passenger: passenger)
      try await Self.serverSentEvents(http)
      try await Self.crossOriginAndDocuments(http)
      try await Self.keptSession(http, email: "json@example.com")

      // The standard clients, as people would run them.
      let grpc = try await tools.python(
        "Tests/FrontDoorClients/grpc_client.py",
        [
          "--address", "localhost:\(suite.gatewayGRPCPort)", "--ca", suite.caFile,
          "--admin-email", RunningSuite.adminEmail, "--admin-password", RunningSuite.adminPassword,
        ]
      )
      #expect(grpc.status == 0, "grpcio: \(grpc.standardOutput)\(grpc.standardError)")

      _ = try await Self.signUp(http, email: "docs@example.com", admin: admin)
      let docs = try await tools.python(
        "Tests/FrontDoorClients/docs_page.py",
        ["--url", "https://localhost:\(suite.gatewayHTTPPort)/docs", "--email", "docs@example.com", "--password", "a-good-password-1"]
      )
      #expect(docs.status == 0, "docs page: \(docs.standardOutput)\(docs.standardError)")

      // The realtime feed as a GTFS-realtime consumer reads it, after each kind of change.
      let feed = try await tools.python(
        "Tests/FrontDoorClients/gtfs_realtime.py",
        [
          "--url", "https://localhost:\(suite.gatewayHTTPPort)", "--ca", suite.caFile,
          "--admin-email", RunningSuite.adminEmail, "--admin-password", RunningSuite.adminPassword,
          "--gtfs", RunningSuite.packageRoot.appendingPathComponent("Services/Scheduling/DemoNetwork").path,
        ]
      )
      #expect(feed.status == 0, "GTFS-realtime: \(feed.standardOutput)\(feed.standardError)")

      try await Self.loadGenerator(suite)
      try await Self.monitoring(suite, tools)

      // Last: it signs its own user out, changes passwords and deletes things.
      let fuzzed = try await Self.signUp(http, email: "fuzz@example.com", admin: admin)
      let schemathesis = try await tools.schemathesis(port: suite.gatewayHTTPPort, caFile: suite.caFile, token: fuzzed)
      #expect(schemathesis.status == 0, "schemathesis: \(schemathesis.standardOutput.suffix(6000))\(schemathesis.standardError)")
    }
  }

  /// Register → confirm (the code from the outbox, read by the admin) → sign in → GetMe →
  /// UpdateMe, all as JSON; returns the access token.
  static func signUp(_ http: FrontDoorHTTP, email: String, admin: String) async throws -> String {
    let registered = try await http.call(.POST, "/v1/accounts", body: ["email": email, "password": "a-good-password-1", "firstName": "Jay"])
    #expect(registered.status == .ok, "register: \(registered.text)")
    #expect((registered.json["userId"] as? String)?.isEmpty == false)

    let outbox = try await http.call(.GET, "/v1/admin/outbox-messages?recipient=\(email)&limit=5", token: admin)
    let bodies = (outbox.json["messages"] as? [[String: Any]] ?? []).compactMap { $0["body"] as? String }
    let codes = bodies.compactMap { $0.firstMatch(of: /\b(\d{6})\b/).map { String($0.1) } }
    let code = try #require(codes.first, "no code in \(outbox.text)")
    let confirmed = try await http.call(.POST, "/v1/accounts:confirmEmail", body: ["email": email, "code": String(code)])
    #expect(confirmed.status == .ok, "confirm: \(confirmed.text)")

    let token = try await http.signIn(email: email, password: "a-good-password-1")
    let me = try await http.call(.GET, "/v1/me", token: token)
    #expect(me.status == .ok)
    #expect((me.json["profile"] as? [String: Any])?["email"] as? String == email)
    let updated = try await http.call(.PATCH, "/v1/me", token: token, body: ["lastName": "Doe"])
    #expect((updated.json["profile"] as? [String: Any])?["lastName"] as? String == "Doe", "UpdateMe: \(updated.text)")
    #expect(me.headers.first(name: "x-request-id")?.isEmpty == false)
    return token
  }

  /// Each failure under its HTTP status, with the JSON error body.
  static func errors(_ http: FrontDoorHTTP, passenger: String) async throws {
    let invalid = try await http.call(.POST, "/v1/accounts", body: ["email": "not-an-email", "password": "short"])
    #expect(invalid.status == .badRequest)
    #expect(invalid.json["code"] as? String == "INVALID_ARGUMENT")
    let fields = Set((invalid.json["fieldViolations"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String })
    #expect(fields.isSuperset(of: ["email", "password"]), "\(invalid.text)")
    #expect((invalid.json["requestId"] as? String)?.isEmpty == false)

    let signedOut = try await http.call(.GET, "/v1/me")
    #expect(signedOut.status == .unauthorized && signedOut.json["code"] as? String == "UNAUTHENTICATED")
    let forged = try await http.call(.GET, "/v1/me", token: "not.a.token")
    #expect(forged.status == .unauthorized)
    let notAdmin = try await http.call(.GET, "/v1/admin/accounts", token: passenger)
    #expect(notAdmin.status == .forbidden && notAdmin.json["code"] as? String == "PERMISSION_DENIED")
    let duplicate = try await http.call(
      .POST,
      "/v1/accounts",
      body: ["email": "json@example.com", "password": "a-good-password-1", "firstName": "Jay"]
    )
    #expect(duplicate.status == .conflict && duplicate.json["code"] as? String == "ALREADY_EXISTS", "\(duplicate.text)")
    let noRoute = try await http.call(.GET, "/v1/nowhere")
    #expect(noRoute.status == .notFound && noRoute.json["code"] as? String == "NOT_FOUND")
    let wrongVerb = try await http.call(.DELETE, "/v1/accounts")
    #expect(wrongVerb.status == .methodNotAllowed && wrongVerb.headers.first(name: "allow") == "POST")
    let badJSON = try await http.call(.POST, "/v1/sessions", rawBody: "{\"email\": ")
    #expect(badJSON.status == .badRequest && badJSON.json["code"] as? String == "INVALID_ARGUMENT")
    let unknownField = try await http.call(.POST, "/v1/sessions", body: ["email": "a@example.com", "favouriteColour": "red"])
    #expect(unknownField.status == .badRequest, "\(unknownField.text)")
    let unknownQuery = try await http.call(.GET, "/v1/me?colour=red", token: passenger)
    #expect(unknownQuery.status == .badRequest && (unknownQuery.json["fieldViolations"] as? [[String: Any]])?.first?["field"] as? String == "colour")
    let tooLarge = try await http.call(.POST, "/v1/sessions", rawBody: "{\"email\": \"" + String(repeating: "a", count: 5 << 20) + "\"}")
    #expect(tooLarge.status == .payloadTooLarge)

    // A value of the wrong type is named by its JSON name, nested ones by their path.
    let wrongType = try await http.call(
      .POST,
      "/v1/tickets:quote",
      token: passenger,
      rawBody: #"{"passengers": "many", "zone": {"zones": "Mi1-Mi3"}}"#
    )
    #expect(wrongType.status == .badRequest, "\(wrongType.text)")
    #expect((wrongType.json["fieldViolations"] as? [[String: Any]])?.first?["field"] as? String == "passengers", "\(wrongType.text)")
    let nested = try await http.call(.POST, "/v1/tickets:quote", token: passenger, rawBody: #"{"passengers": 1, "zone": {"zones": 7}}"#)
    #expect((nested.json["fieldViolations"] as? [[String: Any]])?.first?["field"] as? String == "zone.zones", "\(nested.text)")

    // Every refusal says it in the language asked for (google.rpc.LocalizedMessage): a service's,
    // each field's, the gateway's and the door's own; English when none is asked for.
    let italian = try await http.call(.POST, "/v1/accounts", body: ["email": "not-an-email", "password": "short"], language: "it-IT,it;q=0.9")
    let localized = italian.json["localizedMessage"] as? [String: Any]
    #expect(localized?["locale"] as? String == "it-IT", "\(italian.text)")
    let emailProblem = (italian.json["fieldViolations"] as? [[String: Any]] ?? []).first { $0["field"] as? String == "email" }
    #expect((emailProblem?["description"] as? String)?.contains("is not an email address") == true, "\(italian.text)")
    let emailInItalian = (emailProblem?["localizedMessage"] as? [String: Any])?["message"] as? String
    #expect(emailInItalian?.contains("non è un indirizzo email") == true, "\(italian.text)")
    #expect((localized?["message"] as? String)?.contains("non è un indirizzo email") == true, "\(italian.text)")
    let english = (invalid.json["localizedMessage"] as? [String: Any])
    #expect(english?["locale"] as? String == "en-GB" && (english?["message"] as? String)?.contains("is not an email address") == true)
    for (answer, words) in [
      (try await http.call(.GET, "/v1/me", language: "it"), "richiede l'accesso"),  // the gateway's refusal
      (try await http.call(.GET, "/v1/nowhere", language: "it"), "nessun percorso"),  // the door's own
      (
        try await http.call(.POST, "/v1/sessions", body: ["email": "nobody@example.com", "password": "wrong-password-1"], language: "it"),
        "email o password sbagliate"
      ),  // identity's
    ] {
      let message = (answer.json["localizedMessage"] as? [String: Any])?["message"] as? String
      #expect(message?.contains(words) == true, "\(answer.status): \(answer.text.prefix(300))")
      #expect(answer.json["message"] as? String != message, "the status message stays English: \(answer.text.prefix(300))")
    }

    // Every error body carries the request id (the door's own refusals too), as its header does.
    for answer in [invalid, signedOut, forged, notAdmin, duplicate, noRoute, wrongVerb, badJSON, unknownField, unknownQuery, tooLarge, wrongType] {
      let id = answer.json["requestId"] as? String
      #expect(id?.isEmpty == false && id == answer.headers.first(name: "x-request-id"), "\(answer.status): \(answer.text.prefix(300))")
    }
  }

  /// A server-streaming method as Server-Sent Events: health `Watch` sends the status at once.
  static func serverSentEvents(_ http: FrontDoorHTTP) async throws {
    var request = HTTPClientRequest(url: http.url("/v1/health:watch"))
    request.headers.add(name: "accept", value: "text/event-stream")
    let response = try await http.client.execute(request, timeout: .seconds(30))
    #expect(response.status == .ok)
    #expect(response.headers.first(name: "content-type") == "text/event-stream")
    var received = ""
    for try await chunk in response.body {
      received += String(buffer: chunk)
      if received.contains("\n\n") { break }  // one whole event; leaving cancels the stream
    }
    #expect(received.hasPrefix("id: 1\nevent: message\ndata: {\"status\":\"SERVING\"}\n\n"), "\(received)")
  }

  /// "Keep me signed in": the refresh token in an HttpOnly cookie scoped to the refresh route,
  /// never in a body a script reads; each trade rotates it, a replayed one ends the session and
  /// is cleared, signing out clears it, and no other origin may ask for it.
  static func keptSession(_ http: FrontDoorHTTP, email: String) async throws {
    let keep = [("x-keep-signed-in", "true")]
    let signedIn = try await http.call(.POST, "/v1/sessions", body: ["email": email, "password": "a-good-password-1"], headers: keep)
    let tokens = signedIn.json["tokens"] as? [String: Any] ?? [:]
    #expect(signedIn.status == .ok && (tokens["accessToken"] as? String)?.isEmpty == false, "\(signedIn.text)")
    #expect(tokens["refreshToken"] == nil, "the refresh token stays out of the body: \(signedIn.text)")
    let first = try #require(signedIn.headers.first(name: "set-cookie"))
    let attributes = Set(first.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    #expect(attributes.isSuperset(of: ["httponly", "secure", "samesite=strict", "path=/v1/sessions:refresh"]), "\(first)")
    #expect(attributes.contains { $0.hasPrefix("expires=") }, "\(first)")
    let cookie = try #require(first.split(separator: ";").first.map(String.init))
    #expect(cookie.hasPrefix("binario_refresh=") && cookie.count > "binario_refresh=".count + 20)

    // A launch of the app: an empty body, the cookie, the header.
    let refreshed = try await http.call(.POST, "/v1/sessions:refresh", body: [:], headers: keep + [("cookie", cookie)])
    let fresh = refreshed.json["tokens"] as? [String: Any] ?? [:]
    #expect(refreshed.status == .ok && fresh["refreshToken"] == nil, "\(refreshed.text)")
    let rotated = try #require(refreshed.headers.first(name: "set-cookie")?.split(separator: ";").first.map(String.init))
    #expect(rotated != cookie && rotated.hasPrefix("binario_refresh="))
    let access = try #require(fresh["accessToken"] as? String)
    #expect(try await http.call(.GET, "/v1/me", token: access).status == .ok)

    // Without the header the cookie is not read: a body-less refresh is refused.
    let noHeader = try await http.call(.POST, "/v1/sessions:refresh", body: [:], headers: [("cookie", rotated)])
    #expect(noHeader.status != .ok && noHeader.headers.first(name: "set-cookie") == nil, "\(noHeader.text)")

    // The next launch trades the rotated cookie; then the first one again (stolen and replayed):
    // refused, the session ended, the cookie cleared.
    let next = try await http.call(.POST, "/v1/sessions:refresh", body: [:], headers: keep + [("cookie", rotated)])
    let latest = try #require(next.headers.first(name: "set-cookie")?.split(separator: ";").first.map(String.init), "\(next.text)")
    let replayed = try await http.call(.POST, "/v1/sessions:refresh", body: [:], headers: keep + [("cookie", cookie)])
    #expect(replayed.status == .unauthorized, "\(replayed.text)")
    #expect(replayed.headers.first(name: "set-cookie")?.contains("Max-Age=0") == true)
    let afterReplay = try await http.call(.POST, "/v1/sessions:refresh", body: [:], headers: keep + [("cookie", latest)])
    #expect(afterReplay.status == .unauthorized, "a replay ends the whole session: \(afterReplay.text)")

    // Signing out of a kept session clears the cookie, and its refresh token trades no more.
    let again = try await http.call(.POST, "/v1/sessions", body: ["email": email, "password": "a-good-password-1"], headers: keep)
    let againCookie = try #require(again.headers.first(name: "set-cookie")?.split(separator: ";").first.map(String.init))
    let againAccess = try #require((again.json["tokens"] as? [String: Any])?["accessToken"] as? String)
    let signedOut = try await http.call(.DELETE, "/v1/sessions/current", token: againAccess)
    #expect(signedOut.status == .ok && signedOut.headers.first(name: "set-cookie")?.contains("Max-Age=0") == true)
    let afterSignOut = try await http.call(.POST, "/v1/sessions:refresh", body: [:], headers: keep + [("cookie", againCookie)])
    #expect(afterSignOut.status == .unauthorized, "\(afterSignOut.text)")

    // Another origin's page may not send the header, so it cannot trade the cookie.
    var preflight = HTTPClientRequest(url: http.url("/v1/sessions:refresh"))
    preflight.method = .OPTIONS
    preflight.headers.add(name: "origin", value: Self.webOrigin)
    preflight.headers.add(name: "access-control-request-method", value: "POST")
    preflight.headers.add(name: "access-control-request-headers", value: "x-keep-signed-in")
    let answer = try await http.client.execute(preflight, timeout: .seconds(30))
    #expect(answer.headers.first(name: "access-control-allow-headers")?.contains("x-keep-signed-in") == false)
    #expect(answer.headers.first(name: "access-control-allow-credentials") == nil)
  }

  static func crossOriginAndDocuments(_ http: FrontDoorHTTP) async throws {
    var preflight = HTTPClientRequest(url: http.url("/v1/sessions"))
    preflight.method = .OPTIONS
    preflight.headers.add(name: "origin", value: Self.webOrigin)
    preflight.headers.add(name: "access-control-request-method", value: "POST")
    let allowed = try await http.client.execute(preflight, timeout: .seconds(30))
    #expect(allowed.status == .noContent)
    #expect(allowed.headers.first(name: "access-control-allow-origin") == Self.webOrigin)
    #expect(allowed.headers.first(name: "access-control-allow-headers")?.contains("authorization") == true)
    preflight.headers.replaceOrAdd(name: "origin", value: "https://elsewhere.example")
    let refused = try await http.client.execute(preflight, timeout: .seconds(30))
    #expect(refused.headers.first(name: "access-control-allow-origin") == nil)

    let document = try await http.call(.GET, "/openapi.json")
    #expect(document.json["openapi"] as? String == "3.1.0")
    let paths = document.json["paths"] as? [String: Any] ?? [:]
    #expect(paths["/v1/sessions"] != nil && paths["/v1/me"] != nil && paths["/v1/admin/accounts/{account_user_id}"] != nil)
    // Each operation states its access and the statuses it fails with; a stream its error event.
    func operation(_ path: String, _ verb: String) -> [String: Any] { (paths[path] as? [String: Any])?[verb] as? [String: Any] ?? [:] }
    let getMe = operation("/v1/me", "get")
    #expect((getMe["security"] as? [[String: Any]])?.map { $0.keys.sorted() } == [["bearer"]])
    #expect(Set((getMe["responses"] as? [String: Any] ?? [:]).keys).isSuperset(of: ["200", "400", "401", "403", "429", "503"]))
    let signIn = operation("/v1/sessions", "post")
    #expect((signIn["security"] as? [[String: Any]])?.count == 2, "a public method takes a token but does not need one")
    #expect((signIn["responses"] as? [String: Any])?["403"] == nil && (signIn["responses"] as? [String: Any])?["413"] != nil)
    let watch = operation("/v1/me/notifications:watch", "get")
    #expect((watch["x-sse-events"] as? [String: Any])?["error"] != nil && (watch["description"] as? String)?.contains("`error` event") == true)
    #expect(document.headers.first(name: "strict-transport-security")?.hasPrefix("max-age=") == true)
    let page = try await http.call(.GET, "/docs")
    #expect(page.status == .ok && page.text.contains("swagger-ui-bundle.js"), "is Swagger UI installed? scripts/install-swagger-ui.sh")
  }
}

/// An HTTPS client of the front door that trusts the suite's CA.
struct FrontDoorHTTP {
  struct Answer {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var text: String
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(self.text.utf8)) as? [String: Any]) ?? [:] }
  }

  let client: HTTPClient
  let port: Int

  init(port: Int, caFile: String) throws {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(caFile)
    self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
    self.port = port
  }

  func url(_ path: String) -> String { "https://localhost:\(self.port)\(path)" }

  func call(
    _ method: HTTPMethod,
    _ path: String,
    token: String? = nil,
    body: [String: String]? = nil,
    rawBody: String? = nil,
    language: String? = nil,
    headers: [(String, String)] = []
  ) async throws -> Answer {
    var request = HTTPClientRequest(url: self.url(path))
    request.method = method
    request.headers.add(contentsOf: headers)
    if let token { request.headers.add(name: "authorization", value: "Bearer \(token)") }
    if let language { request.headers.add(name: "accept-language", value: language) }
    let text = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) } ?? rawBody
    if let text {
      request.headers.add(name: "content-type", value: "application/json")
      request.body = .bytes(ByteBuffer(string: text))
    }
    let response = try await self.client.execute(request, timeout: .seconds(30))
    // The OpenAPI document of every route is over a megabyte now.
    let collected = try await response.body.collect(upTo: 8 << 20)
    return Answer(status: response.status, headers: response.headers, text: String(buffer: collected))
  }

  func signIn(email: String, password: String) async throws -> String {
    let answer = try await self.call(.POST, "/v1/sessions", body: ["email": email, "password": password])
    let tokens = answer.json["tokens"] as? [String: Any]
    return try #require(tokens?["accessToken"] as? String, "sign-in of \(email): \(answer.text)")
  }
}

/// The Python tools the front doors' tests drive (`scripts/install-python-tools.sh`), and
/// Debian's chromium for the docs page (`scripts/test.sh` installs both).
struct FrontDoorTools {
  let python: URL

  init() throws {
    self.python = RunningSuite.packageRoot.appendingPathComponent(".tools/venv/bin/python")
    try #require(
      FileManager.default.isExecutableFile(atPath: self.python.path),
      "the front doors' tests need the project's Python tools: run scripts/install-python-tools.sh"
    )
  }

  func python(_ script: String, _ arguments: [String]) async throws -> CommandRun {
    try await CommandRun.run(executable: self.python, [RunningSuite.packageRoot.appendingPathComponent(script).path] + arguments)
  }

  /// schemathesis against the served document, bounded in examples and time: no server error,
  /// no answer outside the schema, no undocumented status or content type.
  func schemathesis(port: Int, caFile: String, token: String) async throws -> CommandRun {
    try await CommandRun.run(
      executable: self.python.deletingLastPathComponent().appendingPathComponent("st"),
      [
        "run", "https://localhost:\(port)/openapi.json", "--tls-verify", caFile,
        "--header", "Authorization: Bearer \(token)",
        "--checks", "not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance",
        "--phases", "examples,coverage,fuzzing", "--max-examples", "5", "--max-time", "60", "--workers", "1",
        "--generation-deterministic", "--no-color",
        // Streams that never end by themselves; and the calls that would end the token's session.
        "--exclude-path-regex", ":watch",
        "--exclude-operation-id", "Identity_Logout", "--exclude-operation-id", "Identity_DeleteMe",
      ],
      environment: ["PYTHONUNBUFFERED": "1"]
    )
  }
}
