import BinarioAuth
import BinarioProto
import Foundation
import GRPCCore
import GatewayService
import SwiftProtobuf
import Testing

@Suite("HTTP/JSON routes from the protos' google.api.http annotations")
struct HTTPRouteTableTests {
  let table = HTTPRouteTable()

  @Test("every public identity method has exactly one route; internal methods have none")
  func everyPublicMethod() {
    let policy = MethodAccessPolicy.identity
    let routed = Dictionary(grouping: table.routes, by: \.rpc)
    for method in Binario_Identity_V1_Identity.Method.descriptors {
      let path = "/" + method.fullyQualifiedMethod
      switch policy.access(for: method) {
      case .internal?, nil:
        #expect(routed[path] == nil, "\(path) is internal but has a route")
      case .level?:
        #expect(routed[path]?.count == 1, "\(path) has \(routed[path]?.count ?? 0) routes")
      }
    }
    // No two routes answer the same verb and path.
    let keys = table.routes.map { "\($0.verb.rawValue) \($0.template)" }
    #expect(Set(keys).count == keys.count)
  }

  @Test("a request finds its route and the path's values; a wrong verb is told which are allowed")
  func matching() throws {
    guard case .route(let register, let none) = table.match(verb: .post, path: "/v1/accounts") else {
      Issue.record("POST /v1/accounts found nothing")
      return
    }
    #expect(register.rpc == "/binario.identity.v1.Identity/Register" && none.isEmpty)
    guard case .route(let disable, let values) = table.match(verb: .post, path: "/v1/admin/accounts/abc%2Fdef:disable") else {
      Issue.record("the disable route found nothing")
      return
    }
    #expect(disable.rpc == "/binario.identity.v1.Identity/DisableAccount")
    #expect(values == ["account.user_id": "abc/def"])
    guard case .route(let get, _) = table.match(verb: .get, path: "/v1/admin/accounts/abc") else {
      Issue.record("GET account found nothing")
      return
    }
    #expect(get.rpc == "/binario.identity.v1.Identity/GetAccount")
    guard case .verbNotAllowed(let allowed) = table.match(verb: .put, path: "/v1/me") else {
      Issue.record("PUT /v1/me should be 405")
      return
    }
    #expect(Set(allowed) == [.get, .patch])
    guard case .notFound = table.match(verb: .get, path: "/v1/nowhere") else {
      Issue.record("GET /v1/nowhere should be 404")
      return
    }
    guard case .notFound = table.match(verb: .post, path: "/v1/admin/accounts/abc:explode") else {
      Issue.record("an unknown custom verb should be 404")
      return
    }
  }

  @Test("templates the gateway cannot serve are refused with a reason")
  func badTemplates() {
    for template in ["v1/x", "/v1/{name=shelves/*}", "/v1/**", "/v1//x", "/v1/{}"] {
      #expect(throws: HTTPPathTemplateError.self) { try HTTPPathTemplate(parsing: template) }
    }
  }

