import BinarioDevCertificates
import BinarioTransport

/// Certificates for the transport tests, made once per test run: a CA with a server and a
/// client certificate, and the misfits the server must refuse.
enum TestPKI {
  struct Material: Sendable {
    let ca: DevCertificateAuthority
    let server: DevLeafCertificate
    let client: DevLeafCertificate
    let gateway: DevLeafCertificate
    let otherCAClient: DevLeafCertificate
    let noURIClient: DevLeafCertificate
    let twoURIClient: DevLeafCertificate
  }

  static let material: Material = {
    do {
      let ca = try DevCertificateAuthority.create(commonName: "Binario Test CA")
      let otherCA = try DevCertificateAuthority.create(commonName: "Some Other CA")
      return Material(
        ca: ca,
        server: try ca.issue(commonName: "echo", uriSANs: ["spiffe://binario/echo"], dnsSANs: ["localhost"]),
        client: try ca.issue(commonName: "identity", uriSANs: ["spiffe://binario/identity"], dnsSANs: []),
        gateway: try ca.issue(commonName: "gateway", uriSANs: ["spiffe://binario/gateway"], dnsSANs: []),
        otherCAClient: try otherCA.issue(commonName: "intruder", uriSANs: ["spiffe://binario/identity"], dnsSANs: []),
        noURIClient: try ca.issue(commonName: "anonymous", uriSANs: [], dnsSANs: ["client.local"]),
        twoURIClient: try ca.issue(
          commonName: "ambiguous",
          uriSANs: ["spiffe://binario/identity", "spiffe://binario/gateway"],
          dnsSANs: []
        )
      )
    } catch {
      fatalError("cannot create test certificates: \(error)")
    }
  }()

  static var serverTLS: BinarioTLSConfiguration {
    .mutual(
      certificateChain: .pem(material.server.certificatePEM),
      privateKey: .pem(material.server.privateKeyPEM),
      trustRoots: .pem(material.ca.certificatePEM)
    )
  }

  static func clientTLS(_ leaf: DevLeafCertificate = material.client) -> BinarioTLSConfiguration {
    .mutual(
      certificateChain: .pem(leaf.certificatePEM),
      privateKey: .pem(leaf.privateKeyPEM),
      trustRoots: .pem(material.ca.certificatePEM)
    )
  }
}
