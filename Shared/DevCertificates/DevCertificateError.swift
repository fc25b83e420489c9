/// Development PKI material that cannot be made, read or written.
public enum DevCertificateError: Error, CustomStringConvertible, Sendable {
  case unreadable(what: String, reason: String)
  case mismatchedKey
  case notACertificateAuthority(subject: String)
  case invalidValidity(Duration)
  /// Only one of `ca.pem` / `ca.key` exists in a certificate folder.
  case incompleteAuthority(directory: String, missing: String)
  case expiredAuthority(path: String)
  case invalidProcessName(String, reason: String)
  case cannotWrite(path: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let what, let reason):
      return "cannot read the \(what): \(reason)"
    case .mismatchedKey:
      return "the CA private key does not belong to the CA certificate"
    case .notACertificateAuthority(let subject):
      return "the certificate '\(subject)' is not a CA certificate (basicConstraints CA:true missing)"
    case .invalidValidity(let validity):
      return "a certificate's validity must be positive, got \(validity)"
    case .incompleteAuthority(let directory, let missing):
      return "\(directory) holds half a CA (\(missing) is missing); restore it, or create everything anew with --force"
    case .expiredAuthority(let path):
      return "the CA certificate \(path) has expired; create everything anew with --force"
    case .invalidProcessName(let name, let reason):
      return "cannot make a certificate for '\(name)': \(reason)"
    case .cannotWrite(let path, let reason):
      return "cannot write \(path): \(reason)"
    }
  }
}
