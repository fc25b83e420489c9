import NIOCore
import NIOSSL

/// The ALPN protocol identifier of the Binario wire protocol, version 1.
public let binarioALPNIdentifier = "binario/1"

/// Where a process's certificate, private key and trusted CA come from, and whether peers must
/// present a certificate.
///
/// Between processes every connection is mutual TLS 1.3 against the deployment's own CA
/// (``mutual(certificateChain:privateKey:trustRoots:)``). The gateway's public side uses
/// ``serverOnly(certificateChain:privateKey:)``: clients need no certificate there.
public struct BinarioTLSConfiguration: Sendable {
  /// PEM material, given inline or as a file path.
  public enum Source: Sendable, Hashable {
    case file(String)
    case pem(String)
  }

  /// This side's certificate and key. Only a client of a server-only listener (the gateway's
  /// public side) goes without: see ``client(trustRoots:)``.
  public var certificateChain: Source?
  public var privateKey: Source?
  /// The CA that peers' certificates must chain to. `nil` on a server means no client
  /// certificate is asked for; on a client, the system's default trust store is used.
  public var trustRoots: Source?
  /// Whether the server requires (and verifies) a client certificate.
  public var requireClientCertificate: Bool
  /// TLS 1.3 between services; the gateway's public side may allow 1.2.
  public var minimumTLSVersion: TLSVersion

  public init(
    certificateChain: Source?,
    privateKey: Source?,
    trustRoots: Source?,
    requireClientCertificate: Bool,
    minimumTLSVersion: TLSVersion = .tlsv13
  ) {
    self.certificateChain = certificateChain
    self.privateKey = privateKey
    self.trustRoots = trustRoots
    self.requireClientCertificate = requireClientCertificate
    self.minimumTLSVersion = minimumTLSVersion
  }

  /// Mutual TLS 1.3: this side presents `certificateChain` and requires the peer's certificate to
  /// chain to `trustRoots`.
  public static func mutual(certificateChain: Source, privateKey: Source, trustRoots: Source) -> Self {
    Self(
      certificateChain: certificateChain,
      privateKey: privateKey,
      trustRoots: trustRoots,
      requireClientCertificate: true
    )
  }

  /// Server-side TLS without client certificates (TLS 1.2 or later), for public listeners.
  public static func serverOnly(certificateChain: Source, privateKey: Source) -> Self {
    Self(
      certificateChain: certificateChain,
      privateKey: privateKey,
      trustRoots: nil,
      requireClientCertificate: false,
      minimumTLSVersion: .tlsv12
    )
  }

  /// A client that presents no certificate and trusts `trustRoots` (TLS 1.2 or later): what
  /// apps and the command-line client use to reach the gateway's public side.
  public static func client(trustRoots: Source) -> Self {
    Self(
      certificateChain: nil,
      privateKey: nil,
      trustRoots: trustRoots,
      requireClientCertificate: false,
      minimumTLSVersion: .tlsv12
    )
  }

  /// The NIOSSL context for a listener with this configuration.
  public func makeServerContext() throws -> NIOSSLContext {
    let chain = try self.loadCertificateChain()
    let key = try self.loadPrivateKey()
    var configuration: TLSConfiguration
    if self.requireClientCertificate {
      guard let trustRoots else { throw BinarioTLSError.missingTrustRoots }
      configuration = TLSConfiguration.makeServerConfigurationWithMTLS(
        certificateChain: chain.map { .certificate($0) },
        privateKey: .privateKey(key),
        trustRoots: .certificates(try Self.loadCertificates(trustRoots, what: "trust roots"))
      )
      configuration.certificateVerification = .noHostnameVerification
    } else {
      configuration = TLSConfiguration.makeServerConfiguration(
        certificateChain: chain.map { .certificate($0) },
        privateKey: .privateKey(key)
      )
    }
    configuration.minimumTLSVersion = self.minimumTLSVersion
    configuration.applicationProtocols = [binarioALPNIdentifier]
    return try NIOSSLContext(configuration: configuration)
  }

  /// The NIOSSL context for a client with this configuration.
  ///
  /// - Parameter verifyHostname: check that the server's certificate names the host connected
  ///   to (a DNS SAN). Off when connecting by IP address: the chain to the trusted CA is still
  ///   checked, and the server's workload identity is its URI SAN, not an address.
  public func makeClientContext(verifyHostname: Bool = true) throws -> NIOSSLContext {
    var configuration = TLSConfiguration.makeClientConfiguration()
    if !verifyHostname {
      configuration.certificateVerification = .noHostnameVerification
    }
    if self.certificateChain != nil || self.privateKey != nil {
      configuration.certificateChain = try self.loadCertificateChain().map { .certificate($0) }
      configuration.privateKey = .privateKey(try self.loadPrivateKey())
    }
    if let trustRoots {
      configuration.trustRoots = .certificates(try Self.loadCertificates(trustRoots, what: "trust roots"))
    }
    configuration.minimumTLSVersion = self.minimumTLSVersion
    configuration.applicationProtocols = [binarioALPNIdentifier]
    return try NIOSSLContext(configuration: configuration)
  }

  private func loadCertificateChain() throws -> [NIOSSLCertificate] {
    guard let certificateChain else { throw BinarioTLSError.missing("certificate chain") }
    return try Self.loadCertificates(certificateChain, what: "certificate chain")
  }

  private func loadPrivateKey() throws -> NIOSSLPrivateKey {
    guard let privateKey else { throw BinarioTLSError.missing("private key") }
    do {
      switch privateKey {
      case .file(let path): return try NIOSSLPrivateKey(file: path, format: .pem)
      case .pem(let pem): return try NIOSSLPrivateKey(bytes: Array(pem.utf8), format: .pem)
      }
    } catch {
      throw BinarioTLSError.unreadable(what: "private key", source: privateKey.displayName, underlying: "\(error)")
    }
  }

  private static func loadCertificates(_ source: Source, what: String) throws -> [NIOSSLCertificate] {
    let certificates: [NIOSSLCertificate]
    do {
      switch source {
      case .file(let path): certificates = try NIOSSLCertificate.fromPEMFile(path)
      case .pem(let pem): certificates = try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8))
      }
    } catch {
      throw BinarioTLSError.unreadable(what: what, source: source.displayName, underlying: "\(error)")
    }
    guard !certificates.isEmpty else {
      throw BinarioTLSError.unreadable(what: what, source: source.displayName, underlying: "no PEM certificate found")
    }
    return certificates
  }
}

extension BinarioTLSConfiguration.Source {
  var displayName: String {
    switch self {
    case .file(let path): return path
    case .pem: return "inline PEM"
    }
  }
}

/// TLS material that could not be used.
public enum BinarioTLSError: Error, CustomStringConvertible, Sendable {
  case unreadable(what: String, source: String, underlying: String)
  case missingTrustRoots
  case missing(String)

  public var description: String {
    switch self {
    case .unreadable(let what, let source, let underlying):
      return "cannot read the TLS \(what) from \(source): \(underlying)"
    case .missingTrustRoots:
      return "mutual TLS needs trusted CA certificates (trustRoots) to verify peers"
    case .missing(let what):
      return "TLS needs a \(what) on this side, and none was configured"
    }
  }
}
