import AsyncHTTPClient
import BenchSupport
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// The suite under load: `identity` and `gateway` running as processes (``RunningSuite``), a
/// signed-in passenger, and this process's clients: two frame-layer connections (one to the
/// gateway as an app connects, server-only TLS; one straight to identity with the gateway's
/// certificate), a standard gRPC client of the gateway's HTTP/2 front door (one connection), and
/// an HTTPS client of its HTTP/JSON front door (a pool of HTTP/1.1 connections, one per call in
/// flight).
struct BenchSuite {
  let suite: RunningSuite
  let toGateway: BinarioClientConnection
  let toIdentity: BinarioClientConnection
  let grpc: Binario_Identity_V1_Identity.Client<HTTP2ClientTransport.Posix>
  let http: HTTPClient
  let userID: String
  let accessToken: String
  let quietLogger: Logger
  static let email = "bench@example.com"
  static let password = "correct horse 42"

  /// The process ids whose usage each measurement reports, by role.
  var processIdentifiers: [String: Int32] {
    var pids = self.suite.processIdentifiers
    pids["client"] = ProcessInfo.processInfo.processIdentifier
    return pids
  }

  /// Starts the suite, signs the bench passenger up, connects, runs `body`, then stops it all.
  /// With `endpoint`, every process exports its spans there over OTLP/HTTP.
  static func with(
    exportingTo endpoint: String? = nil,
    environment: [String: String] = [:],
    _ body: (BenchSuite) async throws -> Void
  ) async throws {
    // As deployed, except: no per-client rate limit (the load is one client), and access tokens
    // that outlive the run.
    let flags = RunningSuite.ExtraFlags(
      identity: ["--access-token-lifetime", "3600"],
      gateway: ["--rate-limit", "off"],
      all: endpoint.map { ["--otlp-endpoint", $0] } ?? [],
      environment: environment
    )
    try await RunningSuite.with(extraFlags: flags) { suite in
      try await suite.waitUntilTheGatewaySeesIdentityServing()
      let (accessToken, userID) = try await suite.withGatewayClient { identity in
        let admin = try await identity.signInAdmin()
        let tokens = try await identity.signUp(email: Self.email, password: Self.password, firstName: "Bench", admin: admin)
        let me = try await identity.getMe(.init(), metadata: bearer(tokens))
        return (tokens.accessToken, me.profile.userID)
      }

      var quiet = Logger(label: "gateway-bench")
      quiet.logLevel = .error
      let certificates = suite.certificates.path
      let toGateway = try await BinarioClientConnection.connect(
        host: "127.0.0.1",
        port: suite.gatewayPort,
        serverHostname: "localhost",
        tls: try BinarioTLSConfiguration.client(trustRoots: .file(suite.caFile)).makeClientContext(),
        logger: quiet
      )
      let asGateway = BinarioTLSConfiguration.mutual(
        certificateChain: .file("\(certificates)/gateway.pem"),
        privateKey: .file("\(certificates)/gateway.key"),
        trustRoots: .file(suite.caFile)
      )
      let toIdentity = try await BinarioClientConnection.connect(
        host: "127.0.0.1",
        port: suite.identityPort,
        serverHostname: "identity",
        tls: try asGateway.makeClientContext(),
        logger: quiet
      )
      defer {
        toGateway.close()
        toIdentity.close()
      }
      let grpcTransport = try HTTP2ClientTransport.Posix(
        target: .ipv4(address: "127.0.0.1", port: suite.gatewayGRPCPort),
        transportSecurity: .tls { tls in
          tls.trustRoots = .certificates([.file(path: suite.caFile, format: .pem)])
        },
        config: .defaults { $0.http2.authority = "localhost" }
      )
      var tls = TLSConfiguration.makeClientConfiguration()
      tls.trustRoots = .file(suite.caFile)
      var httpConfiguration = HTTPClient.Configuration(tlsConfiguration: tls)
      httpConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
      let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
      do {
        try await withGRPCClient(transport: grpcTransport) { client in
          try await body(
            BenchSuite(
              suite: suite,
              toGateway: toGateway,
              toIdentity: toIdentity,
              grpc: Binario_Identity_V1_Identity.Client(wrapping: client),
              http: http,
              userID: userID,
              accessToken: accessToken,
              quietLogger: quiet
            )
          )
        }
      } catch {
        try? await http.shutdown()
        throw error
      }
      try await http.shutdown()
    }
  }

