import Crypto
import Foundation
import SwiftASN1
import X509

/// A development certificate authority: signs leaf certificates for the gateway and services.
///
/// Keys are ECDSA P-256; everything is PEM (certificates as `CERTIFICATE`, keys as PKCS#8
/// `PRIVATE KEY`), which NIOSSL reads directly.
public struct DevCertificateAuthority: Sendable {
  public let certificatePEM: String
  public let privateKeyPEM: String
  private let certificate: Certificate
  private let privateKey: P256.Signing.PrivateKey

  /// Creates a new self-signed CA, valid from an hour ago (to tolerate clock skew) for
  /// `validity`.
  public static func create(
    commonName: String = "Binario Development CA",
    validity: Duration = .seconds(10 * 365 * 86_400)
  ) throws -> DevCertificateAuthority {
    let key = P256.Signing.PrivateKey()
    let signingKey = Certificate.PrivateKey(key)
    let name = try DistinguishedName { CommonName(commonName) }
    let now = Date()
    let certificate = try Certificate(
      version: .v3,
      serialNumber: Certificate.SerialNumber(),
      publicKey: signingKey.publicKey,
      notValidBefore: now.addingTimeInterval(-3600),
      notValidAfter: now.addingTimeInterval(validity.seconds),
      issuer: name,
      subject: name,
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        SubjectKeyIdentifier(hash: signingKey.publicKey)
      },
      issuerPrivateKey: signingKey
    )
    return try DevCertificateAuthority(certificate: certificate, privateKey: key)
  }

  /// Loads an existing CA.
  public init(certificatePEM: String, privateKeyPEM: String) throws {
    let certificate: Certificate
    let key: P256.Signing.PrivateKey
    do {
      certificate = try Certificate(pemEncoded: certificatePEM)
    } catch {
      throw DevCertificateError.unreadable(what: "CA certificate", reason: "\(error)")
    }
    do {
      key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
    } catch {
      throw DevCertificateError.unreadable(what: "CA private key (expected a P-256 key)", reason: "\(error)")
    }
    guard certificate.publicKey == Certificate.PrivateKey(key).publicKey else {
      throw DevCertificateError.mismatchedKey
    }
    try self.init(certificate: certificate, privateKey: key)
  }

  private init(certificate: Certificate, privateKey: P256.Signing.PrivateKey) throws {
    self.certificate = certificate
    self.privateKey = privateKey
    self.certificatePEM = try certificate.serializeAsPEM().pemString
    self.privateKeyPEM = privateKey.pemRepresentation
  }

  /// Issues a leaf certificate for both TLS server and client use.
  ///
  /// - Parameters:
  ///   - uriSANs: the workload identities, e.g. `["spiffe://binario/identity"]`. A workload
  ///     certificate has exactly one; other counts are for testing refusals.
  ///   - dnsSANs: the names clients connect to.
  ///   With both lists empty the certificate has no subjectAlternativeName extension at all.
  public func issue(
    commonName: String,
    uriSANs: [String],
    dnsSANs: [String] = ["localhost"],
    validity: Duration = .seconds(365 * 86_400)
  ) throws -> DevLeafCertificate {
    let key = P256.Signing.PrivateKey()
    let publicKey = Certificate.PrivateKey(key).publicKey
    let names = uriSANs.map { GeneralName.uniformResourceIdentifier($0) } + dnsSANs.map { GeneralName.dnsName($0) }
    let authorityKeyID = try self.certificate.extensions.subjectKeyIdentifier?.keyIdentifier
    let now = Date()
    let certificate = try Certificate(
      version: .v3,
      serialNumber: Certificate.SerialNumber(),
      publicKey: publicKey,
      notValidBefore: now.addingTimeInterval(-3600),
      notValidAfter: now.addingTimeInterval(validity.seconds),
      issuer: self.certificate.subject,
      subject: try DistinguishedName { CommonName(commonName) },
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        try ExtendedKeyUsage([.serverAuth, .clientAuth])
        if !names.isEmpty {
          SubjectAlternativeNames(names)
        }
        if let authorityKeyID {
          AuthorityKeyIdentifier(keyIdentifier: authorityKeyID)
        }
      },
      issuerPrivateKey: Certificate.PrivateKey(self.privateKey)
    )
    return DevLeafCertificate(
      certificatePEM: try certificate.serializeAsPEM().pemString,
      privateKeyPEM: key.pemRepresentation
    )
  }
}

/// A leaf certificate and its private key, as PEM.
public struct DevLeafCertificate: Sendable {
  /// The leaf only (the CA certificate is distributed separately as the trust root).
  public let certificatePEM: String
  public let privateKeyPEM: String

  public init(certificatePEM: String, privateKeyPEM: String) {
    self.certificatePEM = certificatePEM
    self.privateKeyPEM = privateKeyPEM
  }
}

/// Development PKI material that cannot be used.
public enum DevCertificateError: Error, CustomStringConvertible, Sendable {
  case unreadable(what: String, reason: String)
  case mismatchedKey

  public var description: String {
    switch self {
    case .unreadable(let what, let reason): return "cannot read the \(what): \(reason)"
    case .mismatchedKey: return "the CA private key does not belong to the CA certificate"
    }
  }
}

extension Duration {
  fileprivate var seconds: TimeInterval {
    TimeInterval(self.components.seconds) + TimeInterval(self.components.attoseconds) / 1e18
  }
}
