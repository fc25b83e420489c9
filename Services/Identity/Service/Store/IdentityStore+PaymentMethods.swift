import BinarioStorage
import Foundation
import GRDB

extension IdentityStore {
  /// Adds a card; the account's first card, or one added with `makeDefault`, becomes the default.
  /// - Returns: The stored method, or `nil` when the account already has `limit` cards.
  public func insertPaymentMethod(
    _ method: PaymentMethod,
    accountID: String,
    makeDefault: Bool,
    limit: Int,
    at now: Date
  ) async throws -> PaymentMethod? {
    try await pool.write { db in
      // A keyed write sent again while its first attempt was still being made: that one's card.
      if try db.hasRow(in: "payment_method", id: method.id) {
        return try Self.fetchPaymentMethods(db, where: "account_id = ? AND id = ?", accountID, method.id).first
      }
      let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM payment_method WHERE account_id = ?"), arguments: [accountID]) ?? 0
      guard count < limit else { return nil }
      var method = method
      method.isDefault = makeDefault || count == 0
      if method.isDefault {
        try db.execute(sql: "UPDATE payment_method SET is_default = 0 WHERE account_id = ?", arguments: [accountID])
      }
      try db.execute(
        sql: """
          INSERT INTO payment_method (id, account_id, provider_token, brand, last4, expiry_month, expiry_year,
            is_default, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          method.id, accountID, method.providerToken, method.brand, method.last4, method.expiryMonth,
          method.expiryYear, method.isDefault, method.createdAt.storedValue,
        ]
      )
      try recordAccountProfileChanged(accountID, at: now, db)
      return method
    }
  }

  /// The account's cards, the default first, then newest first.
  public func paymentMethods(accountID: String) async throws -> [PaymentMethod] {
    try pool.readOnCurrentThread { db in
      try Self.fetchPaymentMethods(db, where: "account_id = ?", accountID)
    }
  }

  /// The account's default card, if it has one.
  public func defaultPaymentMethod(accountID: String) async throws -> PaymentMethod? {
    try pool.readOnCurrentThread { db in
      try Self.fetchPaymentMethods(db, where: "account_id = ? AND is_default = 1", accountID).first
    }
  }

  /// Removes a card of the account; if it was the default, the newest remaining becomes default.
  /// - Returns: Whether the account had that card.
  public func removePaymentMethod(id: String, accountID: String, at now: Date) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM payment_method WHERE id = ? AND account_id = ?", arguments: [id, accountID])
      guard db.changesCount == 1 else { return false }
      try db.execute(
        sql: """
          UPDATE payment_method SET is_default = 1
          WHERE id = (SELECT id FROM payment_method WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1)
            AND NOT EXISTS (SELECT 1 FROM payment_method WHERE account_id = ? AND is_default = 1)
          """,
        arguments: [accountID, accountID]
      )
      try recordAccountProfileChanged(accountID, at: now, db)
      return true
    }
  }

  /// Makes a card of the account its default.
  /// - Returns: The card, or `nil` when the account has no such card.
  public func setDefaultPaymentMethod(id: String, accountID: String, at now: Date) async throws -> PaymentMethod? {
    try await pool.write { db in
      guard
        try Bool.fetchOne(
          db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM payment_method WHERE id = ? AND account_id = ?)"),
          arguments: [id, accountID]
        ) == true
      else { return nil }
      try db.execute(
        sql: "UPDATE payment_method SET is_default = (id = ?) WHERE account_id = ?",
        arguments: [id, accountID]
      )
      try recordAccountProfileChanged(accountID, at: now, db)
      return try Self.fetchPaymentMethods(db, where: "id = ?", id).first
    }
  }

  /// `condition` is a constant SQL fragment from this file; the value is an argument.
  static func fetchPaymentMethods(_ db: Database, where condition: String, _ values: String...) throws -> [PaymentMethod] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT id, provider_token, brand, last4, expiry_month, expiry_year, is_default, created_at
        FROM payment_method WHERE \(condition)
        ORDER BY is_default DESC, created_at DESC, rowid DESC
        """,
      arguments: StatementArguments(values)
    ).map {
      PaymentMethod(
        id: $0["id"],
        providerToken: $0["provider_token"],
        brand: $0["brand"],
        last4: $0["last4"],
        expiryMonth: $0["expiry_month"],
        expiryYear: $0["expiry_year"],
        isDefault: $0["is_default"],
        createdAt: Date(stored: $0["created_at"])
      )
    }
  }
}
