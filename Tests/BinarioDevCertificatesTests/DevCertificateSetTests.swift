import BinarioDevCertificates
import Crypto
import Foundation
import Testing
import X509

@Suite("Writing the suite's certificate folder")
struct DevCertificateSetTests {
  @Test func theStandardSetNamesEveryProcess() {
    #expect(
      DevCertificateSet.processNames == [
        "gateway", "identity", "ticketing", "scheduling", "geo-offers", "dispatch", "telemetry",
      ]
    )
    #expect(DevCertificateSet.spiffeID(for: "dispatch") == "spiffe://binario/dispatch")
  }

  @Test func writesTheCAAndALeafPerProcessWithPrivateKeys() async throws {
    try await withTemporaryFolder { folder in
      let directory = folder.appendingPathComponent("nested/certs")
      try DevCertificateSet.write(to: directory)

      let ca = try DevCertificateAuthority(
        certificatePEM: read(directory, "ca.pem"),
        privateKeyPEM: read(directory, "ca.key")
      )
      #expect(try permissions(directory, "ca.key") == 0o600)
      for name in DevCertificateSet.processNames {
        let certificate = try Certificate(pemEncoded: read(directory, "\(name).pem"))
        let key = try P256.Signing.PrivateKey(pemRepresentation: read(directory, "\(name).key"))
        #expect(certificate.publicKey == Certificate.PublicKey(key.publicKey))
        #expect(try permissions(directory, "\(name).key") == 0o600)
        #expect(try permissions(directory, "\(name).pem") == 0o644)
        let names = try #require(try certificate.extensions.subjectAlternativeNames)
        #expect(
          Array(names) == [.uniformResourceIdentifier("spiffe://binario/\(name)"), .dnsName(name), .dnsName("localhost")]
        )
        #expect(try await verify(certificate, trusting: ca))
      }
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
      #expect(files == (["ca"] + DevCertificateSet.processNames).flatMap { ["\($0).key", "\($0).pem"] }.sorted())
    }
  }

  @Test func aSecondRunKeepsTheCAAndTheLeaves() async throws {
    try await withTemporaryFolder { folder in
      try DevCertificateSet.write(to: folder, names: ["identity", "dispatch"])
      let before = try snapshot(folder)

      let summary = try DevCertificateSet.write(to: folder, names: ["identity", "dispatch"])

      #expect(try snapshot(folder) == before)
      #expect(summary.allSatisfy { $0.hasPrefix("kept") })
    }
  }

  @Test func aSecondRunOnlyAddsWhatIsMissing() async throws {
    try await withTemporaryFolder { folder in
      try DevCertificateSet.write(to: folder, names: ["identity"])
      let before = try snapshot(folder)

      try DevCertificateSet.write(to: folder, names: ["identity", "telemetry"])

      let after = try snapshot(folder)
      #expect(after.filter { before.keys.contains($0.key) } == before)
      let ca = try DevCertificateAuthority(certificatePEM: read(folder, "ca.pem"), privateKeyPEM: read(folder, "ca.key"))
      #expect(try await verify(Certificate(pemEncoded: read(folder, "telemetry.pem")), trusting: ca))
    }
  }

  @Test func forceReplacesEverything() async throws {
    try await withTemporaryFolder { folder in
      try DevCertificateSet.write(to: folder, names: ["identity"])
      let before = try snapshot(folder)

      try DevCertificateSet.write(to: folder, names: ["identity"], force: true)

      let after = try snapshot(folder)
      #expect(after.keys == before.keys)
      for (file, contents) in after {
        #expect(contents != before[file], "\(file) was kept")
      }
      let ca = try DevCertificateAuthority(certificatePEM: read(folder, "ca.pem"), privateKeyPEM: read(folder, "ca.key"))
      #expect(try await verify(Certificate(pemEncoded: read(folder, "identity.pem")), trusting: ca))
      #expect(try permissions(folder, "ca.key") == 0o600)
      #expect(try permissions(folder, "identity.key") == 0o600)
    }
  }

  @Test func aLeafFromAnotherCAIsReissuedUnderTheFolderCA() async throws {
    try await withTemporaryFolder { folder in
      try DevCertificateSet.write(to: folder, names: ["identity"])
      let stranger = try DevCertificateAuthority.create().issue(commonName: "identity", uriSANs: ["spiffe://binario/identity"])
      try Data(stranger.certificatePEM.utf8).write(to: folder.appendingPathComponent("identity.pem"))
      try Data(stranger.privateKeyPEM.utf8).write(to: folder.appendingPathComponent("identity.key"))

      let summary = try DevCertificateSet.write(to: folder, names: ["identity"])

      #expect(summary.contains { $0.hasPrefix("replaced identity.pem") })
      let ca = try DevCertificateAuthority(certificatePEM: read(folder, "ca.pem"), privateKeyPEM: read(folder, "ca.key"))
      #expect(try await verify(Certificate(pemEncoded: read(folder, "identity.pem")), trusting: ca))
    }
  }

  @Test func anExpiredLeafIsReissued() async throws {
    try await withTemporaryFolder { folder in
      try DevCertificateSet.write(to: folder, names: ["identity"])
      let caKey = try P256.Signing.PrivateKey(pemRepresentation: read(folder, "ca.key"))
      let caCertificate = try Certificate(pemEncoded: read(folder, "ca.pem"))
      let leafKey = P256.Signing.PrivateKey()
      let expired = try Certificate(
        version: .v3,
        serialNumber: .init(),
        publicKey: .init(leafKey.publicKey),
        notValidBefore: Date(timeIntervalSinceNow: -7_200),
        notValidAfter: Date(timeIntervalSinceNow: -3_600),
        issuer: caCertificate.subject,
        subject: try DistinguishedName { CommonName("identity") },
        signatureAlgorithm: .ecdsaWithSHA256,
        extensions: try Certificate.Extensions {
          SubjectAlternativeNames([.uniformResourceIdentifier("spiffe://binario/identity")])
        },
        issuerPrivateKey: .init(caKey)
      )
      try Data(expired.serializeAsPEM().pemString.utf8).write(to: folder.appendingPathComponent("identity.pem"))
      try Data(leafKey.pemRepresentation.utf8).write(to: folder.appendingPathComponent("identity.key"))

      let summary = try DevCertificateSet.write(to: folder, names: ["identity"])

      #expect(summary.contains { $0.hasPrefix("replaced identity.pem") })
      #expect(try Certificate(pemEncoded: read(folder, "identity.pem")).notValidAfter > Date())
    }
  }

  @Test func halfACAIsRefusedRatherThanSilentlyReplaced() async throws {
    try await withTemporaryFolder { folder in
      try DevCertificateSet.write(to: folder, names: ["identity"])
      try FileManager.default.removeItem(at: folder.appendingPathComponent("ca.key"))

      #expect(throws: DevCertificateError.self) { try DevCertificateSet.write(to: folder, names: ["identity"]) }
      try DevCertificateSet.write(to: folder, names: ["identity"], force: true)
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("ca.key").path))
    }
  }

  @Test(arguments: ["ca", "", "../escape", ".hidden", "Upper"])
  func namesThatWouldClashOrEscapeAreRefused(_ name: String) async throws {
    await withTemporaryFolder { folder in
      #expect(throws: DevCertificateError.self) { try DevCertificateSet.write(to: folder, names: [name]) }
      #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
  }
}

private func read(_ directory: URL, _ file: String) throws -> String {
  try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
}

private func permissions(_ directory: URL, _ file: String) throws -> Int {
  let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)
  return try #require(attributes[.posixPermissions] as? Int)
}

/// Every file in `directory` and its contents.
private func snapshot(_ directory: URL) throws -> [String: String] {
  var files: [String: String] = [:]
  for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
    files[file] = try read(directory, file)
  }
  return files
}
