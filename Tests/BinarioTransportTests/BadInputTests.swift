import BinarioEcho
import BinarioTransport
import Foundation
import GRPCCore
import GRPCProtobuf
import NIOCore
import Testing

@Suite("Bad input closes one connection, never the server")
struct BadInputTests {
  /// Checks the server still answers a well-behaved client.
  private func expectServerStillServes(port: Int) async throws {
    try await withTestClient(port: port) { client, _ in
      let reply = try await Binario_Echo_V1_Echo.Client(wrapping: client).get(.with { $0.text = "still here" })
      #expect(reply.text == "still here")
    }
  }

  private static func prefix(_ length: UInt32) -> [UInt8] {
    withUnsafeBytes(of: length.bigEndian) { Array($0) }
  }

  enum BrokenInput: String, CaseIterable, Sendable {
    case oversizedFrame, undecodableFrame, randomBytes, openWithCallIDZero

    var bytes: [UInt8] {
      switch self {
      case .oversizedFrame: return BadInputTests.prefix(5 * 1024 * 1024) + [UInt8](repeating: 0, count: 1024)
      case .undecodableFrame: return BadInputTests.prefix(6) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
      case .randomBytes: return (0 ..< 4096).map { _ in UInt8.random(in: 0 ... 255) }
      // Frame{ open { method: "/x" } } with no call_id.
      case .openWithCallIDZero: return BadInputTests.prefix(6) + [0x12, 0x04, 0x0A, 0x02, 0x2F, 0x78]
      }
    }
  }

  @Test(arguments: BrokenInput.allCases)
  func aBrokenFrameOverTLSClosesThatConnection(_ input: BrokenInput) async throws {
    try await withTestServer { port, _ in
      let connection = try await RawConnection.connect(port: port, tls: TestPKI.clientTLS())
      try await connection.write(input.bytes)
      await connection.waitUntilClosed()
      try await self.expectServerStillServes(port: port)
    }
  }

  @Test func aTruncatedFrameNeverReachesAHandlerAndTheServerCarriesOn() async throws {
    try await withTestServer { port, _ in
      let connection = try await RawConnection.connect(port: port, tls: TestPKI.clientTLS())
      try await connection.write(Self.prefix(100) + [0x08, 0x01])
      await connection.close()
      try await self.expectServerStillServes(port: port)
    }
  }

  @Test func plaintextOnTheTLSPortIsRefused() async throws {
    try await withTestServer { port, _ in
      let connection = try await RawConnection.connect(port: port, tls: nil)
      try await connection.write(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
      await connection.waitUntilClosed()
      try await self.expectServerStillServes(port: port)
    }
  }

  @Test func unknownMethodGetsUnimplemented() async throws {
    try await withTestServer { port, _ in
      let end = try await FrameCall.unary(port: port, method: "/binario.echo.v1.Echo/Nope", payload: Data())
      #expect(end.statusCode == WireStatusCode.unimplemented)
    }
  }

  @Test func undecodablePayloadGetsInvalidArgument() async throws {
    try await withTestServer { port, _ in
      let end = try await FrameCall.unary(port: port, method: "/binario.echo.v1.Echo/Get", payload: Data([0xFF, 0xFF, 0xFF]))
      #expect(end.statusCode == WireStatusCode.invalidArgument)
    }
  }
}

/// Makes one unary call with the frame layer alone and returns its `End`.
enum FrameCall {
  static func unary(port: Int, method: String, payload: Data) async throws -> WireEnd {
    let connection = try await BinarioClientConnection.connect(
      host: "127.0.0.1",
      port: port,
      serverHostname: nil,
      tls: TestPKI.clientTLS().makeClientContext(verifyHostname: false)
    )
    defer { connection.closeNow() }
    let (events, continuation) = AsyncStream.makeStream(of: ClientCallEvent.self)
    _ = connection.openCall(BinarioCallRequest(method: method, firstMessage: payload, halfClose: true)) { event in
      continuation.yield(event)
    }
    for await event in events {
      if case .end(let end) = event { return end }
    }
    throw RPCError(code: .internalError, message: "no End")
  }
}
