import BinarioServiceKit
import BinarioTestSupport
import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import Testing

/// The small tools the deployment uses, as a container runs them: `binario-probe` (compose's
/// health checks) and `binario-dev-certs --kubernetes-secrets`.
@Suite("Deployment tools as commands")
struct DeploymentToolsTests {
  @Test("binario-probe exits 0 only when the endpoint answers 200; a bad URL or no answer fails, saying why", .timeLimit(.minutes(1)))
  func probe() async throws {
    let readiness = Readiness()
    let listener = ListenerState()
    readiness.add("server", listener: listener)
    let server = MetricsHTTPServer(
      host: "127.0.0.1",
      port: 0,
      registry: PrometheusCollectorRegistry(),
      readiness: readiness,
      logger: Logger(label: "test")
    )
    let group = ServiceGroup(services: [server], logger: Logger(label: "test"))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      let port = try #require(try await server.listeningAddress().port)
      let url = "http://127.0.0.1:\(port)/readyz"

      let starting = try await CommandRun.run("binario-probe", [url])
      #expect(starting.status == 1)
      #expect(starting.standardOutput == "\(url): 503 Service Unavailable\n")

      listener.advance(to: .listening)
      let ready = try await CommandRun.run("binario-probe", [url])
      #expect(ready.status == 0, "\(ready.standardOutput)")
      #expect(ready.standardOutput == "\(url): 200 OK\n")

      await group.triggerGracefulShutdown()
      try await tasks.next()

      let gone = try await CommandRun.run("binario-probe", [url, "--timeout", "5"])
      #expect(gone.status == 1)
      #expect(gone.standardOutput.hasPrefix("\(url): no answer ("))
    }

    for bad in ["https://127.0.0.1:9101/readyz", "http://127.0.0.1/readyz", "http://:9101/readyz"] {
      let refused = try await CommandRun.run("binario-probe", [bad])
      #expect(refused.status != 0 && refused.status != 1, "\(bad): a usage error, not a failed probe")
      #expect(refused.standardError.contains("Error:"), "\(bad): \(refused.standardError)")
    }
  }

  @Test("binario-dev-certs refuses a namespace Kubernetes would refuse, naming the flag")
  func devCertsNamespace() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binario-dev-certs-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let refused = try await CommandRun.run(
      "binario-dev-certs",
      ["--out", folder.path, "--kubernetes-secrets", folder.appendingPathComponent("s.yaml").path, "--namespace", "Binario_Prod"]
    )
    #expect(refused.status != 0)
    #expect(refused.standardError.contains("--namespace must be a DNS label"), "\(refused.standardError)")
    #expect(!FileManager.default.fileExists(atPath: folder.path), "nothing is written before the flags are checked")

    let written = try await CommandRun.run(
      "binario-dev-certs",
      ["--out", folder.path, "--kubernetes-secrets", folder.appendingPathComponent("s.yaml").path, "--namespace", "binario-staging"]
    )
    #expect(written.status == 0, "\(written.standardError)")
    let manifest = try String(contentsOf: folder.appendingPathComponent("s.yaml"), encoding: .utf8)
    #expect(manifest.contains("  namespace: binario-staging\n"))
  }
}
