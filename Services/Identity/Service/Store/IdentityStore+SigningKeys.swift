import Crypto
import Foundation
import GRDB

extension IdentityStore {
  /// Every signing key, oldest first.
  public func signingKeys() async throws -> [SigningKey] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT id, private_key, created_at FROM signing_key ORDER BY created_at, id")).map { row in
        SigningKey(
          id: row["id"],
          privateKey: try Curve25519.Signing.PrivateKey(rawRepresentation: row["private_key"] as Data),
          createdAt: Date(stored: row["created_at"])
        )
      }
    }
  }

  /// The signing keys, creating `makeKey()` first if there are none (in one transaction, so two
  /// processes starting at once on one file do not both create one).
  public func signingKeysCreatingFirst(_ makeKey: @escaping @Sendable () -> SigningKey) async throws -> [SigningKey] {
    try await pool.write { db in
      let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM signing_key")) ?? 0
      if count == 0 {
        let key = makeKey()
        try db.execute(
          sql: "INSERT INTO signing_key (id, public_key, private_key, created_at) VALUES (?, ?, ?, ?)",
          arguments: [key.id, key.publicKey, key.privateKey.rawRepresentation, key.createdAt.storedValue]
        )
      }
    }
    return try await signingKeys()
  }
}
