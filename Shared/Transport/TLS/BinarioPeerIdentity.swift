import NIOSSL
import X509

/// Who is at the other end of a connection, as proven by its TLS certificate.
///
/// Follows SPIFFE's X509-SVID rule: a workload certificate carries exactly one URI SAN, its
/// identity (e.g. `spiffe://binario/identity`). A certificate with none, or with more than one,
/// identifies nobody and is refused.
public struct BinarioPeerIdentity: Sendable, Hashable, CustomStringConvertible {
  /// The certificate's single URI SAN, e.g. `spiffe://binario/gateway`.
  public let uri: String

  public init(uri: String) {
    self.uri = uri
  }

  public var description: String { self.uri }

  /// Reads the identity from a verified peer certificate.
  public init(certificate: NIOSSLCertificate) throws(BinarioPeerServiceError) {
    let parsed: Certificate
    do {
      parsed = try Certificate(derEncoded: certificate.toDERBytes())
    } catch {
      throw .unreadableCertificate
    }
    let names: SubjectAlternativeNames?
    do {
      names = try parsed.extensions.subjectAlternativeNames
    } catch {
      throw .unreadableCertificate
    }
    var uris: [String] = []
    for name in names ?? SubjectAlternativeNames() {
      if case .uniformResourceIdentifier(let uri) = name { uris.append(uri) }
    }
    guard uris.count == 1, let uri = uris.first else {
      throw .uriSANCount(uris.count)
    }
    self.uri = uri
  }
}

/// Why a peer certificate does not identify a workload.
public enum BinarioPeerServiceError: Error, Hashable, Sendable, CustomStringConvertible {
  case unreadableCertificate
  case uriSANCount(Int)

  public var description: String {
    switch self {
    case .unreadableCertificate:
      return "the peer certificate could not be parsed"
    case .uriSANCount(let count):
      return "the peer certificate has \(count) URI SANs; a workload certificate has exactly one"
    }
  }
}
