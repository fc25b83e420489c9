import BinarioDevCertificates
import Crypto
import Foundation
import Testing
import X509

@Suite("Development CA and leaf certificates")
struct DevCertificateAuthorityTests {
  @Test func theCAParsesAsASelfSignedCertificateAuthority() throws {
    let ca = try DevCertificateAuthority.create(commonName: "Test CA")
    let certificate = try Certificate(pemEncoded: ca.certificatePEM)

    #expect(certificate.subject == certificate.issuer)
    #expect(certificate.publicKey.isValidSignature(certificate.signature, for: certificate))
    #expect(try certificate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
    #expect(certificate.extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
    #expect(try certificate.extensions.keyUsage == KeyUsage(keyCertSign: true, cRLSign: true))
    #expect(certificate.extensions[oid: .X509ExtensionID.keyUsage]?.critical == true)
    #expect(try certificate.extensions.subjectKeyIdentifier != nil)
    #expect(ca.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    let key = try P256.Signing.PrivateKey(pemRepresentation: ca.privateKeyPEM)
    #expect(certificate.publicKey == Certificate.PublicKey(key.publicKey))
  }

  @Test func validityStartsAnHourAgoAndLastsAsAsked() throws {
    let now = Date()
    let ca = try DevCertificateAuthority.create(validity: .seconds(86_400))
    let leaf = try ca.issue(commonName: "svc", uriSANs: [], validity: .seconds(3_600))
    let caCertificate = try Certificate(pemEncoded: ca.certificatePEM)
    let leafCertificate = try Certificate(pemEncoded: leaf.certificatePEM)

    #expect(abs(caCertificate.notValidBefore.timeIntervalSince(now) + 3_600) < 60)
    #expect(abs(caCertificate.notValidAfter.timeIntervalSince(now) - 86_400) < 60)
    #expect(abs(leafCertificate.notValidBefore.timeIntervalSince(now) + 3_600) < 60)
    #expect(abs(leafCertificate.notValidAfter.timeIntervalSince(now) - 3_600) < 60)
    #expect(throws: DevCertificateError.self) { try ca.issue(commonName: "svc", uriSANs: [], validity: .zero) }
  }

