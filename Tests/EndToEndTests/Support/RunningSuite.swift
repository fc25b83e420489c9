import BinarioDevCertificates
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import Synchronization
import GRPCCore

/// The suite as separate processes on loopback: `identity` and `gateway` with development
/// certificates and SQLite files in a temporary folder, as `scripts/run-local.sh` starts them.
final class RunningSuite: Sendable {
  static let adminEmail = "admin@binario.test"
  static let adminPassword = "admin-password-123"

  let folder: URL
  private let processes: Mutex<[String: ServiceProcess]>

  var certificates: URL { self.folder.appendingPathComponent("certs") }
  var caFile: String { self.certificates.appendingPathComponent("ca.pem").path }
  var gatewayPort: Int { self.processes.withLock { $0["gateway"]!.port } }
  var identityPort: Int { self.processes.withLock { $0["identity"]!.port } }

  private init(folder: URL) {
    self.folder = folder
    self.processes = Mutex([:])
  }

  /// Starts identity, then the gateway routing to it; runs `body`; stops both and removes the folder.
  static func with<Result: Sendable>(_ body: (RunningSuite) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binario-e2e-\(UUID().uuidString)")
    let suite = RunningSuite(folder: folder)
    defer {
      suite.stopAll()
      try? FileManager.default.removeItem(at: folder)
    }
    _ = try DevCertificateSet.write(to: suite.certificates)
    try await suite.startIdentity(port: 0)
    try await suite.startGateway()
    return try await body(suite)
  }

  private func commonFlags(_ name: String) -> [String] {
    let certificates = self.certificates.path
    return [
      "--host", "127.0.0.1",
      "--tls-certificate", "\(certificates)/\(name).pem",
      "--tls-private-key", "\(certificates)/\(name).key",
      "--tls-trusted-ca", "\(certificates)/ca.pem",
      "--data-directory", self.folder.appendingPathComponent("data/\(name)").path,
      "--metrics-port", "off",
    ]
  }

  /// Starts identity on `port` (0: any) with its data folder (kept across restarts).
  func startIdentity(port: Int) async throws {
    let process = try await ServiceProcess.start(
      "identity",
      arguments: self.commonFlags("identity") + ["--port", "\(port)"],
      environment: ["BINARIO_ADMIN_EMAIL": Self.adminEmail, "BINARIO_ADMIN_PASSWORD": Self.adminPassword]
    )
    self.processes.withLock { $0["identity"] = process }
  }

  private func startGateway() async throws {
    let process = try await ServiceProcess.start(
      "gateway",
      arguments: self.commonFlags("gateway") + [
        "--port", "0", "--tls-client-authentication", "none",
        "--upstream", "identity=127.0.0.1:\(self.identityPort)",
      ]
    )
    self.processes.withLock { $0["gateway"] = process }
  }

  /// Returns once the gateway reports identity serving (its health `Watch`), so a call made
  /// next does not meet the gateway's reconnect backoff.
  func waitUntilTheGatewaySeesIdentityServing() async throws {
    let transport = try BinarioClientTransport(
      host: "127.0.0.1",
      port: self.gatewayPort,
      serverHostname: "localhost",
      tls: .client(trustRoots: .file(self.caFile))
    )
    try await withGRPCClient(transport: transport) { client in
      try await Grpc_Health_V1_Health.Client(wrapping: client).watch(.with { $0.service = "identity" }) { response in
        for try await update in response.messages where update.status == .serving { return }
      }
    }
  }

  /// `kill -9` of identity: whatever it acknowledged must be on disk already.
  func killIdentity() {
    self.processes.withLock { $0["identity"] }?.kill()
  }

  private func stopAll() {
    let all = self.processes.withLock { processes in
      defer { processes = [:] }
      return processes
    }
    for name in ["gateway", "identity"] { all[name]?.terminate() }
  }

  /// A client of the gateway's public side, as an app would be: no client certificate.
  func withGatewayClient<Result: Sendable>(
    _ body: (Binario_Identity_V1_Identity.Client<BinarioClientTransport>) async throws -> Result
  ) async throws -> Result {
    let transport = try BinarioClientTransport(
      host: "127.0.0.1",
      port: self.gatewayPort,
      serverHostname: "localhost",
      tls: .client(trustRoots: .file(self.caFile))
    )
    return try await withGRPCClient(transport: transport) { client in
      try await body(Binario_Identity_V1_Identity.Client(wrapping: client))
    }
  }

  /// A client straight to identity (around the gateway) holding `certificate`'s identity.
  func withDirectIdentityClient<Result: Sendable>(
    as certificate: String,
    _ body: (Binario_Identity_V1_Identity.Client<BinarioClientTransport>) async throws -> Result
  ) async throws -> Result {
    let certificates = self.certificates.path
    let transport = try BinarioClientTransport(
      host: "127.0.0.1",
      port: self.identityPort,
      serverHostname: "identity",
      tls: .mutual(
        certificateChain: .file("\(certificates)/\(certificate).pem"),
        privateKey: .file("\(certificates)/\(certificate).key"),
        trustRoots: .file(self.caFile)
      )
    )
    return try await withGRPCClient(transport: transport) { client in
      try await body(Binario_Identity_V1_Identity.Client(wrapping: client))
    }
  }
}
