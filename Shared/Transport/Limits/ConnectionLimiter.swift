import NIOConcurrencyHelpers
import NIOCore

/// How many connections a listener keeps open: at most `perClient` from one IP address, and at
/// most `total` in all. Past either, a new connection is closed as soon as it is accepted, before
/// its TLS handshake costs anything, so one client cannot take the sockets every other client
/// needs. Shared by every front door (add ``handler()`` to the listening channel).
public final class ConnectionLimiter: Sendable {
  public struct Limits: Sendable, Hashable {
    public var perClient: Int
    public var total: Int

    public init(perClient: Int, total: Int) {
      self.perClient = perClient
      self.total = total
    }

    /// 256 from one address, 16,384 in all.
    public static let defaults = Limits(perClient: 256, total: 16_384)
  }

  public let limits: Limits
  private let state = NIOLockedValueBox(State())

  private struct State {
    var byClient: [String: Int] = [:]
    var total = 0
    var refused = 0
  }

  public init(limits: Limits = .defaults) {
    self.limits = limits
  }

  /// Connections open now, and connections refused so far.
  public var counts: (open: Int, refused: Int) {
    self.state.withLockedValue { ($0.total, $0.refused) }
  }

  /// Takes a place for a connection from `client`; `false` when the limits are reached.
  public func admit(client: String) -> Bool {
    self.state.withLockedValue { state in
      let fromClient = state.byClient[client, default: 0]
      guard fromClient < self.limits.perClient, state.total < self.limits.total else {
        state.refused += 1
        return false
      }
      state.byClient[client] = fromClient + 1
      state.total += 1
      return true
    }
  }

  /// Gives back the place `admit(client:)` took.
  public func release(client: String) {
    self.state.withLockedValue { state in
      let remaining = state.byClient[client, default: 1] - 1
      state.byClient[client] = remaining > 0 ? remaining : nil
      state.total -= 1
    }
  }

  /// A handler for the listening channel's pipeline, before its acceptor (first): it closes each
  /// accepted connection the limits refuse, and releases each admitted one's place when it closes.
  public func handler() -> any ChannelInboundHandler & Sendable {
    AcceptedConnectionHandler(limiter: self)
  }

  /// The address a limit counts by: the IP address without the port.
  static func client(of channel: any Channel) -> String {
    channel.remoteAddress?.ipAddress ?? "unknown"
  }
}

private final class AcceptedConnectionHandler: ChannelInboundHandler, Sendable {
  typealias InboundIn = any Channel
  typealias InboundOut = any Channel

  let limiter: ConnectionLimiter

  init(limiter: ConnectionLimiter) {
    self.limiter = limiter
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let connection = self.unwrapInboundIn(data)
    let client = ConnectionLimiter.client(of: connection)
    guard self.limiter.admit(client: client) else {
      connection.close(promise: nil)
      return
    }
    let limiter = self.limiter
    connection.closeFuture.whenComplete { _ in limiter.release(client: client) }
    context.fireChannelRead(data)
  }
}
