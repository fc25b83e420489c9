import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GatewayService
import SwiftProtobuf
import Synchronization
import Testing

@testable import GatewayService

/// A restart of an upstream is invisible to the gateway's clients: a call to an upstream that is
/// down is held until it is back, and a call the upstream ends `UNAVAILABLE` before answering is
/// sent again when that is safe (refused; a read; a write with its idempotency key), within the
/// hold's bounds.
@Suite("Calls held while an upstream restarts", .timeLimit(.minutes(1)))
struct HoldingTests {
  static let read = "/binario.identity.v1.Identity/GetMe"
  /// A write without an idempotency key: never sent twice once it may have run.
  static let unkeyedWrite = "/binario.identity.v1.Identity/Login"
  static let keyedWrite = "/binario.ticketing.v1.Tickets/PurchaseTickets"

  static func purchase(key: String) throws -> Data {
    try Binario_Ticketing_V1_PurchaseTicketsRequest.with { $0.idempotencyKey = key }.serializedData()
  }

  @Test func aCallToAnUpstreamThatIsDownWaitsForItToComeBack() async throws {
    let port = try await unusedPort()
    let upstream = ScriptedUpstream { _, _ in .echo }
    try await withGateway(upstreams: ["identity": port], upstreamHold: .defaults) { gateway in
      let held = try #require(gateway.gateway.upstreams["identity"]).heldCalls
      // Nothing reached the upstream: even a write that is not safe to repeat is held.
      async let read = rawCall(gateway, method: Self.read, request: Data("read".utf8))
      async let write = rawCall(gateway, method: Self.unkeyedWrite, request: Data("write".utf8))
      _ = try await eventually("both calls held", timeout: .seconds(20)) { held.count == 2 ? true : nil }

      let listener = try await upstream.listen(port: port)
      let (readEnd, readAnswer) = try await read
      let (writeEnd, writeAnswer) = try await write
      #expect(readEnd.statusCode == WireStatusCode.ok, "\(readEnd)")
      #expect(readAnswer == Data("read".utf8))
      #expect(writeEnd.statusCode == WireStatusCode.ok, "\(writeEnd)")
      #expect(writeAnswer == Data("write".utf8))
      #expect(upstream.calls(of: Self.unkeyedWrite) == 1)
      #expect(held.count == 0)
      listener.close()
      await listener.waitUntilClosed()
    }
  }

  @Test func aCallTheUpstreamRefusedIsSentAgainWhateverItDoes() async throws {
    // The upstream was going away: it ran none of the call, so even an unkeyed write goes again.
    let upstream = ScriptedUpstream { _, attempt in attempt == 0 ? .end(.refused("server is shutting down; retry")) : .echo }
    let listener = try await upstream.listen()
    defer { listener.close() }
    try await withGateway(upstreams: ["identity": listener.localAddress!.port!], upstreamHold: .defaults) { gateway in
      let (end, answer) = try await rawCall(gateway, method: Self.unkeyedWrite, request: Data("sign me in".utf8))
      #expect(end.statusCode == WireStatusCode.ok, "\(end)")
      #expect(answer == Data("sign me in".utf8))
      #expect(upstream.calls(of: Self.unkeyedWrite) == 2)
    }
  }

  @Test func aCallEndedUnavailablePartWayIsSentAgainOnlyWhenSafe() async throws {
    // Not refused: the upstream may have run the call before it failed.
    let upstream = ScriptedUpstream { _, attempt in
      attempt == 0 ? .end(WireEnd(code: WireStatusCode.unavailable, message: "the payments service is unavailable")) : .echo
    }
    let listener = try await upstream.listen()
    defer { listener.close() }
    let port = listener.localAddress!.port!
    try await withGateway(upstreams: ["identity": port, "ticketing": port], upstreamHold: .defaults) { gateway in
      let read = try await rawCall(gateway, method: Self.read, request: Data())
      #expect(read.end.statusCode == WireStatusCode.ok, "\(read.end)")
      #expect(upstream.calls(of: Self.read) == 2)

      let keyed = try await rawCall(gateway, method: Self.keyedWrite, request: try Self.purchase(key: "purchase-1"))
      #expect(keyed.end.statusCode == WireStatusCode.ok, "\(keyed.end)")
      #expect(upstream.calls(of: Self.keyedWrite) == 2)

      let unkeyed = try await rawCall(gateway, method: Self.unkeyedWrite, request: Data("once".utf8))
      #expect(unkeyed.end.statusCode == WireStatusCode.unavailable)
      #expect(unkeyed.end.statusMessage == "the payments service is unavailable")
      #expect(upstream.calls(of: Self.unkeyedWrite) == 1)
    }
  }

