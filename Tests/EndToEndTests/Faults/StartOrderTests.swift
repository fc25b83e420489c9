import AsyncHTTPClient
import BinarioDevCertificates
import BinarioTestSupport
import Foundation
import Testing

/// The suite's processes start at once, in no order (`scripts/run-local.sh`, compose): each is
/// ready when what it needs answers. The gateway needs identity's signing keys to check a token,
/// so it is not ready until identity answers, and then is without a restart.
@Suite("Processes started in any order")
struct StartOrderTests {
  @Test("A gateway started before identity says why it is not ready, and is ready once identity answers", .timeLimit(.minutes(1)))
  func gatewayBeforeIdentity() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binario-start-order-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let certificates = folder.appendingPathComponent("certs")
    _ = try DevCertificateSet.write(to: certificates)
    func flags(_ name: String) -> [String] {
      [
        "--host", "127.0.0.1",
        "--tls-certificate", certificates.appendingPathComponent("\(name).pem").path,
        "--tls-private-key", certificates.appendingPathComponent("\(name).key").path,
        "--tls-trusted-ca", certificates.appendingPathComponent("ca.pem").path,
        "--data-directory", folder.appendingPathComponent("data/\(name)").path,
      ]
    }
    let identityPort = try ServiceProcess.unusedPort()
    let metricsPort = try ServiceProcess.unusedPort()
    let gateway = try await ServiceProcess.start(
      "gateway",
      arguments: flags("gateway") + [
        "--port", "0", "--grpc-port", "off", "--http-port", "off", "--tls-client-authentication", "none",
        "--upstream", "identity=127.0.0.1:\(identityPort)", "--metrics-host", "127.0.0.1", "--metrics-port", "\(metricsPort)",
      ]
    )
    defer { gateway.kill() }
    let readiness = "http://127.0.0.1:\(metricsPort)/readyz"

    let waiting = try await Self.get(readiness)
    #expect(waiting.status == 503)
    #expect(waiting.body.contains("identity's signing keys are not loaded yet"), "\(waiting.body)")

    let identity = try await ServiceProcess.start(
      "identity",
      arguments: flags("identity") + ["--port", "\(identityPort)", "--metrics-port", "off"]
    )
    defer { identity.kill() }
    let ready = try await eventually("the gateway is ready") { () -> (status: Int, body: String)? in
      let answer = try await Self.get(readiness)
      return answer.status == 200 ? answer : nil
    }
    #expect(ready.body == "ready\n")
  }

  static func get(_ url: String) async throws -> (status: Int, body: String) {
    let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
    let body = try await response.body.collect(upTo: 64 * 1024)
    return (Int(response.status.code), String(buffer: body))
  }
}
