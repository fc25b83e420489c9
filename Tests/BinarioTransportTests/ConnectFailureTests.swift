import BinarioTransport
import NIOCore
import NIOPosix
import Testing

@Suite("Connecting where nobody listens")
struct ConnectFailureTests {
  /// A peer not started yet (in compose, ticketing starts before geo-offers, which it calls): the
  /// attempt fails with the socket's error and leaves no promise unanswered (NIO stops a debug
  /// build's process on one; ticketing's container did until this was fixed).
  @Test func theConnectionFailsAndItsReadinessIsAnswered() async throws {
    let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
    let port = try #require(listener.localAddress?.port)
    try await listener.close()
    for _ in 0 ..< 3 {
      await #expect(throws: (any Error).self) {
        _ = try await BinarioClientConnection.connect(
          host: "127.0.0.1",
          port: port,
          serverHostname: nil,
          tls: TestPKI.clientTLS().makeClientContext(verifyHostname: false)
        )
      }
    }
  }
}