  @Test func aKeyedWriteWithoutItsKeyIsNotSentAgain() async throws {
    let upstream = ScriptedUpstream { _, attempt in
      attempt == 0 ? .end(WireEnd(code: WireStatusCode.unavailable, message: "went away during the call")) : .echo
    }
    let listener = try await upstream.listen()
    defer { listener.close() }
    try await withGateway(upstreams: ["ticketing": listener.localAddress!.port!], upstreamHold: .defaults) { gateway in
      let call = try await rawCall(gateway, method: Self.keyedWrite, request: try Self.purchase(key: ""))
      #expect(call.end.statusCode == WireStatusCode.unavailable)
      #expect(upstream.calls(of: Self.keyedWrite) == 1)
    }
  }

  @Test func theHoldIsBoundedInCallsAndTime() async throws {
    let port = try await unusedPort()
    let hold = UpstreamHold(maximumWait: .seconds(4), maximumCalls: 1)
    try await withGateway(upstreams: ["identity": port], upstreamHold: hold) { gateway in
      let held = try #require(gateway.gateway.upstreams["identity"]).heldCalls
      // The held call gives up once it has waited the hold's time, well within its deadline,
      // saying why.
      async let first = rawCall(gateway, method: Self.read, request: Data(), timeout: .seconds(60))
      _ = try await eventually("the first call held", timeout: .seconds(20)) { held.count == 1 ? true : nil }
      // Its one place is taken: the next call fails at once, as without holding.
      let second = try await rawCall(gateway, method: Self.read, request: Data())
      #expect(second.end.statusCode == WireStatusCode.unavailable)
      #expect(second.end.statusMessage == "the identity service is unavailable; try again shortly")

      let (end, _) = try await first
      #expect(end.statusCode == WireStatusCode.unavailable, "\(end)")
      #expect(end.statusMessage == "the identity service is unavailable; try again shortly")
      #expect(held.count == 0)
    }
  }
}

/// A stream that resumes after a cursor, interrupted by its upstream's restart: the gateway
/// opens it again after the last cursor the client was sent, and the client sees one stream.
@Suite("A resumable stream through an upstream's restart")
struct ResumedStreamTests {
  static let watch = "/binario.scheduling.v1.Notifications/WatchNotifications"

  static func answer(_ cursor: String) throws -> Data {
    try Binario_Scheduling_V1_WatchNotificationsResponse.with {
      $0.cursor = cursor
      $0.notification = .with { $0.notificationID = "n-\(cursor)" }
    }.serializedData()
  }

  @Test func theStreamGoesOnAfterItsLastCursor() async throws {
    let upstream = ScriptedUpstream { _, attempt in
      do {
        if attempt == 0 {
          return .answers(
            [try Self.answer("c1"), try Self.answer("c2")],
            end: WireEnd(code: WireStatusCode.unavailable, message: "the scheduling service is restarting")
          )
        }
        return .answers([try Self.answer("c3")], end: WireEnd(code: WireStatusCode.ok))
      } catch {
        return .end(WireEnd(code: WireStatusCode.internalError, message: "\(error)"))
      }
    }
    let listener = try await upstream.listen()
    defer { listener.close() }
    try await withGateway(upstreams: ["scheduling": listener.localAddress!.port!], upstreamHold: .defaults) { gateway in
      let connection = try await BinarioClientConnection.connect(
        host: "127.0.0.1",
        port: gateway.port,
        serverHostname: nil,
        tls: GatewayTestPKI.clientTLS.makeClientContext(verifyHostname: false)
      )
      defer { connection.close() }
      let seen = Mutex<(headers: Int, cursors: [String])>((0, []))
      let request = try Binario_Scheduling_V1_WatchNotificationsRequest.with { $0.cursor = "c0" }.serializedData()
      let end = await withCheckedContinuation { (continuation: CheckedContinuation<WireEnd, Never>) in
        _ = connection.openCall(BinarioCallRequest(method: Self.watch, firstMessage: request, halfClose: true)) { event in
          switch event {
          case .headers: seen.withLock { $0.headers += 1 }
          case .message(let data):
            let cursor = (try? Binario_Scheduling_V1_WatchNotificationsResponse(serializedBytes: data))?.cursor ?? "?"
            seen.withLock { $0.cursors.append(cursor) }
          case .end(let end): continuation.resume(returning: end)
          }
        }
      }
      #expect(end.statusCode == WireStatusCode.ok, "\(end)")
      let (headers, cursors) = seen.withLock { $0 }
      #expect(cursors == ["c1", "c2", "c3"] && headers == 1)
      // The second opening asked for what came after c2.
      let asked = try upstream.requests(of: Self.watch).map { try Binario_Scheduling_V1_WatchNotificationsRequest(serializedBytes: $0).cursor }
      #expect(asked == ["c0", "c2"])
    }
  }
}