  @Test func aLeafIsAClientAndServerCertificateNamingItsIssuer() throws {
    let ca = try DevCertificateAuthority.create()
    let leaf = try ca.issue(commonName: "identity", uriSANs: ["spiffe://binario/identity"])
    let certificate = try Certificate(pemEncoded: leaf.certificatePEM)
    let caCertificate = try Certificate(pemEncoded: ca.certificatePEM)

    #expect(certificate.subject == (try DistinguishedName { CommonName("identity") }))
    #expect(certificate.issuer == caCertificate.subject)
    #expect(try certificate.extensions.basicConstraints == .notCertificateAuthority)
    #expect(try certificate.extensions.keyUsage == KeyUsage(digitalSignature: true))
    #expect(certificate.extensions[oid: .X509ExtensionID.keyUsage]?.critical == true)
    #expect(try certificate.extensions.extendedKeyUsage == ExtendedKeyUsage([.serverAuth, .clientAuth]))
    #expect(
      try certificate.extensions.authorityKeyIdentifier?.keyIdentifier
        == caCertificate.extensions.subjectKeyIdentifier?.keyIdentifier
    )
    #expect(leaf.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    let key = try P256.Signing.PrivateKey(pemRepresentation: leaf.privateKeyPEM)
    #expect(certificate.publicKey == Certificate.PublicKey(key.publicKey))
  }

  @Test func serialNumbersAreRandom() throws {
    let ca = try DevCertificateAuthority.create()
    let serials = try (0 ..< 4).map { _ in
      try Certificate(pemEncoded: ca.issue(commonName: "svc", uriSANs: []).certificatePEM).serialNumber
    }
    #expect(Set(serials).count == 4)
  }

  @Test func theSANHoldsExactlyTheNamesAskedFor() throws {
    let ca = try DevCertificateAuthority.create()
    let leaf = try ca.issue(
      commonName: "ticketing",
      uriSANs: ["spiffe://binario/ticketing"],
      dnsSANs: ["ticketing", "localhost"]
    )
    let names = try #require(try Certificate(pemEncoded: leaf.certificatePEM).extensions.subjectAlternativeNames)

    #expect(
      Array(names) == [
        .uniformResourceIdentifier("spiffe://binario/ticketing"), .dnsName("ticketing"), .dnsName("localhost"),
      ]
    )
  }

  @Test func dnsNamesDefaultToLocalhost() throws {
    let ca = try DevCertificateAuthority.create()
    let leaf = try ca.issue(commonName: "svc", uriSANs: ["spiffe://binario/svc"])
    let names = try #require(try Certificate(pemEncoded: leaf.certificatePEM).extensions.subjectAlternativeNames)

    #expect(Array(names) == [.uniformResourceIdentifier("spiffe://binario/svc"), .dnsName("localhost")])
  }

  @Test func aLeafWithoutNamesHasNoSANExtension() throws {
    let ca = try DevCertificateAuthority.create()
    let leaf = try ca.issue(commonName: "nobody", uriSANs: [], dnsSANs: [])
    let certificate = try Certificate(pemEncoded: leaf.certificatePEM)

    #expect(certificate.extensions[oid: .X509ExtensionID.subjectAlternativeName] == nil)
  }

  @Test func aLeafVerifiesAgainstItsCAAndNotAgainstAnother() async throws {
    let ca = try DevCertificateAuthority.create()
    let otherCA = try DevCertificateAuthority.create(commonName: "Binario Development CA")
    let leaf = try Certificate(pemEncoded: ca.issue(commonName: "gateway", uriSANs: ["spiffe://binario/gateway"]).certificatePEM)

    #expect(try await verify(leaf, trusting: ca))
    #expect(try await !verify(leaf, trusting: otherCA))
  }

  @Test func aLoadedCAIssuesLeavesTrustedByTheOriginal() async throws {
    let original = try DevCertificateAuthority.create()
    let loaded = try DevCertificateAuthority(certificatePEM: original.certificatePEM, privateKeyPEM: original.privateKeyPEM)
    let leaf = try Certificate(pemEncoded: loaded.issue(commonName: "svc", uriSANs: ["spiffe://binario/svc"]).certificatePEM)

    #expect(loaded.certificatePEM == original.certificatePEM)
    #expect(try await verify(leaf, trusting: original))
  }

  @Test func loadingRefusesMaterialThatIsNotACA() throws {
    let ca = try DevCertificateAuthority.create()
    let otherCA = try DevCertificateAuthority.create()
    let leaf = try ca.issue(commonName: "svc", uriSANs: [])

    #expect(throws: DevCertificateError.self) {
      try DevCertificateAuthority(certificatePEM: "not a certificate", privateKeyPEM: ca.privateKeyPEM)
    }
    #expect(throws: DevCertificateError.self) {
      try DevCertificateAuthority(certificatePEM: ca.certificatePEM, privateKeyPEM: "not a key")
    }
    #expect(throws: DevCertificateError.self) {
      try DevCertificateAuthority(certificatePEM: ca.certificatePEM, privateKeyPEM: otherCA.privateKeyPEM)
    }
    #expect(throws: DevCertificateError.self) {
      try DevCertificateAuthority(certificatePEM: leaf.certificatePEM, privateKeyPEM: leaf.privateKeyPEM)
    }
  }
}

/// Whether `leaf` chains to `ca` under RFC 5280 rules at the current time.
func verify(_ leaf: Certificate, trusting ca: DevCertificateAuthority) async throws -> Bool {
  var verifier = Verifier(rootCertificates: CertificateStore([try Certificate(pemEncoded: ca.certificatePEM)])) {
    RFC5280Policy()
  }
  switch await verifier.validate(leaf: leaf, intermediates: CertificateStore()) {
  case .validCertificate: return true
  case .couldNotValidate: return false
  }
}
