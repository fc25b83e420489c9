import AsyncHTTPClient
import BinarioTransport
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOCore
import NIOSSL

/// Where the gateway's three front doors listen and the CA its certificate is checked against.
public struct Gateway: Sendable {
  /// The name in the gateway's certificate, also the host to connect to (`localhost`, `gateway`).
  public var host: String
  public var binarioPort: Int
  public var grpcPort: Int
  public var httpPort: Int
  /// The PEM file of the CA that signed the gateway's certificate.
  public var caFile: String

  public init(host: String, binarioPort: Int, grpcPort: Int, httpPort: Int, caFile: String) {
    self.host = host
    self.binarioPort = binarioPort
    self.grpcPort = grpcPort
    self.httpPort = httpPort
    self.caFile = caFile
  }

  /// Runs `body` with `connections` connections through `kind` (HTTP/JSON: a pool of up to 200),
  /// closed after it.
  public func withDoor<Result: Sendable>(
    _ kind: DoorKind,
    connections: Int = 8,
    timeout: Duration,
    _ body: (any Door) async throws -> Result
  ) async throws -> Result {
    switch kind {
    case .binario:
      let transports = try (0 ..< max(1, connections)).map { _ in
        try BinarioClientTransport(host: host, port: binarioPort, serverHostname: host, tls: .client(trustRoots: .file(caFile)))
      }
      return try await Self.withClients(transports) { clients in
        try await body(GRPCCoreDoor(kind: .binario, clients: clients, timeout: timeout))
      }
    case .grpc:
      let transports = try (0 ..< max(1, connections)).map { _ in
        try HTTP2ClientTransport.Posix(
          target: .dns(host: host, port: grpcPort),
          transportSecurity: .tls { $0.trustRoots = .certificates([.file(path: caFile, format: .pem)]) },
          config: .defaults { $0.http2.authority = host }
        )
      }
      return try await Self.withClients(transports) { clients in
        try await body(GRPCCoreDoor(kind: .grpc, clients: clients, timeout: timeout))
      }
    case .httpJSON:
      var tls = TLSConfiguration.makeClientConfiguration()
      tls.trustRoots = .file(caFile)
      var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
      configuration.httpVersion = .http1Only
      // Many people, each on a connection of their own, as browsers are, but under the gateway's
      // limit of connections from one address (256; every person here has the same one): past
      // it, new connections are refused and calls wait for the pool instead.
      configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 200
      let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
      do {
        let result = try await body(HTTPJSONDoor(client: client, base: "https://\(host):\(httpPort)", timeout: timeout))
        try await client.shutdown()
        return result
      } catch {
        try? await client.shutdown()
        throw error
      }
    }
  }

  /// A client on each transport, running while `body` runs, then shut down.
  private static func withClients<Transport: ClientTransport, Result: Sendable>(
    _ transports: [Transport],
    _ body: ([GRPCClient<Transport>]) async throws -> Result
  ) async throws -> Result {
    let clients = transports.map { GRPCClient(transport: $0) }
    return try await withThrowingTaskGroup(of: Void.self) { group in
      for client in clients { group.addTask { try await client.runConnections() } }
      defer {
        for client in clients { client.beginGracefulShutdown() }
      }
      return try await body(clients)
    }
  }
}
