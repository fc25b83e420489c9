import GRPCCore

/// What the Binario transport tells a handler about the call's connection, found in
/// `ServerContext.transportSpecific`.
public struct BinarioServerContext: ServerContext.TransportSpecific {
  /// The caller's proven identity: the URI SAN of its client certificate (e.g.
  /// `spiffe://binario/gateway`). `nil` on a listener that doesn't ask for client certificates.
  public var peerIdentity: BinarioPeerIdentity?
  /// The caller's timeout (`timeout_ms`), `nil` for none. The transport enforces it: when it
  /// passes, the call is cancelled. It is not in the request's metadata as `grpc-timeout`, because
  /// there GRPCCore's executor would start a task group and a timer task for every call to enforce
  /// it a second time.
  public var timeout: Duration?

  public init(peerIdentity: BinarioPeerIdentity?, timeout: Duration? = nil) {
    self.peerIdentity = peerIdentity
    self.timeout = timeout
  }
}

extension ServerContext {
  /// The caller's proven identity on the Binario transport, if it has one.
  public var binarioPeerIdentity: BinarioPeerIdentity? {
    (self.transportSpecific as? BinarioServerContext)?.peerIdentity
  }

  /// The caller's timeout on the Binario transport, if it set one (see
  /// ``BinarioServerContext/timeout``).
  public var binarioTimeout: Duration? {
    (self.transportSpecific as? BinarioServerContext)?.timeout
  }
}
