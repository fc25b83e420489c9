import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension TicketingStore {
  /// Every validation key, newest first.
  public func validationKeys() async throws -> [(id: String, privateKey: Data)] {
    try await pool.read { db in
      try Row.fetchAll(try db.cachedStatement(sql: "SELECT id, private_key FROM validation_key ORDER BY created_at DESC"))
        .map { ($0["id"], $0["private_key"]) }
    }
  }

  public func insertValidationKey(id: String, privateKey: Data, at now: Date) async throws {
    try await pool.write { db in
      try db.executeCached(
        sql: "INSERT INTO validation_key (id, private_key, created_at) VALUES (?, ?, ?)",
        arguments: [id, privateKey, now.timeIntervalSince1970]
      )
    }
  }

  /// Applies `use` to the ticket in one transaction and records the ride.
  func validate(
    ticketID: String,
    holderID: String,
    inspectorID: String,
    at now: Date,
    _ use: @escaping @Sendable (Ticket) throws(ServiceError) -> Ticket
  ) async throws -> (Ticket, TicketValidation) {
    try await pool.write { db in
      guard let ticket = try Self.tickets(db, where: "id = ?", [ticketID]).first, ticket.holderID == holderID else {
        throw ServiceError.notFound("no ticket \(ticketID)")
      }
      let used = try use(ticket)
      try db.executeCached(
        sql: "UPDATE ticket SET rides_used = ?, active_until = ? WHERE id = ?",
        arguments: [used.ridesUsed, used.activeUntil?.timeIntervalSince1970, ticketID]
      )
      let validation = TicketValidation(
        ticketID: ticketID,
        ride: used.ridesUsed,
        validatedAt: now,
        activeUntil: used.activeUntil,
        inspectorID: inspectorID
      )
      try db.executeCached(
        sql: "INSERT INTO validation (ticket_id, ride, validated_at, active_until, inspector_id) VALUES (?, ?, ?, ?, ?)",
        arguments: [ticketID, validation.ride, now.timeIntervalSince1970, used.activeUntil?.timeIntervalSince1970, inspectorID]
      )
      return (used, validation)
    }
  }

  func validations(ticketID: String) async throws -> [TicketValidation] {
    try await pool.read { db in
      try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM validation WHERE ticket_id = ? ORDER BY ride"), arguments: [ticketID]).map { row in
        TicketValidation(
          ticketID: row["ticket_id"],
          ride: row["ride"],
          validatedAt: Date(timeIntervalSince1970: row["validated_at"]),
          activeUntil: (row["active_until"] as Double?).map(Date.init(timeIntervalSince1970:)),
          inspectorID: row["inspector_id"]
        )
      }
    }
  }
}
