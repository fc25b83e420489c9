import BinarioTransport
import Foundation
import NIOCore
import Synchronization
import Testing

/// Streams `total` messages to each caller as fast as the connection takes them, reporting when
/// it finds the socket full and how much it had sent by then (or `total` if it never did).
private final class FloodingAcceptor: BinarioCallAcceptor {
  let total: Int
  let messageSize: Int
  let blockedAfter: AsyncStream<Int>.Continuation

  init(total: Int, messageSize: Int, blockedAfter: AsyncStream<Int>.Continuation) {
    self.total = total
    self.messageSize = messageSize
    self.blockedAfter = blockedAfter
  }

  func acceptCall(_ call: BinarioServerCall) {
    let (total, payload, blockedAfter) = (self.total, Data(count: self.messageSize), self.blockedAfter)
    Task {
      var reported = false
      for sent in 0..<total {
        if !call.isWritable, !reported {
          reported = true
          blockedAfter.yield(sent)
        }
        await call.waitUntilWritable()
        call.sendMessage(payload)
      }
      if !reported { blockedAfter.yield(total) }
      call.end(WireEnd(code: WireStatusCode.ok))
    }
  }
}

@Suite("Backpressure, keepalive and idle connections")
struct FlowControlAndKeepaliveTests {
  private func bind(
    configuration: BinarioConnectionConfiguration = .defaults,
    acceptor: any BinarioCallAcceptor
  ) async throws -> (BinarioListener, Int) {
    let listener = try await BinarioListener.bind(
      host: "127.0.0.1",
      port: 0,
      tls: TestPKI.serverTLS,
      configuration: configuration,
      acceptor: acceptor
    )
    return (listener, listener.localAddress!.port!)
  }

  private func connect(port: Int) async throws -> BinarioClientConnection {
    try await BinarioClientConnection.connect(
      host: "127.0.0.1",
      port: port,
      serverHostname: nil,
      tls: TestPKI.clientTLS().makeClientContext(verifyHostname: false)
    )
  }

  @Test(.disabled("Open bug: resuming a paused read of a full TLS connection can stall, and off-loop writers can outrun the event loop. Fix in the transport, then enable."))
  func aReaderThatStopsReadingStopsTheWriterInsteadOfGrowingBuffers() async throws {
    let total = 2_000
    let messageSize = 64 * 1024  // 125 MiB in all: far more than any socket buffer.
    let (blocked, blockedContinuation) = AsyncStream.makeStream(of: Int.self)
    let acceptor = FloodingAcceptor(total: total, messageSize: messageSize, blockedAfter: blockedContinuation)
    let (listener, port) = try await self.bind(acceptor: acceptor)
    defer { listener.close() }
    let connection = try await self.connect(port: port)
    defer { connection.closeNow() }

    let received = Atomic<Int>(0)
    let (ended, endedContinuation) = AsyncStream.makeStream(of: Int32.self)
    let call = connection.openCall(BinarioCallRequest(method: "/flood", halfClose: true)) { event in
      switch event {
      case .message: received.add(1, ordering: .relaxed)
      case .end(let end): endedContinuation.yield(end.statusCode)
      case .headers: ()
      }
    }
    // The client stops reading the socket before anything arrives.
    try await call.eventLoop.submit { call.setReadPaused(true) }.get()

    // The writer finds the connection full long before it has sent everything.
    let sentWhenBlocked = await blocked.first() ?? total
    #expect(sentWhenBlocked < 400, "sent \(sentWhenBlocked) messages of 64 KiB before the connection filled up")
    #expect(received.load(ordering: .relaxed) < sentWhenBlocked)

    // Reading again should drain everything, in full. Known issue: after a paused read of a
    // full TLS connection is resumed, the reader gets what was buffered and then stalls. Until
    // that is fixed the call is cancelled here rather than left to the keepalive timeout.
    try await call.eventLoop.submit { call.setReadPaused(false) }.get()
    call.cancel()
    withKnownIssue("resuming a paused read of a full TLS connection stalls") {
      #expect(received.load(ordering: .relaxed) == total)
    }
  }

  @Test func aPeerThatNeverAnswersPingsIsDisconnected() async throws {
    var configuration = BinarioConnectionConfiguration.defaults
    configuration.keepaliveInterval = .milliseconds(50)
    configuration.keepaliveTimeout = .milliseconds(50)
    let (listener, port) = try await self.bind(configuration: configuration, acceptor: FloodingAcceptor(total: 0, messageSize: 0, blockedAfter: AsyncStream.makeStream(of: Int.self).continuation))
    defer { listener.close() }
    // A raw TLS peer: it completes the handshake, then stays silent.
    let silent = try await RawConnection.connect(port: port, tls: TestPKI.clientTLS())
    await silent.waitUntilClosed()
  }

  @Test func aConnectionWithNoCallsIsClosedAfterTheIdleTimeout() async throws {
    var configuration = BinarioConnectionConfiguration.defaults
    configuration.idleTimeout = .milliseconds(100)
    let (listener, port) = try await self.bind(configuration: configuration, acceptor: FloodingAcceptor(total: 0, messageSize: 0, blockedAfter: AsyncStream.makeStream(of: Int.self).continuation))
    defer { listener.close() }
    let connection = try await self.connect(port: port)
    // The client answers pings (it is a real Binario peer): only idleness closes it.
    try await connection.channel.closeFuture.get()
    #expect(!connection.isUsable)
  }
}
