import BinarioEcho
import BinarioTestSupport
import GRPCCore
import GRPCProtobuf
import Testing

@testable import BinarioTransport

@Suite("Graceful shutdown, server loss and reconnection")
struct ShutdownAndReconnectTests {
  @Test func gracefulShutdownLetsInFlightCallsFinishAndRefusesNewOnes() async throws {
    let (service, started, gate) = GatedEchoService.make()
    let transport = BinarioServerTransport(host: "127.0.0.1", port: 0, tls: TestPKI.serverTLS)
    let server = GRPCServer(transport: transport, services: [service])
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.serve() }
      let port = try await transport.listeningAddress().port!
      try await withTestClient(port: port) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        let inFlight = Task { try await echo.get(.with { $0.text = "hold" }) }
        _ = await started.first()

        server.beginGracefulShutdown()
        let refused = await #expect(throws: RPCError.self) {
          _ = try await echo.get(.with { $0.text = "new" })
        }
        #expect(refused?.code == .unavailable)

        gate.yield()
        let reply = try await inFlight.value
        #expect(reply.text == "hold")
      }
      try await group.waitForAll()
    }
  }

  @Test func losingTheServerMidCallGivesUnavailableQuicklyAndTheSameClientRecovers() async throws {
    let (service, started, gate) = GatedEchoService.make()
    // A port below the ephemeral range: once the first server lets it go, only an explicit bind
    // may take it, not any outgoing connection a test running meanwhile makes (one did, once, and
    // the second server's bind failed with "Address already in use").
    let first = BinarioServerTransport(host: "127.0.0.1", port: try ServiceProcess.unusedPort(), tls: TestPKI.serverTLS)
    let firstServer = Task { try await GRPCServer(transport: first, services: [service]).serve() }
    let port = try await first.listeningAddress().port!

    try await withTestClient(port: port) { client, _ in
      let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
      let inFlight = Task { try await echo.get(.with { $0.text = "hold through cancellation" }) }
      _ = await started.first()

      // The server goes away abruptly while the handler is still busy: every connection closes
      // without GoAway.
      let lostAt = ContinuousClock.now
      firstServer.cancel()
      let error = await #expect(throws: RPCError.self) { _ = try await inFlight.value }
      #expect(error?.code == .unavailable)
      #expect(ContinuousClock.now - lostAt < .seconds(1))
      gate.yield()  // the handler ends; its answer has no connection to go to
      _ = await firstServer.result

      // Back on the same port: the next call on the same client succeeds.
      try await withTestServer(services: [EchoService()], port: port) { _, _ in
        let reply = try await echo.get(.with { $0.text = "welcome back" })
        #expect(reply.text == "welcome back")
      }
    }
  }

  @Test func callsFailFastWhileTheServerIsDown() async throws {
    // A port with nothing listening: bind one, note it, stop it.
    let port = try await withTestServer { port, _ in port }
    try await withTestClient(port: port) { client, _ in
      let start = ContinuousClock.now
      let error = await #expect(throws: RPCError.self) {
        _ = try await Binario_Echo_V1_Echo.Client(wrapping: client).get(.init())
      }
      #expect(error?.code == .unavailable)
      #expect(ContinuousClock.now - start < .seconds(1))
    }
  }

  @Test func waitingForTheAddressOfATransportThatWillNeverListenEnds() async throws {
    let shutDown = BinarioServerTransport(host: "127.0.0.1", port: 0, tls: TestPKI.serverTLS)
    let waiting = Task { try await shutDown.listeningAddress() }
    shutDown.beginGracefulShutdown()
    let error = await #expect(throws: RPCError.self) { _ = try await waiting.value }
    #expect(error?.code == .unavailable)

    let neverStarted = BinarioServerTransport(host: "127.0.0.1", port: 0, tls: TestPKI.serverTLS)
    let cancelled = Task { try await neverStarted.listeningAddress() }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { _ = try await cancelled.value }
  }

  @Test func listeningOnAPortInUseIsAnErrorNotACrash() async throws {
    try await withTestServer { port, _ in
      let second = BinarioServerTransport(host: "127.0.0.1", port: port, tls: TestPKI.serverTLS)
      await #expect(throws: (any Error).self) {
        try await GRPCServer(transport: second, services: [EchoService()]).serve()
      }
      await #expect(throws: (any Error).self) { _ = try await second.listeningAddress() }
    }
  }

  @Test(.timeLimit(.minutes(1))) func aClientWhoseBodyThrowsStopsInsteadOfWaitingForever() async throws {
    struct GivingUp: Error {}
    try await withTestServer { port, _ in
      await #expect(throws: GivingUp.self) {
        try await withTestClient(port: port) { client, _ in
          _ = try await Binario_Echo_V1_Echo.Client(wrapping: client).get(.with { $0.text = "hello" })
          throw GivingUp()
        }
      }
    }
  }
}

/// A service's clients to its peers connect as they start and reconnect when a connection
/// ends, with no call asking (``BinarioConnectionPool/keepConnected()``).
@Suite("Clients that keep connected")
struct KeepConnectedTests {
  @Test(.timeLimit(.minutes(1))) func connectsBeforeAnyCallAndReconnectsWhenTheServerComesBack() async throws {
    // Below the ephemeral range, so that the port is still free for the second server.
    let first = BinarioServerTransport(host: "127.0.0.1", port: try ServiceProcess.unusedPort(), tls: TestPKI.serverTLS)
    let firstServer = GRPCServer(transport: first, services: [EchoService()])
    let serving = Task { try await firstServer.serve() }
    let port = try await first.listeningAddress().port!

    let transport = try BinarioClientTransport(
      host: "127.0.0.1",
      port: port,
      tls: TestPKI.clientTLS(),
      connectsEagerly: true
    )
    try await withGRPCClient(transport: transport) { client in
      // No call made: the pool connected as the client started.
      await transport.pool.untilConnectionsMade(1)
      #expect(transport.pool.readyConnection() != nil)

      // The server goes away and a new one listens on the same port: the pool connects to it
      // on its own (a second connection), and the next call finds it ready.
      firstServer.beginGracefulShutdown()
      try await serving.value
      try await withTestServer(services: [EchoService()], port: port) { _, _ in
        await transport.pool.untilConnectionsMade(2)
        let reply = try await Binario_Echo_V1_Echo.Client(wrapping: client).get(.with { $0.text = "still here" })
        #expect(reply.text == "still here")
      }
    }
  }
}
