import Crypto
import Foundation
import SwiftASN1
import X509

/// A development certificate authority: signs leaf certificates for the gateway and services.
///
/// Keys are ECDSA P-256; everything is PEM (certificates as `CERTIFICATE`, keys as PKCS#8
/// `PRIVATE KEY`), which NIOSSL reads directly. Validity periods start an hour in the past so
/// that a peer whose clock runs a little behind still accepts freshly made certificates.
public struct DevCertificateAuthority: Sendable {
  public let certificatePEM: String
  public let privateKeyPEM: String
  let certificate: Certificate
  private let privateKey: P256.Signing.PrivateKey

  /// Creates a new self-signed CA: basicConstraints CA:true (critical), keyUsage
  /// keyCertSign + cRLSign (critical) and a subjectKeyIdentifier, valid from an hour ago for
  /// `validity` (10 years by default).
  public static func create(
    commonName: String = "Binario Development CA",
    validity: Duration = .seconds(10 * 365 * 86_400)
  ) throws -> DevCertificateAuthority {
    let key = P256.Signing.PrivateKey()
    let signingKey = Certificate.PrivateKey(key)
    let name = try DistinguishedName { CommonName(commonName) }
    let (notBefore, notAfter) = try validityPeriod(validity)
    let certificate = try Certificate(
      version: .v3,
      serialNumber: Certificate.SerialNumber(),
      publicKey: signingKey.publicKey,
      notValidBefore: notBefore,
      notValidAfter: notAfter,
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

  /// Loads an existing CA from its certificate and private key (P-256, PKCS#8 or SEC1 PEM).
  ///
  /// Throws ``DevCertificateError`` when either does not parse, when the key does not belong to
  /// the certificate, or when the certificate is not a CA certificate.
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
    guard case .isCertificateAuthority = try? certificate.extensions.basicConstraints else {
      throw DevCertificateError.notACertificateAuthority(subject: "\(certificate.subject)")
    }
    try self.init(certificate: certificate, privateKey: key)
  }

  private init(certificate: Certificate, privateKey: P256.Signing.PrivateKey) throws {
    self.certificate = certificate
    self.privateKey = privateKey
    self.certificatePEM = try certificate.serializeAsPEM().pemString
    self.privateKeyPEM = privateKey.pemRepresentation
  }

  /// Issues a leaf certificate, with a fresh key, for both TLS server and client use.
  ///
  /// Extensions: basicConstraints CA:false (critical), keyUsage digitalSignature (critical),
  /// extendedKeyUsage serverAuth + clientAuth, subjectAlternativeName, authorityKeyIdentifier.
  /// The serial number is random.
  ///
  /// - Parameters:
  ///   - uriSANs: the workload identities, e.g. `["spiffe://binario/identity"]`. A workload
  ///     certificate has exactly one; other counts are for testing refusals.
  ///   - dnsSANs: the names clients connect to.
  ///   With both lists empty the certificate has no subjectAlternativeName extension at all.
  ///   - validity: how long the certificate is valid, counted from an hour ago (1 year by default).
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
    let (notBefore, notAfter) = try Self.validityPeriod(validity)
    let certificate = try Certificate(
      version: .v3,
      serialNumber: Certificate.SerialNumber(),
      publicKey: publicKey,
      notValidBefore: notBefore,
      notValidAfter: notAfter,
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

  /// Whether `leaf` carries this CA's signature.
  func signed(_ leaf: Certificate) -> Bool {
    leaf.issuer == self.certificate.subject
      && self.certificate.publicKey.isValidSignature(leaf.signature, for: leaf)
  }

  private static func validityPeriod(_ validity: Duration) throws -> (notBefore: Date, notAfter: Date) {
    guard validity > .zero else {
      throw DevCertificateError.invalidValidity(validity)
    }
    let now = Date()
    let seconds = TimeInterval(validity.components.seconds) + TimeInterval(validity.components.attoseconds) / 1e18
    return (now.addingTimeInterval(-3600), now.addingTimeInterval(seconds))
  }
}
