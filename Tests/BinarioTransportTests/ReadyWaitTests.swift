import BinarioEcho
import BinarioTestSupport
import GRPCCore
import GRPCProtobuf
import Testing

@testable import BinarioTransport

/// A transport with a `readyWait` (a service's client to a peer): a call finding the server away
/// waits for it to come back, for at most that long.
@Suite("Calls waiting for a server that is restarting")
struct ReadyWaitTests {
  @Test func aCallWaitsForTheServerToComeBack() async throws {
    let port = try ServiceProcess.unusedPort()
    let transport = try BinarioClientTransport(
      host: "127.0.0.1",
      port: port,
      tls: TestPKI.clientTLS(),
      peerName: "echo",
      readyWait: .seconds(30)
    )
    try await withGRPCClient(transport: transport) { client in
      let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
      let reply = Task { try await echo.get(.with { $0.text = "are you back?" }).text }
      _ = try await eventually("the call waits for the server") { transport.pool.waitingCalls == 1 ? true : nil }
      let text = try await withTestServer(port: port) { _, _ in try await reply.value }
      #expect(text == "are you back?")
    }
  }

  @Test func aServerThatStaysAwayFailsTheCallOnceTheWaitIsOver() async throws {
    let port = try ServiceProcess.unusedPort()
    let transport = try BinarioClientTransport(
      host: "127.0.0.1",
      port: port,
      tls: TestPKI.clientTLS(),
      peerName: "echo",
      readyWait: .milliseconds(300)
    )
    try await withGRPCClient(transport: transport) { client in
      let error = await #expect(throws: RPCError.self) {
        _ = try await Binario_Echo_V1_Echo.Client(wrapping: client).get(.init())
      }
      #expect(error?.code == .unavailable)
      #expect(error?.message == "the echo service is unavailable; try again shortly")
      #expect(transport.pool.waitingCalls == 0)
    }
  }
}
