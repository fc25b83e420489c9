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
      for sent in 0 ..< total {
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

/// Counts a call's messages while its reads start paused; answers the count (as the status
/// message) once the caller half-closes.
private final class PausedCountingAcceptor: BinarioCallAcceptor {
  private let call = Mutex<BinarioServerCall?>(nil)
  private let opened: AsyncStream<Void>
  private let openedContinuation: AsyncStream<Void>.Continuation

  init() {
    (self.opened, self.openedContinuation) = AsyncStream.makeStream(of: Void.self)
  }

  func acceptCall(_ call: BinarioServerCall) {
    call.setReadPaused(true)
    self.call.withLock { $0 = call }
    self.openedContinuation.yield()
    let count = Atomic<Int>(0)
    call.onEvent { event in
      switch event {
      case .message: count.add(1, ordering: .relaxed)
      case .halfClose: call.end(WireEnd(code: WireStatusCode.ok, message: "\(count.load(ordering: .relaxed))"))
      case .cancelled: ()
      }
    }
  }

  /// Lets the server read the call on.
  func resume() async {
    await self.opened.first()
    guard let call = self.call.withLock({ $0 }) else { return }
    try? await call.eventLoop.submit { call.setReadPaused(false) }.get()
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

  @Test func aCallerThatStopsReadingStopsTheServersWriterAndThenGetsEverything() async throws {
    let total = 1_000
    let messageSize = 64 * 1024  // 62.5 MiB in all: far more than any socket buffer.
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

    // The writer finds the call unwritable long before it has sent everything.
    let sentWhenBlocked = await blocked.first() ?? total
    #expect(sentWhenBlocked < 400, "sent \(sentWhenBlocked) messages of 64 KiB before the connection filled up")
    #expect(received.load(ordering: .relaxed) < sentWhenBlocked)

    // Reading again drains everything, in full, and the call ends normally.
    try await call.eventLoop.submit { call.setReadPaused(false) }.get()
    #expect(await ended.first() == WireStatusCode.ok)
    #expect(received.load(ordering: .relaxed) == total)
  }

  @Test func aServerThatStopsReadingStopsTheCallersWriterAndThenGetsEverything() async throws {
    let total = 1_000
    let messageSize = 64 * 1024
    let acceptor = PausedCountingAcceptor()
    let (listener, port) = try await self.bind(acceptor: acceptor)
    defer { listener.close() }
    let connection = try await self.connect(port: port)
    defer { connection.closeNow() }

    let (ended, endedContinuation) = AsyncStream.makeStream(of: WireEnd.self)
    let call = connection.openCall(BinarioCallRequest(method: "/count")) { event in
      if case .end(let end) = event { endedContinuation.yield(end) }
    }
    let payload = Data(count: messageSize)
    var sentWhenBlocked: Int?
    for sent in 0 ..< total {
      if sentWhenBlocked == nil, !call.isWritable {
        sentWhenBlocked = sent
        // The server has read only part of what was sent; now let it read on.
        await acceptor.resume()
      }
      await call.waitUntilWritable()
      call.send(payload)
    }
    call.halfClose()
    let blockedAt = try #require(sentWhenBlocked, "the caller never had to wait for a server that was not reading")
    #expect(blockedAt < 400, "sent \(blockedAt) messages of 64 KiB before the connection filled up")
    let end = await ended.first()
    #expect(end?.statusCode == WireStatusCode.ok)
    #expect(end?.statusMessage == "\(total)")
  }

  @Test func aPeerThatNeverAnswersPingsIsDisconnected() async throws {
    var configuration = BinarioConnectionConfiguration.defaults
    configuration.keepaliveInterval = .milliseconds(50)
    configuration.keepaliveTimeout = .milliseconds(50)
    let (listener, port) = try await self.bind(
      configuration: configuration,
      acceptor: FloodingAcceptor(total: 0, messageSize: 0, blockedAfter: AsyncStream.makeStream(of: Int.self).continuation)
    )
    defer { listener.close() }
    // A raw TLS peer: it completes the handshake, then stays silent.
    let silent = try await RawConnection.connect(port: port, tls: TestPKI.clientTLS())
    await silent.waitUntilClosed()
  }

  @Test func aConnectionWithNoCallsIsClosedAfterTheIdleTimeout() async throws {
    var configuration = BinarioConnectionConfiguration.defaults
    configuration.idleTimeout = .milliseconds(100)
    let (listener, port) = try await self.bind(
      configuration: configuration,
      acceptor: FloodingAcceptor(total: 0, messageSize: 0, blockedAfter: AsyncStream.makeStream(of: Int.self).continuation)
    )
    defer { listener.close() }
    let connection = try await self.connect(port: port)
    // The client answers pings (it is a real Binario peer): only idleness closes it.
    try await connection.channel.closeFuture.get()
    #expect(!connection.isUsable)
  }
}
