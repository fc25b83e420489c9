// With FrameListenerService.swift, the only files of ServiceKit that know the Binario transport: the rest takes any `ServerTransport`.

import BinarioTransport
import GRPCCore
import Logging

extension ServerTransportFactory where Transport == BinarioServerTransport {
  /// The Binario transport, listening on ``ServiceConfiguration/host``:``ServiceConfiguration/port``
  /// with the configured TLS: mutual TLS when ``ServiceConfiguration/tlsClientAuthentication`` is
  /// `required` (certificate, key and trusted CA all needed), server-only TLS when `none`.
  public static var binario: Self {
    Self(
      makeTransport: { configuration, logger in
        BinarioServerTransport(
          host: configuration.host,
          port: configuration.port,
          tls: try BinarioTLSConfiguration(serverSettingsFrom: configuration),
          configuration: BinarioServerTransport.Configuration(
            connection: configuration.connection,
            gracefulShutdownGracePeriod: configuration.shutdownGracePeriodDuration
          ),
          logger: logger
        )
      },
      listeningAddress: { transport in
        let address = try await transport.listeningAddress()
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
      }
    )
  }
}

extension BinarioTLSConfiguration {
  /// The listener's TLS from the `tls*` settings.
  /// - Throws: ``ConfigurationError`` naming the first missing setting.
  public init(serverSettingsFrom configuration: ServiceConfiguration) throws {
    let purpose = "the gRPC listener's TLS"
    guard let certificate = configuration.tlsCertificate else {
      throw ConfigurationError.missing(.tlsCertificate, needed: purpose)
    }
    guard let privateKey = configuration.tlsPrivateKey else {
      throw ConfigurationError.missing(.tlsPrivateKey, needed: purpose)
    }
    switch configuration.tlsClientAuthentication {
    case .required:
      guard let trustedCA = configuration.tlsTrustedCA else {
        throw ConfigurationError.missing(.tlsTrustedCA, needed: "mutual TLS (tlsClientAuthentication=required)")
      }
      self = .mutual(
        certificateChain: .file(certificate),
        privateKey: .file(privateKey),
        trustRoots: .file(trustedCA)
      )
    case .none:
      self = .serverOnly(certificateChain: .file(certificate), privateKey: .file(privateKey))
    }
  }
}
