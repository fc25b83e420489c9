import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// A client that misbehaves on purpose: it connects from its own loopback address (so the
/// gateway's per-client limits count it apart from the well-behaved client on 127.0.0.1, and
/// each attack apart from the one before, whose connections the gateway may still be closing),
/// optionally completes a TLS handshake offering one application protocol, writes exactly what
/// the test tells it to, keeps what the server sends, and tells when the server closed it.
final class HostileConnection: Sendable {
  let channel: any Channel
  private let receivedBytes: NIOLockedValueBox<[UInt8]>

  private init(channel: any Channel, received: NIOLockedValueBox<[UInt8]>) {
    self.channel = channel
    self.receivedBytes = received
  }

  /// Connects to `port` from `address`; with `alpn`, completes a TLS handshake trusting `caFile`
  /// first.
  static func connect(port: Int, from address: String, alpn: String? = nil, caFile: String? = nil) async throws -> HostileConnection {
    let received = NIOLockedValueBox<[UInt8]>([])
    let handshake = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
    var sslContext: NIOSSLContext?
    if let alpn, let caFile {
      var tls = TLSConfiguration.makeClientConfiguration()
      tls.trustRoots = .file(caFile)
      tls.certificateVerification = .noHostnameVerification
      tls.applicationProtocols = [alpn]
      sslContext = try NIOSSLContext(configuration: tls)
    }
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .bind(to: try SocketAddress(ipAddress: address, port: 0))
      .channelInitializer { [sslContext] channel in
        channel.eventLoop.makeCompletedFuture {
          if let sslContext {
            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: nil))
          }
          try channel.pipeline.syncOperations.addHandler(Recorder(received: received, handshake: sslContext == nil ? nil : handshake))
        }
      }
      .connect(host: "127.0.0.1", port: port)
      .get()
    if sslContext == nil { handshake.succeed() }
    channel.closeFuture.whenComplete { _ in handshake.fail(ChannelError.ioOnClosedChannel) }
    try await handshake.futureResult.get()
    return HostileConnection(channel: channel, received: received)
  }

  /// Writes `bytes`; a connection the server has closed takes nothing, silently.
  func write(_ bytes: [UInt8]) async {
    try? await self.channel.writeAndFlush(ByteBuffer(bytes: bytes))
  }

  /// Writes `bytes` one at a time, `interval` apart, until they are all sent or the server
  /// closes the connection: a slowloris.
  func dribble(_ bytes: [UInt8], every interval: Duration) async {
    for byte in bytes {
      guard self.isOpen else { return }
      await self.write([byte])
      try? await Task.sleep(for: interval)
    }
  }

  var isOpen: Bool { self.channel.isActive }

  var received: [UInt8] { self.receivedBytes.withLockedValue { $0 } }

  /// Whether the server closed the connection within `limit`.
  func closedByServer(within limit: Duration) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        try? await self.channel.closeFuture.get()
        return true
      }
      group.addTask {
        try? await Task.sleep(for: limit)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first || !self.isOpen
    }
  }

  func close() async {
    try? await self.channel.close()
  }
}

private final class Recorder: ChannelInboundHandler, Sendable {
  typealias InboundIn = ByteBuffer
  let received: NIOLockedValueBox<[UInt8]>
  let handshake: EventLoopPromise<Void>?

  init(received: NIOLockedValueBox<[UInt8]>, handshake: EventLoopPromise<Void>?) {
    self.received = received
    self.handshake = handshake
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let buffer = self.unwrapInboundIn(data)
    self.received.withLockedValue { $0.append(contentsOf: buffer.readableBytesView) }
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case TLSUserEvent.handshakeCompleted = event { self.handshake?.succeed() }
    context.fireUserInboundEventTriggered(event)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    self.handshake?.fail(error)
    context.close(promise: nil)
  }
}

/// A process's resident memory, from `/proc/PID/status`: now, and its peak since the last reset.
struct ResidentMemory {
  let processIdentifier: Int32

  private func field(_ name: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(self.processIdentifier)/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
    }
    return 0
  }

  /// In MiB.
  var current: Double { Double(self.field("VmRSS")) / 1024 }
  var peak: Double { Double(self.field("VmHWM")) / 1024 }

  /// Starts a new peak from the current size (Linux's `clear_refs` 5).
  func resetPeak() {
    try? "5".write(toFile: "/proc/\(self.processIdentifier)/clear_refs", atomically: false, encoding: .utf8)
  }
}
