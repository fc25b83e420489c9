import BinarioEcho
import BinarioTransport
import GRPCCore
import GRPCNIOTransportHTTP2Posix

/// Runs the echo server of one kind on 127.0.0.1 (a free port), in this process, until the
/// process exits. `onListening` gets the bound port once the server accepts connections.
enum EchoServers {
  static func serve(
    kind: TransportKind,
    certificates: BenchCertificates,
    onListening: @escaping @Sendable (_ port: Int) -> Void
  ) async throws {
    switch kind {
    case .frames:
      try await self.serveFrames(certificates: certificates, onListening: onListening)
    case .binario:
      let transport = BinarioServerTransport(host: "127.0.0.1", port: 0, tls: certificates.binarioServerTLS)
      try await self.serve(GRPCServer(transport: transport, services: [EchoService()]), onListening: onListening) {
        try await transport.listeningAddress().port
      }
    case .http2:
      let transport = HTTP2ServerTransport.Posix(
        address: .ipv4(host: "127.0.0.1", port: 0),
        transportSecurity: certificates.http2ServerSecurity
      )
      try await self.serve(GRPCServer(transport: transport, services: [EchoService()]), onListening: onListening) {
        try await transport.listeningAddress.ipv4?.port
      }
    }
  }

  private static func serveFrames(
    certificates: BenchCertificates,
    onListening: @escaping @Sendable (Int) -> Void
  ) async throws {
    let listener = try await BinarioListener.bind(
      host: "127.0.0.1",
      port: 0,
      tls: certificates.binarioServerTLS,
      acceptor: FrameEchoAcceptor()
    )
    guard let port = listener.localAddress?.port else { throw NoListeningPort() }
    onListening(port)
    await listener.waitUntilClosed()
  }

  private static func serve<Transport: ServerTransport>(
    _ server: GRPCServer<Transport>,
    onListening: @escaping @Sendable (Int) -> Void,
    port: @escaping @Sendable () async throws -> Int?
  ) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.serve() }
      guard let port = try await port() else { throw NoListeningPort() }
      onListening(port)
      _ = try await group.next()
    }
  }

  struct NoListeningPort: Error, CustomStringConvertible {
    var description: String { "the server did not report a listening port" }
  }
}
