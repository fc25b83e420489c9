import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOTLS
import Testing

@testable import BinarioTransport

/// A call's event handler usually captures the call (to answer it); once the call is over the
/// two must not keep each other alive, or every call a long-lived connection carries leaks.
@Suite("Call lifetime: an ended call is freed")
struct CallLifetimeTests {
  /// Sets an event handler that captures its call, as the gateway and the GRPCCore adapter do,
  /// and keeps only weak references.
  final class CapturingAcceptor: BinarioCallAcceptor {
    final class Weak: @unchecked Sendable {
      // Written once on the embedded loop's thread (the test's own), read by the test afterwards.
      weak var call: BinarioServerCall?
      init(_ call: BinarioServerCall) { self.call = call }
    }
    private let seen = NIOLockedValueBox<[Weak]>([])
    private let events = NIOLockedValueBox<[String]>([])
    var weakCalls: [Weak] { self.seen.withLockedValue { $0 } }
    var eventNames: [String] { self.events.withLockedValue { $0 } }

    func acceptCall(_ call: BinarioServerCall) {
      self.seen.withLockedValue { $0.append(Weak(call)) }
      call.onEvent { [events] event in
        events.withLockedValue { $0.append("\(call.callID): \(event)") }
        if case .halfClose = event { call.end(WireEnd(code: WireStatusCode.ok)) }
      }
    }
  }

  static func open(_ id: UInt64, halfClose: Bool) -> WireFrame {
    var frame = WireFrame()
    frame.callID = id
    frame.kind = .open(
      .with {
        $0.method = "/test.v1.Test/Call"
        $0.halfClose = halfClose
      }
    )
    return frame
  }

  @Test func callsEndedByTheServerOrCancelledByTheClientAreFreed() throws {
    let loop = EmbeddedEventLoop()
    let channel = EmbeddedChannel(loop: loop)
    let acceptor = CapturingAcceptor()
    let handler = ServerConnectionHandler(
      acceptor: acceptor,
      configuration: .defaults,
      requirePeerIdentity: false,
      logger: .init(label: "call-lifetime")
    )
    try channel.pipeline.syncOperations.addHandler(handler)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: binarioALPNIdentifier))

    try channel.writeInbound(Self.open(1, halfClose: true))  // answered and ended by the handler
    try channel.writeInbound(Self.open(3, halfClose: false))
    var cancel = WireFrame()
    cancel.callID = 3
    cancel.kind = .cancel(.init())
    try channel.writeInbound(cancel)  // abandoned by the client
    loop.run()

    #expect(acceptor.weakCalls.count == 2)
    #expect(acceptor.eventNames.contains("1: halfClose"))
    #expect(acceptor.eventNames.contains { $0.hasPrefix("3: cancelled") })
    // The connection is still open: only the calls are over.
    #expect(channel.isActive)
    for weak in acceptor.weakCalls {
      #expect(weak.call == nil, "call \(String(describing: weak.call?.callID)) outlived its end")
    }
    _ = try channel.finish(acceptAlreadyClosed: true)
  }
}
