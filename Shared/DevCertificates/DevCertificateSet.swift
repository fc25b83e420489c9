import Crypto
import Foundation
import X509

/// The suite's standard set of development certificates: one CA and one leaf per process.
///
/// A folder written by ``write(to:names:force:)`` holds `ca.pem` and `ca.key`, and for each
/// process `<name>.pem` (its leaf certificate) and `<name>.key` (its private key).
public enum DevCertificateSet {
  /// The processes of the suite, each of which gets a leaf certificate.
  public static let processNames: [String] = [
    "gateway", "identity", "ticketing", "scheduling", "geo-offers", "dispatch", "telemetry",
  ]

  /// The workload identity a process's certificate carries as its URI SAN: `spiffe://binario/<name>`.
  public static func spiffeID(for name: String) -> String {
    "spiffe://binario/\(name)"
  }

  /// Writes the CA and one leaf per name into `directory`, creating the folder if missing.
  ///
  /// Each leaf has the URI SAN `spiffe://binario/<name>` and the DNS SANs `<name>` and
  /// `localhost`. Unless `force` is true, an existing `ca.pem`/`ca.key` is reused (so peers made
  /// earlier keep trusting each other), and an existing leaf is kept when it is readable, matches
  /// its key, is signed by that CA, has not expired and carries the right identity; any other leaf
  /// is (re)issued. With `force`, everything is created anew.
  ///
  /// Files are replaced atomically; key files get permissions 0600, certificates 0644.
  ///
  /// - Returns: one line per CA or leaf saying what was created, kept or replaced, and why.
  @discardableResult
  public static func write(to directory: URL, names: [String] = processNames, force: Bool = false) throws -> [String] {
    try validate(names)
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw DevCertificateError.cannotWrite(path: directory.path, reason: "\(error)")
    }

    var summary: [String] = []
    let authority: DevCertificateAuthority
    if !force, let existing = try loadAuthority(in: directory) {
      authority = existing
      summary.append("kept CA ca.pem, ca.key (\(authority.certificate.subject))")
    } else {
      authority = try DevCertificateAuthority.create()
      try writeAtomically(authority.privateKeyPEM, to: directory.appendingPathComponent("ca.key"), permissions: 0o600)
      try writeAtomically(authority.certificatePEM, to: directory.appendingPathComponent("ca.pem"), permissions: 0o644)
      summary.append("created CA ca.pem, ca.key (\(authority.certificate.subject))")
    }

    for name in names {
      let certificateURL = directory.appendingPathComponent("\(name).pem")
      let keyURL = directory.appendingPathComponent("\(name).key")
      let files = "\(name).pem, \(name).key (\(spiffeID(for: name)))"
      let verb: String
      switch force ? .missing : leafState(certificate: certificateURL, key: keyURL, name: name, authority: authority) {
      case .usable:
        summary.append("kept \(files)")
        continue
      case .missing:
        verb = "created \(files)"
      case .unusable(let reason):
        verb = "replaced \(files): \(reason)"
      }
      let leaf = try authority.issue(commonName: name, uriSANs: [spiffeID(for: name)], dnsSANs: [name, "localhost"])
      try writeAtomically(leaf.privateKeyPEM, to: keyURL, permissions: 0o600)
      try writeAtomically(leaf.certificatePEM, to: certificateURL, permissions: 0o644)
      summary.append(verb)
    }
    return summary
  }

  /// ``write(to:names:force:)`` with a folder path.
  @discardableResult
  public static func write(to directoryPath: String, names: [String] = processNames, force: Bool = false) throws -> [String] {
    try write(to: URL(fileURLWithPath: directoryPath, isDirectory: true), names: names, force: force)
  }

  static func validate(_ names: [String]) throws {
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_.")
    var seen: Set<String> = []
    for name in names {
      if name.isEmpty || name.first == "." || !name.allSatisfy(allowed.contains) {
        throw DevCertificateError.invalidProcessName(
          name,
          reason: "use lower-case letters, digits, '-', '_' and '.', not starting with '.'"
        )
      }
      if name == "ca" {
        throw DevCertificateError.invalidProcessName(name, reason: "its files would overwrite the CA's")
      }
      if !seen.insert(name).inserted {
        throw DevCertificateError.invalidProcessName(name, reason: "the name is listed twice")
      }
    }
  }

  /// The CA in `directory`, or nil when there is none yet.
  private static func loadAuthority(in directory: URL) throws -> DevCertificateAuthority? {
    let certificateURL = directory.appendingPathComponent("ca.pem")
    let keyURL = directory.appendingPathComponent("ca.key")
    let certificatePEM = try? String(contentsOf: certificateURL, encoding: .utf8)
    let keyPEM = try? String(contentsOf: keyURL, encoding: .utf8)
    switch (certificatePEM, keyPEM) {
    case (nil, nil):
      return nil
    case (.some, nil):
      throw DevCertificateError.incompleteAuthority(directory: directory.path, missing: "ca.key")
    case (nil, .some):
      throw DevCertificateError.incompleteAuthority(directory: directory.path, missing: "ca.pem")
    case (.some(let certificatePEM), .some(let keyPEM)):
      let authority = try DevCertificateAuthority(certificatePEM: certificatePEM, privateKeyPEM: keyPEM)
      guard authority.certificate.notValidAfter > Date() else {
        throw DevCertificateError.expiredAuthority(path: certificateURL.path)
      }
      return authority
    }
  }

  private enum LeafState {
    case usable
    case missing
    case unusable(String)
  }

  private static func leafState(certificate: URL, key: URL, name: String, authority: DevCertificateAuthority) -> LeafState {
    let certificatePEM = try? String(contentsOf: certificate, encoding: .utf8)
    let keyPEM = try? String(contentsOf: key, encoding: .utf8)
    guard let certificatePEM, let keyPEM else {
      if certificatePEM == nil, keyPEM == nil { return .missing }
      return .unusable(certificatePEM == nil ? "the certificate was missing" : "the key was missing")
    }
    guard let leaf = try? Certificate(pemEncoded: certificatePEM) else {
      return .unusable("the certificate was unreadable")
    }
    guard let leafKey = try? P256.Signing.PrivateKey(pemRepresentation: keyPEM) else {
      return .unusable("the key was unreadable")
    }
    guard leaf.publicKey == Certificate.PrivateKey(leafKey).publicKey else {
      return .unusable("the key did not belong to the certificate")
    }
    guard authority.signed(leaf) else {
      return .unusable("it was signed by another CA")
    }
    guard leaf.notValidAfter > Date() else {
      return .unusable("it had expired")
    }
    let uris = (try? leaf.extensions.subjectAlternativeNames)??.compactMap { name -> String? in
      if case .uniformResourceIdentifier(let uri) = name { return uri }
      return nil
    }
    guard uris == [spiffeID(for: name)] else {
      return .unusable("it did not carry the identity \(spiffeID(for: name))")
    }
    return .usable
  }
}
