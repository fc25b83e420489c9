import BinarioTransport

/// What one client may hold at the gateway, on each front door: so that a client that opens
/// many connections, dribbles its bytes, or opens many calls at once cannot starve the others.
public struct FrontDoorLimits: Sendable, Hashable {
  /// Connections kept open from one IP address, and in all, per front door; a connection beyond
  /// them is closed as soon as it is accepted.
  public var connections: ConnectionLimiter.Limits
  /// How long a client may take to finish its TLS handshake, and to send a whole frame (Binario
  /// door) or a whole request (HTTP/JSON door, where it is also how long a connection may sit
  /// idle between requests). Past it, the connection is closed.
  public var slowClientTimeout: Duration
  /// Calls one connection may have open at once on the Binario door (more are answered
  /// `RESOURCE_EXHAUSTED`) and streams on the gRPC door (HTTP/2's `MAX_CONCURRENT_STREAMS`).
  public var callsPerConnection: Int
  /// How long a Binario or gRPC door connection may stay open with no call.
  public var idleTimeout: Duration

  public init(connections: ConnectionLimiter.Limits, slowClientTimeout: Duration, callsPerConnection: Int, idleTimeout: Duration = .seconds(300)) {
    self.connections = connections
    self.slowClientTimeout = slowClientTimeout
    self.callsPerConnection = callsPerConnection
    self.idleTimeout = idleTimeout
  }

  public static let defaults = FrontDoorLimits(connections: .defaults, slowClientTimeout: .seconds(30), callsPerConnection: 100)

  /// The Binario door's connections: `base` (frame size, keepalive) under these limits.
  public func binarioConnection(_ base: BinarioConnectionConfiguration) -> BinarioConnectionConfiguration {
    var connection = base
    connection.idleTimeout = self.idleTimeout
    connection.slowPeerTimeout = self.slowClientTimeout
    connection.maximumConcurrentCalls = self.callsPerConnection
    return connection
  }
}
