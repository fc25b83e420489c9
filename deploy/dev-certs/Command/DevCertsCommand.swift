import ArgumentParser
import BinarioDevCertificates
import BinarioWebPush
import Foundation

/// Creates the development CA and one certificate per Binario process.
public struct DevCertsCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "binario-dev-certs",
    abstract: "Create the development CA and a mutual-TLS certificate for each Binario process.",
    discussion: """
      Writes ca.pem/ca.key and <process>.pem/<process>.key for \
      \(DevCertificateSet.processNames.joined(separator: ", ")). \
      An existing CA in the folder is kept, so certificates made earlier stay trusted; \
      only missing or unusable certificates are made. Keys are written with permissions 0600.

      With --kubernetes-secrets FILE it also writes one kubernetes.io/tls Secret per process \
      (binario-<process>-tls, keys tls.crt, tls.key, ca.crt: what deploy/kubernetes mounts), \
      for `kubectl apply -f FILE`.
      """
  )

  @Option(name: .long, help: "The folder to write the certificates into.")
  var out: String = ".dev/certs"

  @Flag(name: .long, help: "Create a new CA and new certificates even if usable ones exist.")
  var force = false

  @Option(
    name: .customLong("kubernetes-secrets"),
    help: ArgumentHelp("Also write the certificates as Kubernetes Secrets to this YAML file (mode 0600).", valueName: "file")
  )
  var kubernetesSecrets: String?

  @Option(name: .long, help: "The namespace of those Secrets.")
  var namespace: String = "binario"

  @Option(
    name: .customLong("web-push-key"),
    help: ArgumentHelp(
      "Also write a VAPID private key for Web Push to this file (mode 0600), unless it holds one: scheduling's BINARIO_WEB_PUSH_PRIVATE_KEY.",
      valueName: "file"
    )
  )
  var webPushKey: String?

  public func validate() throws {
    let label = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
    guard !namespace.isEmpty, namespace.count <= 63, namespace.allSatisfy(label.contains),
      namespace.first != "-", namespace.last != "-"
    else {
      throw ValidationError("--namespace must be a DNS label (lower-case letters, digits and '-'), not \"\(namespace)\"")
    }
  }

  public init() {}

  public func run() throws {
    let directory = URL(fileURLWithPath: out, isDirectory: true).standardizedFileURL
    do {
      let summary = try DevCertificateSet.write(to: directory, force: force)
      print("Development certificates in \(directory.path):")
      for line in summary {
        print("  \(line)")
      }
      if let webPushKey, (try? String(contentsOfFile: webPushKey, encoding: .utf8))?.isEmpty ?? true {
        guard
          FileManager.default.createFile(
            atPath: webPushKey,
            contents: Data(VAPIDIdentity.generatePrivateKey().utf8),
            attributes: [.posixPermissions: 0o600]
          )
        else {
          FileHandle.standardError.write(Data("binario-dev-certs: cannot write \(webPushKey)\n".utf8))
          throw ExitCode.failure
        }
        print("A VAPID key for Web Push in \(webPushKey)")
      }
      if let kubernetesSecrets {
        let file = URL(fileURLWithPath: kubernetesSecrets).standardizedFileURL
        try DevCertificateSet.writeKubernetesSecrets(from: directory, to: file, namespace: namespace)
        print("Kubernetes Secrets (namespace \(namespace)) in \(file.path): kubectl apply -f \(kubernetesSecrets)")
      }
    } catch let error as DevCertificateError {
      FileHandle.standardError.write(Data("binario-dev-certs: \(error.description)\n".utf8))
      throw ExitCode.failure
    }
  }
}
