import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension TicketingStore {
  func insertQuote(_ quote: TicketQuote) async throws {
    let json = try Self.json(quote)
    try await pool.write { db in
      try db.executeCached(
        sql: "INSERT INTO quote (id, user_id, json, expires_at) VALUES (?, ?, ?, ?)",
        arguments: [quote.id, quote.userID, json, quote.expiresAt.timeIntervalSince1970]
      )
    }
  }

  /// Removes quotes that expired before `cutoff` and were never bought.
  @discardableResult
  public func removeQuotes(expiredBefore cutoff: Date) async throws -> Int {
    try await pool.write { db in
      try db.executeCached(
        sql: "DELETE FROM quote WHERE expires_at < ? AND id NOT IN (SELECT quote_id FROM purchase WHERE status != 'declined')",
        arguments: [cutoff.timeIntervalSince1970]
      )
      return db.changesCount
    }
  }
}
