import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension TicketingStore {
  func ticket(id: String) async throws -> Ticket? {
    try await pool.read { db in try Self.tickets(db, where: "id = ?", [id]).first }
  }

  /// The holder's tickets whose dates are not over at `now`.
  func tickets(holderID: String, validAfter now: Date) async throws -> [Ticket] {
    try await pool.read { db in
      try Self.tickets(
        db,
        where: "holder_id = ? AND refunded_at IS NULL AND (valid_until > ? OR active_until > ?)",
        [holderID, now.timeIntervalSince1970, now.timeIntervalSince1970]
      )
    }
  }

  static func tickets(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [Ticket] {
    try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM ticket WHERE \(condition) ORDER BY rowid"), arguments: arguments).map(ticket)
  }

  /// The ticket as issued (its JSON) with what changed since: rides used, the active ride, a refund.
  static func ticket(_ row: Row) throws -> Ticket {
    var ticket = try decode(Ticket.self, row["json"])
    ticket.ridesUsed = row["rides_used"]
    ticket.activeUntil = (row["active_until"] as Double?).map(Date.init(timeIntervalSince1970:))
    ticket.refundedAt = (row["refunded_at"] as Double?).map(Date.init(timeIntervalSince1970:))
    return ticket
  }
}
