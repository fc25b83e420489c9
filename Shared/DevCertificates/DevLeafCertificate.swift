/// A leaf certificate and its private key, as PEM.
public struct DevLeafCertificate: Sendable {
  /// The leaf only (the CA certificate is distributed separately as the trust root).
  public let certificatePEM: String
  /// PKCS#8 `PRIVATE KEY` PEM of the leaf's P-256 key.
  public let privateKeyPEM: String

  public init(certificatePEM: String, privateKeyPEM: String) {
    self.certificatePEM = certificatePEM
    self.privateKeyPEM = privateKeyPEM
  }
}
