import BinarioEcho
import BinarioTransport
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix

/// Echo calls made over one client connection, back to back.
protocol EchoLoad: Sendable {
  /// Keeps `concurrency` calls in flight (each caller starts its next call when its previous
  /// one ends) until `duration` has passed, then waits for the calls still in flight.
  func run(concurrency: Int, for duration: Duration) async throws -> LoadResult
}

/// What one ``EchoLoad/run(concurrency:for:)`` did.
struct LoadResult: Sendable {
  /// Each call's latency in nanoseconds, in no particular order.
  var latencies: [UInt64]
  /// From the first call's start to the last call's end.
  var elapsed: Duration

  var calls: Int { self.latencies.count }

  var callsPerSecond: Double {
    let seconds = Double(self.elapsed.components.seconds) + Double(self.elapsed.components.attoseconds) / 1e18
    return seconds > 0 ? Double(self.calls) / seconds : 0
  }
}

/// A call that ended with another status than `OK`.
struct EchoCallFailed: Error, CustomStringConvertible {
  var code: Int32
  var message: String
  var description: String { "an echo call failed with status \(self.code): \(self.message)" }
}

/// Opens the client of one kind to the server on `127.0.0.1:port` (one connection), runs
/// `body` with it, and closes it.
enum EchoClients {
  static let method = "/binario.echo.v1.Echo/Get"

  static func withLoad<Result: Sendable>(
    kind: TransportKind,
    port: Int,
    certificates: BenchCertificates,
    payloadSize: Int,
    _ body: (any EchoLoad) async throws -> Result
  ) async throws -> Result {
    let payload = Data(repeating: UInt8(ascii: "b"), count: payloadSize)
    switch kind {
    case .frames:
      let connection = try await BinarioClientConnection.connect(
        host: "127.0.0.1",
        port: port,
        serverHostname: nil,
        tls: try certificates.binarioClientTLS.makeClientContext(verifyHostname: false)
      )
      defer { connection.close() }
      return try await body(FrameEchoLoad(connection: connection, method: self.method, payload: payload))

    case .binario:
      // The pool's default size is one connection.
      let transport = try BinarioClientTransport(host: "127.0.0.1", port: port, tls: certificates.binarioClientTLS)
      return try await withGRPCClient(transport: transport) { client in
        try await body(GRPCEchoLoad(client: Binario_Echo_V1_Echo.Client(wrapping: client), payload: payload))
      }

    case .http2:
      // Pick-first load balancing (the default) keeps one HTTP/2 connection to the one address.
      let transport = try HTTP2ClientTransport.Posix(
        target: .ipv4(address: "127.0.0.1", port: port),
        transportSecurity: certificates.http2ClientSecurity
      )
      return try await withGRPCClient(transport: transport) { client in
        try await body(GRPCEchoLoad(client: Binario_Echo_V1_Echo.Client(wrapping: client), payload: payload))
      }
    }
  }
}