  private var loginRequest: BinarioCallRequest {
    let payload = try! Binario_Identity_V1_LoginRequest.with {
      $0.email = Self.email
      $0.password = Self.password
    }.serializedData()
    return BinarioCallRequest(method: "/binario.identity.v1.Identity/Login", firstMessage: payload, halfClose: true)
  }

  func measureLogins(for duration: Duration, inFlight: Int) async throws -> LoadResult {
    try await FrameCallLoad.run(self.loginRequest, on: self.toGateway, concurrency: inFlight, for: duration)
  }

  func measure(_ path: BenchPath, inFlight: Int, for duration: Duration) async throws -> LoadResult {
    switch path {
    case .grpc:
      let (client, token) = (self.grpc, self.accessToken)
      return await AsyncCallLoad.run(concurrency: inFlight, for: duration, measuring: self.processIdentifiers) {
        _ = try await client.getMe(.init(), metadata: ["authorization": "Bearer \(token)"])
      }
    case .httpJSON:
      var request = HTTPClientRequest(url: "https://localhost:\(self.suite.gatewayHTTPPort)/v1/me")
      request.headers.add(name: "authorization", value: "Bearer \(self.accessToken)")
      let (client, prepared) = (self.http, request)
      return await AsyncCallLoad.run(concurrency: inFlight, for: duration, measuring: self.processIdentifiers) {
        let response = try await client.execute(prepared, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 16)
        guard response.status == .ok else { throw BenchError(message: "GET /v1/me: \(response.status): \(String(buffer: body))") }
      }
    case .gateway, .direct, .gatewayHealth:
      return try await self.measureFrames(path, inFlight: inFlight, for: duration)
    }
  }

  private func measureFrames(_ path: BenchPath, inFlight: Int, for duration: Duration) async throws -> LoadResult {
    let payload = try Binario_Identity_V1_GetMeRequest().serializedData()
    let method = "/binario.identity.v1.Identity/GetMe"
    var metadata = WireMetadata()
    func entry(_ key: String, _ value: String) -> WireMetadataEntry {
      var entry = WireMetadataEntry()
      entry.key = key
      entry.value = .text(value)
      return entry
    }
    let request: BinarioCallRequest
    let connection: BinarioClientConnection
    switch path {
    case .gatewayHealth:
      let health = try Grpc_Health_V1_HealthCheckRequest().serializedData()
      request = BinarioCallRequest(method: "/grpc.health.v1.Health/Check", firstMessage: health, halfClose: true)
      connection = self.toGateway
    case .gateway:
      metadata.append(entry("authorization", "Bearer \(self.accessToken)"))
      request = BinarioCallRequest(method: method, metadata: metadata, firstMessage: payload, halfClose: true)
      connection = self.toGateway
    case .grpc, .httpJSON:
      preconditionFailure("not a frame-layer path")
    case .direct:
      // What the gateway forwards: the caller as metadata, on a connection with its certificate.
      metadata.append(entry("x-user-id", self.userID))
      metadata.append(entry("x-roles", "passenger"))
      metadata.append(entry("x-session-id", "bench"))
      request = BinarioCallRequest(method: method, metadata: metadata, firstMessage: payload, halfClose: true)
      connection = self.toIdentity
    }
    return try await FrameCallLoad.run(
      request,
      on: connection,
      concurrency: inFlight,
      for: duration,
      measuring: self.processIdentifiers
    )
  }
}
