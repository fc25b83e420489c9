import Foundation

extension DevCertificateSet {
  /// The name of the Secret holding `process`'s certificate in Kubernetes: `binario-<name>-tls`
  /// (what `deploy/kubernetes` mounts, and what its cert-manager component issues).
  public static func kubernetesSecretName(for process: String) -> String {
    "binario-\(process)-tls"
  }

  /// One `kubernetes.io/tls` Secret per name, as a multi-document YAML manifest, from the files
  /// ``write(to:names:force:)`` made in `directory`: `tls.crt` (the leaf), `tls.key` (its key) and
  /// `ca.crt` (the CA), the same keys cert-manager writes, so pods mount either alike.
  ///
  /// - Throws: ``DevCertificateError/unreadable(what:reason:)`` when a file is missing.
  public static func kubernetesSecrets(in directory: URL, names: [String] = processNames, namespace: String) throws -> String {
    try validate(names)
    let ca = try Self.read(directory.appendingPathComponent("ca.pem"))
    var manifest = "# Development certificates as Kubernetes Secrets (made by binario-dev-certs; holds private keys).\n"
    for name in names {
      let certificate = try Self.read(directory.appendingPathComponent("\(name).pem"))
      let key = try Self.read(directory.appendingPathComponent("\(name).key"))
      manifest += """
        ---
        apiVersion: v1
        kind: Secret
        metadata:
          name: \(kubernetesSecretName(for: name))
          namespace: \(namespace)
          labels:
            app.kubernetes.io/part-of: binario
            app.kubernetes.io/name: \(name)
        type: kubernetes.io/tls
        data:
          tls.crt: \(Data(certificate.utf8).base64EncodedString())
          tls.key: \(Data(key.utf8).base64EncodedString())
          ca.crt: \(Data(ca.utf8).base64EncodedString())

        """
    }
    return manifest
  }

  /// Writes ``kubernetesSecrets(in:names:namespace:)`` to `file` with permissions 0600.
  public static func writeKubernetesSecrets(from directory: URL, to file: URL, names: [String] = processNames, namespace: String) throws {
    try writeAtomically(try kubernetesSecrets(in: directory, names: names, namespace: namespace), to: file, permissions: 0o600)
  }

  private static func read(_ url: URL) throws -> String {
    do {
      return try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw DevCertificateError.unreadable(
        what: "file \(url.path)",
        reason: "\(error.localizedDescription) (run binario-dev-certs --out on that folder first)"
      )
    }
  }
}
