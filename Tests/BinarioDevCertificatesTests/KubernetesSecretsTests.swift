import BinarioDevCertificates
import Foundation
import Testing

@Suite("The certificate folder as Kubernetes Secrets")
struct KubernetesSecretsTests {
  @Test func oneTLSSecretPerProcessHoldsItsFilesAndTheCA() async throws {
    try await withTemporaryFolder { folder in
      try DevCertificateSet.write(to: folder, names: ["gateway", "identity"])
      let manifestFile = folder.appendingPathComponent("secrets.yaml")
      try DevCertificateSet.writeKubernetesSecrets(from: folder, to: manifestFile, names: ["gateway", "identity"], namespace: "binario-test")

      let attributes = try FileManager.default.attributesOfItem(atPath: manifestFile.path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

      let documents = try String(contentsOf: manifestFile, encoding: .utf8)
        .components(separatedBy: "\n---\n").dropFirst()  // the first part is the header comment
      #expect(documents.count == 2)
      for (name, document) in zip(["gateway", "identity"], documents) {
        let lines = document.split(separator: "\n").map(String.init)
        #expect(lines.contains("kind: Secret"))
        #expect(lines.contains("type: kubernetes.io/tls"))
        #expect(lines.contains("  name: binario-\(name)-tls"))
        #expect(lines.contains("  namespace: binario-test"))
        func data(_ key: String) throws -> String {
          let line = try #require(lines.first { $0.hasPrefix("  \(key): ") })
          let decoded = try #require(Data(base64Encoded: String(line.dropFirst("  \(key): ".count))))
          return String(decoding: decoded, as: UTF8.self)
        }
        #expect(try data("tls.crt") == String(contentsOf: folder.appendingPathComponent("\(name).pem"), encoding: .utf8))
        #expect(try data("tls.key") == String(contentsOf: folder.appendingPathComponent("\(name).key"), encoding: .utf8))
        #expect(try data("ca.crt") == String(contentsOf: folder.appendingPathComponent("ca.pem"), encoding: .utf8))
      }
    }
  }

  @Test func aFolderWithoutCertificatesIsAnErrorNamingTheFile() async throws {
    try await withTemporaryFolder { folder in
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let error = #expect(throws: DevCertificateError.self) {
        _ = try DevCertificateSet.kubernetesSecrets(in: folder, namespace: "binario")
      }
      #expect(error?.description.contains("ca.pem") == true)
    }
  }
}
