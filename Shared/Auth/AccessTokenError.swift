import Foundation

/// Why an access token was refused. The descriptions are safe to show a caller (they never echo
/// the token).
public enum AccessTokenError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Not a compact JWS, or its header or claims do not decode.
  case malformed
  /// The header's `alg` is not `EdDSA`.
  case unsupportedAlgorithm(String?)
  /// The header has no `kid`, or names a key the verifier does not have.
  case unknownKey(String?)
  /// The signature does not match the named key.
  case badSignature
  /// The issuer is not `binario-identity`.
  case wrongIssuer(String)
  /// The token expired at the given time.
  case expired(Date)
  /// Signing failed (the private key refused to sign).
  case signingFailed(String)

  public var description: String {
    switch self {
    case .malformed: return "the access token is malformed"
    case .unsupportedAlgorithm(let alg): return "the access token's algorithm \(alg ?? "(none)") is not EdDSA"
    case .unknownKey(let kid): return "the access token is signed with an unknown key \(kid ?? "(no kid)")"
    case .badSignature: return "the access token's signature is not valid"
    case .wrongIssuer(let issuer): return "the access token was issued by \(issuer), not binario-identity"
    case .expired(let date): return "the access token expired at \(date.ISO8601Format())"
    case .signingFailed(let reason): return "the access token could not be signed: \(reason)"
    }
  }
}
