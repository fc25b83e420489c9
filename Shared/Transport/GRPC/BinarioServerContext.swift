import GRPCCore

/// What the Binario transport tells a handler about the call's connection, found in
/// `ServerContext.transportSpecific`.
public struct BinarioServerContext: ServerContext.TransportSpecific {
  /// The caller's proven identity: the URI SAN of its client certificate (e.g.
  /// `spiffe://binario/gateway`). `nil` on a listener that doesn't ask for client certificates.
  public var peerIdentity: BinarioPeerIdentity?

  public init(peerIdentity: BinarioPeerIdentity?) {
    self.peerIdentity = peerIdentity
  }
}

extension ServerContext {
  /// The caller's proven identity on the Binario transport, if it has one.
  public var binarioPeerIdentity: BinarioPeerIdentity? {
    (self.transportSpecific as? BinarioServerContext)?.peerIdentity
  }
}
