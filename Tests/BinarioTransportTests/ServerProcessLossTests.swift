import BinarioEcho
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import Testing

/// Losing a server for real: `binario-echo-server` runs as its own process and is killed with
/// SIGKILL in the middle of a call.
@Suite("A server process killed mid-call")
struct ServerProcessLossTests {
  /// The test CA and the echo server's certificate, as files the process can read.
  private static func writeServerCertificates(to folder: URL) throws -> [String] {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let files = [
      ("ca.pem", TestPKI.material.ca.certificatePEM),
      ("echo.pem", TestPKI.material.server.certificatePEM),
      ("echo.key", TestPKI.material.server.privateKeyPEM),
    ]
    for (name, pem) in files {
      try pem.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return [
      "--tls-certificate", folder.appendingPathComponent("echo.pem").path,
      "--tls-private-key", folder.appendingPathComponent("echo.key").path,
      "--tls-trusted-ca", folder.appendingPathComponent("ca.pem").path,
      "--data-directory", folder.path,
      "--metrics-port", "off",
      "--host", "127.0.0.1",
    ]
  }

  @Test func theClientGetsUnavailableWithinASecondAndRecoversWhenTheServerIsBack() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binario-echo-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let flags = try Self.writeServerCertificates(to: folder)
    let first = try await ServiceProcess.start("binario-echo-server", arguments: flags + ["--port", "0"])
    let port = first.port

    try await withTestClient(port: port) { client, _ in
      let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
      let (firstReply, firstReplyContinuation) = AsyncStream.makeStream(of: String.self)
      let (neverMore, _) = AsyncStream.makeStream(of: Void.self)
      // A bidirectional call that stays open: one message each way, then the caller waits.
      let inFlight = Task {
        try await echo.update(
          requestProducer: { writer in
            try await writer.write(.with { $0.text = "are you there?" })
            for await _ in neverMore {}
          },
          onResponse: { response in
            for try await message in response.messages { firstReplyContinuation.yield(message.text) }
          }
        )
      }
      #expect(await firstReply.first() == "are you there?")

      let lostAt = ContinuousClock.now
      first.kill()
      let error = await #expect(throws: RPCError.self) { try await inFlight.value }
      #expect(error?.code == .unavailable)
      #expect(ContinuousClock.now - lostAt < .seconds(1))

      // A new process on the same port: the same client's next call succeeds.
      let second = try await ServiceProcess.start("binario-echo-server", arguments: flags + ["--port", "\(port)"])
      defer { second.terminate() }
      let reply = try await echo.get(.with { $0.text = "welcome back" })
      #expect(reply.text == "welcome back")
    }
  }
}
