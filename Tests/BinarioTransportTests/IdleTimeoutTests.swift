import NIOCore
import NIOEmbedded
import Testing

@testable import BinarioTransport

/// The idle timeout counts from the end of a connection's last call, on the loop's clock.
@Suite("Idle timeout: from the last call's end")
struct IdleTimeoutTests {
  private static func connection() throws -> EmbeddedServerConnection {
    var configuration = BinarioConnectionConfiguration.defaults
    configuration.idleTimeout = .milliseconds(100)
    return try EmbeddedServerConnection(configuration: configuration)
  }

  private static func unaryCall(_ id: UInt64, on connection: EmbeddedServerConnection) throws {
    var open = WireFrame()
    open.callID = id
    open.kind = .open(
      .with {
        $0.method = "/test.v1.Test/Call"
        $0.halfClose = true
      }
    )
    try connection.channel.writeInbound(open)
    connection.acceptor.calls.last!.end(WireEnd(code: WireStatusCode.ok))
    connection.loop.run()
  }

  private static func wentAway(_ connection: EmbeddedServerConnection) throws -> Bool {
    try connection.writtenFrames().contains { if case .goAway = $0.kind { return true } else { return false } }
  }

  @Test func aConnectionWithoutCallsGoesAwayAfterTheTimeout() throws {
    let connection = try Self.connection()
    connection.loop.advanceTime(by: .milliseconds(99))
    #expect(try !Self.wentAway(connection))
    connection.loop.advanceTime(by: .milliseconds(1))
    #expect(try Self.wentAway(connection))
  }

  @Test func eachCallRestartsTheIdleTime() throws {
    let connection = try Self.connection()
    connection.loop.advanceTime(by: .milliseconds(60))
    try Self.unaryCall(1, on: connection)
    connection.loop.advanceTime(by: .milliseconds(60))
    try Self.unaryCall(3, on: connection)
    // 120 ms since the connection became idle first, 60 since its last call ended.
    connection.loop.advanceTime(by: .milliseconds(60))
    #expect(try !Self.wentAway(connection))
    connection.loop.advanceTime(by: .milliseconds(40))
    #expect(try Self.wentAway(connection))
  }

  @Test func aCallStillOpenAtTheTimeoutKeepsTheConnection() throws {
    let connection = try Self.connection()
    var open = WireFrame()
    open.callID = 1
    open.kind = .open(.with { $0.method = "/test.v1.Test/Call" })
    try connection.channel.writeInbound(open)
    connection.loop.advanceTime(by: .milliseconds(500))
    #expect(try !Self.wentAway(connection))
    connection.acceptor.calls[0].end(WireEnd(code: WireStatusCode.ok))
    connection.loop.run()
    connection.loop.advanceTime(by: .milliseconds(99))
    #expect(try !Self.wentAway(connection))
    connection.loop.advanceTime(by: .milliseconds(1))
    #expect(try Self.wentAway(connection))
  }
}
