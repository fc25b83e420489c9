import BinarioDevCertificates
import BinarioTransport
import Foundation
import Logging
import Prometheus
import Testing

@testable import BinarioServiceKit

@Suite("Binario transport glue")
struct BinarioTransportFactoryTests {
  @Test("the runner listens with the Binario transport on an ephemeral port and reports it", .timeLimit(.minutes(1)))
  func listensAndReportsAddress() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("binario-certs-\(UUID().uuidString)")
    try DevCertificateSet.write(to: directory, names: ["identity"])
    defer { try? FileManager.default.removeItem(at: directory) }
    let configuration = ServiceConfiguration(
      serviceName: "identity",
      port: 0,
      tlsCertificate: directory.appendingPathComponent("identity.pem").path,
      tlsPrivateKey: directory.appendingPathComponent("identity.key").path,
      tlsTrustedCA: directory.appendingPathComponent("ca.pem").path
    )
    let writer = CollectingLogWriter()
    let assembled = try await ServiceRunner.assemble(
      configuration: configuration,
      logger: Logger(label: "identity") { JSONLogHandler(label: $0, writer: writer) },
      metricsRegistry: PrometheusCollectorRegistry(),
      transport: .binario,
      handlesSignals: false
    ) { _ in [] }

    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await assembled.run() }
      let address = try #require(try await assembled.listeningAddress())
      #expect(address.hasPrefix("127.0.0.1:"))
      #expect(address != "127.0.0.1:0")
      // The report is logged by a task of its own: wait for it, not for time.
      let reported = await writer.firstLine { $0.contains(#""message":"listening""#) }
      #expect(reported?.contains(#""address":"\#(address)""#) == true)
      await assembled.triggerGracefulShutdown()
      try await tasks.next()
    }
  }

  @Test("mutual TLS without a trusted CA is an error naming the setting")
  func missingTrustedCA() throws {
    let configuration = ServiceConfiguration(serviceName: "identity", tlsCertificate: "/c.pem", tlsPrivateKey: "/k.pem")
    let error = try #require(throws: ConfigurationError.self) {
      try BinarioTLSConfiguration(serverSettingsFrom: configuration)
    }
    #expect(error.setting == "tlsTrustedCA")
    #expect(error.description.contains("--tls-trusted-ca"))
    #expect(error.description.contains("BINARIO_TLS_TRUSTED_CA"))
  }

  @Test("server-only TLS needs no trusted CA and asks no client certificate")
  func serverOnly() throws {
    let configuration = ServiceConfiguration(
      serviceName: "gateway",
      tlsCertificate: "/c.pem",
      tlsPrivateKey: "/k.pem",
      tlsClientAuthentication: .none
    )
    let tls = try BinarioTLSConfiguration(serverSettingsFrom: configuration)
    #expect(!tls.requireClientCertificate)
    #expect(tls.certificateChain == .file("/c.pem"))
  }

  @Test("a missing certificate stops the runner before it starts")
  func missingCertificate() async throws {
    let error = await #expect(throws: ConfigurationError.self) {
      _ = try await ServiceRunner.assemble(
        configuration: ServiceConfiguration(serviceName: "identity"),
        logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
        metricsRegistry: PrometheusCollectorRegistry(),
        transport: .binario,
        handlesSignals: false
      ) { _ in [] }
    }
    #expect(error?.setting == "tlsCertificate")
  }
}
