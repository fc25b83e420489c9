import BinarioDevCertificates
import BinarioTransport
import Foundation
import GRPCNIOTransportHTTP2Posix

/// The throwaway PKI of one benchmark run: a CA, a server leaf (DNS SAN `localhost`, URI SAN
/// `spiffe://binario/echo`) and a client leaf (URI SAN `spiffe://binario/bench-client`).
///
/// The parent makes it in memory and writes it as PEM files to a temporary folder that the
/// server child reads (`serve --cert-dir`). Both transports use mutual TLS with it; clients
/// connect by IP address, so they check the server's chain to the CA but not its hostname (as
/// `BinarioClientConnection` does with `serverHostname: nil`).
struct BenchCertificates: Sendable {
  var caCertificatePEM: String
  var serverCertificatePEM: String
  var serverKeyPEM: String
  var clientCertificatePEM: String
  var clientKeyPEM: String

  private static let fileNames = (
    ca: "ca.pem", serverCertificate: "server.pem", serverKey: "server-key.pem",
    clientCertificate: "client.pem", clientKey: "client-key.pem"
  )

  static func make() throws -> BenchCertificates {
    let ca = try DevCertificateAuthority.create(commonName: "Binario Benchmark CA")
    let server = try ca.issue(commonName: "echo", uriSANs: ["spiffe://binario/echo"], dnsSANs: ["localhost"])
    let client = try ca.issue(commonName: "bench-client", uriSANs: ["spiffe://binario/bench-client"], dnsSANs: [])
    return BenchCertificates(
      caCertificatePEM: ca.certificatePEM,
      serverCertificatePEM: server.certificatePEM,
      serverKeyPEM: server.privateKeyPEM,
      clientCertificatePEM: client.certificatePEM,
      clientKeyPEM: client.privateKeyPEM
    )
  }

  /// Writes the PEM files into `directory` (keys readable by the owner only).
  func write(to directory: URL) throws {
    let names = Self.fileNames
    let files: [(String, String, Bool)] = [
      (names.ca, self.caCertificatePEM, false),
      (names.serverCertificate, self.serverCertificatePEM, false),
      (names.serverKey, self.serverKeyPEM, true),
      (names.clientCertificate, self.clientCertificatePEM, false),
      (names.clientKey, self.clientKeyPEM, true),
    ]
    for (name, pem, isSecret) in files {
      let path = directory.appendingPathComponent(name).path
      let attributes: [FileAttributeKey: Any] = [.posixPermissions: isSecret ? 0o600 : 0o644]
      guard FileManager.default.createFile(atPath: path, contents: Data(pem.utf8), attributes: attributes) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
      }
    }
  }

  static func read(from directory: URL) throws -> BenchCertificates {
    func read(_ name: String) throws -> String {
      try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }
    let names = Self.fileNames
    return BenchCertificates(
      caCertificatePEM: try read(names.ca),
      serverCertificatePEM: try read(names.serverCertificate),
      serverKeyPEM: try read(names.serverKey),
      clientCertificatePEM: try read(names.clientCertificate),
      clientKeyPEM: try read(names.clientKey)
    )
  }

  // MARK: Binario

  var binarioServerTLS: BinarioTLSConfiguration {
    .mutual(
      certificateChain: .pem(self.serverCertificatePEM),
      privateKey: .pem(self.serverKeyPEM),
      trustRoots: .pem(self.caCertificatePEM)
    )
  }

  var binarioClientTLS: BinarioTLSConfiguration {
    .mutual(
      certificateChain: .pem(self.clientCertificatePEM),
      privateKey: .pem(self.clientKeyPEM),
      trustRoots: .pem(self.caCertificatePEM)
    )
  }

  // MARK: HTTP/2 (grpc-swift-nio-transport)

  private static func pem(_ text: String) -> TLSConfig.CertificateSource {
    .bytes(Array(text.utf8), format: .pem)
  }

  var http2ServerSecurity: HTTP2ServerTransport.Posix.TransportSecurity {
    .mTLS(
      certificateChain: [Self.pem(self.serverCertificatePEM)],
      privateKey: .bytes(Array(self.serverKeyPEM.utf8), format: .pem)
    ) { tls in
      tls.trustRoots = .certificates([Self.pem(self.caCertificatePEM)])
      tls.clientCertificateVerification = .noHostnameVerification
    }
  }

  var http2ClientSecurity: HTTP2ClientTransport.Posix.TransportSecurity {
    .mTLS(
      certificateChain: [Self.pem(self.clientCertificatePEM)],
      privateKey: .bytes(Array(self.clientKeyPEM.utf8), format: .pem)
    ) { tls in
      tls.trustRoots = .certificates([Self.pem(self.caCertificatePEM)])
      tls.serverCertificateVerification = .noHostnameVerification
    }
  }
}
