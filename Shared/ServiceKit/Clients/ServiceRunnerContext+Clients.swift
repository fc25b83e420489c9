import BinarioTransport
import GRPCCore
import NIOCore

extension ServiceRunnerContext {
  /// How long a call to a peer service waits for it while it is away (restarting, replaced)
  /// before it fails with `UNAVAILABLE`: long enough for a restart in place (a fraction of a
  /// second), short enough that the service's own caller, whose deadline the peer call does not
  /// know, hears `UNAVAILABLE` rather than `DEADLINE_EXCEEDED` (`PartitionTests` calls with a
  /// 4 s deadline). Longer absences are the gateway's to hold (safe calls are sent again).
  public static let peerReadyWait = Duration.seconds(2)

  /// A gRPC client to another service of the suite over the Binario transport, presenting this
  /// process's own certificate (``ServiceConfiguration/tlsCertificate`` and key, verifying the
  /// peer against ``ServiceConfiguration/tlsTrustedCA``). Its connections run as a lifecycle
  /// service beside the server (``GRPCClientService``): it works from the first call the server
  /// takes until after the server has drained. Each call is a client span of the current trace
  /// (``TracingClientInterceptor``). When `name` cannot be reached, or goes away during a call,
  /// the caller's `UNAVAILABLE` names it, and its address and the reason go to the log. It
  /// connects as the service starts and stays connected, so no caller pays for a first
  /// connection. A call finding `name` away waits up to ``peerReadyWait`` for it (a restart
  /// takes well under a second), trying again at least every second.
  ///
  /// - Parameter name: Names the lifecycle service (`identity-client`).
  /// - Throws: ``ConfigurationError`` when the certificate, key or CA is not configured.
  public func serviceClient(at address: ServiceAddress, name: String) throws -> GRPCClient<BinarioClientTransport> {
    let purpose = "calling \(name) over mutual TLS"
    guard let certificate = configuration.tlsCertificate else {
      throw ConfigurationError.missing(.tlsCertificate, needed: purpose)
    }
    guard let privateKey = configuration.tlsPrivateKey else {
      throw ConfigurationError.missing(.tlsPrivateKey, needed: purpose)
    }
    guard let trustedCA = configuration.tlsTrustedCA else {
      throw ConfigurationError.missing(.tlsTrustedCA, needed: purpose)
    }
    let transport = try BinarioClientTransport(
      host: address.host,
      port: address.port,
      serverHostname: (try? SocketAddress(ipAddress: address.host, port: 0)) == nil ? address.host : nil,
      tls: .mutual(certificateChain: .file(certificate), privateKey: .file(privateKey), trustRoots: .file(trustedCA)),
      connection: configuration.connection,
      pool: BinarioConnectionPool.Configuration(maximumBackoff: .seconds(1)),
      logger: logger,
      peerName: name,
      connectsEagerly: true,
      readyWait: Self.peerReadyWait
    )
    let client = GRPCClient(
      transport: transport,
      interceptors: [TracingClientInterceptor(serverAddress: address.host, serverPort: address.port)]
    )
    addService(GRPCClientService(client: client), name: "\(name)-client")
    return client
  }
}
