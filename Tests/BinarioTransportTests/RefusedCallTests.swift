import BinarioTestSupport
import Foundation
import NIOCore
import Synchronization
import Testing

@testable import BinarioTransport

/// Holds every call open until the test ends it.
private final class HoldingAcceptor: BinarioCallAcceptor {
  let opened: AsyncStream<BinarioServerCall>
  private let continuation: AsyncStream<BinarioServerCall>.Continuation

  init() { (self.opened, self.continuation) = AsyncStream.makeStream() }

  func acceptCall(_ call: BinarioServerCall) {
    call.onEvent { _ in }
    self.continuation.yield(call)
  }
}

/// `End.refused`: a server going away refuses a new call with it, promising it ran none of it,
/// and the client's connection takes no further call once it has seen one.
@Suite("Calls refused by a server going away")
struct RefusedCallTests {
  private func open(_ connection: BinarioClientConnection, _ method: String) async -> WireEnd {
    await withCheckedContinuation { (continuation: CheckedContinuation<WireEnd, Never>) in
      _ = connection.openCall(BinarioCallRequest(method: method, firstMessage: Data("x".utf8), halfClose: true)) { event in
        if case .end(let end) = event { continuation.resume(returning: end) }
      }
    }
  }

  @Test func aCallOpenedWhileTheServerDrainsIsRefusedAndTheConnectionTakesNoMore() async throws {
    let acceptor = HoldingAcceptor()
    let listener = try await BinarioListener.bind(host: "127.0.0.1", port: 0, tls: TestPKI.serverTLS, acceptor: acceptor)
    let connection = try await BinarioClientConnection.connect(
      host: "127.0.0.1",
      port: listener.localAddress!.port!,
      serverHostname: nil,
      tls: TestPKI.clientTLS().makeClientContext(verifyHostname: false)
    )
    defer { connection.closeNow() }
    // One call in flight keeps the connection open through the drain.
    let inFlight = connection.openCall(BinarioCallRequest(method: "/held", halfClose: true)) { _ in }
    var opened = acceptor.opened.makeAsyncIterator()
    let held = try #require(await opened.next())

    listener.beginGracefulShutdown(gracePeriod: .seconds(10))
    let refused = await self.open(connection, "/new")
    #expect(refused.statusCode == WireStatusCode.unavailable)
    #expect(refused.refused, "\(refused)")
    #expect(!connection.isUsable)
    // Whatever the client opens now is refused at its end, as safely.
    let local = await self.open(connection, "/another")
    #expect(local.refused && local.statusCode == WireStatusCode.unavailable, "\(local)")

    // The call in flight is not refused: it finishes.
    held.end(WireEnd(code: WireStatusCode.ok))
    _ = inFlight
    await listener.waitUntilClosed()
  }
}