  @Test("body, path and query become the binary request; parameters win over the body")
  func requestTranscoding() throws {
    let route = try #require(table.routes.first { $0.rpc.hasSuffix("/UpdateAccount") })
    let body = Array(#"{"lastName": "Turner", "phone": "+393331234567", "account": {"userId": "ignored"}}"#.utf8)
    let bytes = try route.transcoder.request(body: body, parameters: [("account.user_id", "u-1", .string)])
    let request = try Binario_Identity_V1_UpdateAccountRequest(serializedBytes: bytes)
    #expect(request.account.userID == "u-1")
    #expect(request.lastName == "Turner" && request.hasLastName && !request.hasFirstName)
    #expect(request.phone == "+393331234567")

    let list = try #require(table.routes.first { $0.rpc.hasSuffix("/ListAccounts") })
    let query = try Binario_Identity_V1_ListAccountsRequest(
      serializedBytes: try list.transcoder.request(
        body: [],
        parameters: [("page_size", "20", .number), ("role", "ROLE_DRIVER", .string), ("query", "ada", .string)]
      )
    )
    #expect(query.pageSize == 20 && query.role == .driver && query.query == "ada")
  }

  @Test("a Timestamp in the query is written as RFC 3339, as proto3's JSON writes it")
  func timestampsInTheQuery() throws {
    let statistics = try #require(table.routes.first { $0.rpc.hasSuffix("/GetStatistics") })
    #expect(statistics.parameterKinds["from"] == .string && statistics.parameterKinds["to"] == .string)
    let request = try Binario_Telemetry_V1_GetStatisticsRequest(
      serializedBytes: try statistics.transcoder.request(
        body: [],
        parameters: [("measure", "MEASURE_PM2_5", .string), ("from", "2024-01-15T07:00:00Z", .string), ("to", "2024-01-15T13:30:00.5Z", .string)]
      )
    )
    #expect(request.measure == .pm25)
    #expect(request.from.seconds == 1_705_302_000 && request.to.seconds == 1_705_325_400 && request.to.nanos == 500_000_000)
    do {
      _ = try statistics.transcoder.request(body: [], parameters: [("from", "yesterday", .string)])
      Issue.record("a time that is not RFC 3339 was accepted")
    } catch {
      #expect(error.description.contains("from") || error.reason.description.lowercased().contains("timestamp"), "\(error)")
    }
  }

  @Test("bad JSON, unknown fields and malformed parameters are refused with what is wrong")
  func badRequests() throws {
    let route = try #require(table.routes.first { $0.rpc.hasSuffix("/Register") })
    #expect(throws: TranscodingError.self) { try route.transcoder.request(body: Array("[1]".utf8), parameters: []) }
    #expect(throws: TranscodingError.self) { try route.transcoder.request(body: Array("{".utf8), parameters: []) }
    do {
      _ = try route.transcoder.request(body: Array(#"{"emial": "x"}"#.utf8), parameters: [])
      Issue.record("an unknown field was accepted")
    } catch {
      #expect(error.reason.description.contains("emial"))
    }
    let list = try #require(table.routes.first { $0.rpc.hasSuffix("/ListAccounts") })
    do {
      _ = try list.transcoder.request(body: [], parameters: [("page_size", "many", .number)])
      Issue.record("a malformed number was accepted")
    } catch {
      #expect(error.field == "page_size")
    }
  }

  @Test("answers become canonical JSON")
  func responseTranscoding() throws {
    let route = try #require(table.routes.first { $0.rpc.hasSuffix("/GetMe") })
    let answer = Binario_Identity_V1_GetMeResponse.with {
      $0.profile = .with {
        $0.userID = "u-1"
        $0.email = "ada@example.com"
        $0.phoneVerified = true
        $0.roles = [.passenger]
      }
    }
    let json = String(decoding: try route.transcoder.responseJSON(try answer.serializedBytes()), as: UTF8.self)
    #expect(json == #"{"profile":{"userId":"u-1","email":"ada@example.com","roles":["ROLE_PASSENGER"],"phoneVerified":true}}"#)
  }
}

@Suite("The generated OpenAPI document")
struct OpenAPIDocumentTests {
  @Test("it documents every route with its verb, and every reference resolves")
  func everyRoute() throws {
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.generatedJSON.utf8)) as? [String: Any]
    )
    #expect(document["openapi"] as? String == "3.1.0")
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    for route in HTTPRouteTable().routes {
      // The document names a nested field's variable with underscores: {account_user_id}.
      let documented = route.template.description.replacing(/\{([^}]+)\}/) { "{" + $0.1.replacingOccurrences(of: ".", with: "_") + "}" }
      let operation = paths[documented]?[route.verb.rawValue.lowercased()] as? [String: Any]
      #expect(operation != nil, "\(route.verb.rawValue) \(route.template) is not documented")
      // A board's upload takes its device token, everything else an account's bearer token (or
      // none): as the access policy says.
      let schemes = Set(((operation?["security"] as? [[String: Any]]) ?? []).flatMap(\.keys))
      let isDevice = MethodAccessPolicy.all.access(forPath: route.rpc) == .level(.device)
      #expect(schemes == (isDevice ? ["deviceToken"] : ["bearer"]), "\(route.rpc) documents \(schemes)")
    }
    let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
    #expect(schemas["Error"] != nil)
    let references = OpenAPIDocument.generatedJSON.matches(of: /"\$ref": "#\/components\/schemas\/([^"]+)"/).map { String($0.1) }
    #expect(!references.isEmpty)
    for name in Set(references) { #expect(schemas[name] != nil, "\(name) is referenced but not defined") }
  }
}

@Suite("The proto descriptors for server reflection")
struct ProtoDescriptorsTests {
  @Test("identity's and health's files decode, each after the files it imports")
  func importOrder() throws {
    let files = try ProtoDescriptors.files()
    var seen = Set<String>()
    for file in files {
      for dependency in file.dependency {
        #expect(seen.contains(dependency), "\(file.name) comes before its import \(dependency)")
      }
      seen.insert(file.name)
    }
    let identity = try #require(files.first { $0.name == "binario/identity/v1/identity.proto" })
    #expect(identity.service.map(\.name) == ["Identity"])
    #expect(identity.service[0].method.count == Binario_Identity_V1_Identity.Method.descriptors.count)
    #expect(files.contains { $0.package == "grpc.health.v1" })
    // Source comments are left out: the files are for machines.
    #expect(files.allSatisfy { !$0.hasSourceCodeInfo })
  }
}
