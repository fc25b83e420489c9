import Crypto
import Foundation

/// One of identity's Ed25519 token-signing key pairs, as kept in its database.
public struct SigningKey: Sendable {
  public var id: String
  public var privateKey: Curve25519.Signing.PrivateKey
  public var createdAt: Date

  public init(id: String, privateKey: Curve25519.Signing.PrivateKey, createdAt: Date) {
    self.id = id
    self.privateKey = privateKey
    self.createdAt = createdAt
  }

  /// A new random key pair.
  public static func generate(at now: Date) -> SigningKey {
    SigningKey(id: "ed25519-" + UUID().uuidString.lowercased().prefix(8), privateKey: .init(), createdAt: now)
  }

  /// The raw 32-byte public key.
  public var publicKey: Data {
    privateKey.publicKey.rawRepresentation
  }
}

/// A public verification key, as GetSigningKeys publishes it.
public struct PublishedSigningKey: Sendable, Hashable {
  public var id: String
  /// `EdDSA`.
  public var algorithm: String
  /// The raw 32-byte Ed25519 public key.
  public var publicKey: Data
  public var createdAt: Date
}
