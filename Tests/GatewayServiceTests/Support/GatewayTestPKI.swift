import BinarioDevCertificates
import BinarioTransport

/// Certificates for the gateway tests, made once per test run: a CA, an upstream service, the
/// gateway (`spiffe://binario/gateway`) and a client.
enum GatewayTestPKI {
  struct Material: Sendable {
    let ca: DevCertificateAuthority
    let upstream: DevLeafCertificate
    let gateway: DevLeafCertificate
    let client: DevLeafCertificate
  }

  static let material: Material = {
    do {
      let ca = try DevCertificateAuthority.create(commonName: "Binario Gateway Test CA")
      return Material(
        ca: ca,
        upstream: try ca.issue(commonName: "echo", uriSANs: ["spiffe://binario/echo"], dnsSANs: ["localhost"]),
        gateway: try ca.issue(commonName: "gateway", uriSANs: ["spiffe://binario/gateway"], dnsSANs: ["localhost"]),
        client: try ca.issue(commonName: "client", uriSANs: ["spiffe://binario/test-client"], dnsSANs: [])
      )
    } catch {
      fatalError("cannot create test certificates: \(error)")
    }
  }()

  /// What upstream services listen with: mutual TLS.
  static var upstreamTLS: BinarioTLSConfiguration {
    .mutual(
      certificateChain: .pem(material.upstream.certificatePEM),
      privateKey: .pem(material.upstream.privateKeyPEM),
      trustRoots: .pem(material.ca.certificatePEM)
    )
  }

  /// What the gateway presents to upstreams.
  static var gatewayClientTLS: BinarioTLSConfiguration {
    .mutual(
      certificateChain: .pem(material.gateway.certificatePEM),
      privateKey: .pem(material.gateway.privateKeyPEM),
      trustRoots: .pem(material.ca.certificatePEM)
    )
  }

  /// What the gateway listens with: server-only TLS.
  static var gatewayListenerTLS: BinarioTLSConfiguration {
    .serverOnly(certificateChain: .pem(material.gateway.certificatePEM), privateKey: .pem(material.gateway.privateKeyPEM))
  }

  /// What a client of the gateway uses (its certificate is not asked for).
  static var clientTLS: BinarioTLSConfiguration {
    .mutual(
      certificateChain: .pem(material.client.certificatePEM),
      privateKey: .pem(material.client.privateKeyPEM),
      trustRoots: .pem(material.ca.certificatePEM)
    )
  }
}
