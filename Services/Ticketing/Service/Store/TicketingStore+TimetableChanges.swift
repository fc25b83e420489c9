import BinarioDomain
import BinarioEvents
import Foundation
import GRDB

/// What scheduling's timetable events do to ticketing's data (``TimetableChanges``), each in one
/// transaction with the event cursor.
extension TicketingStore {
  /// Tickets with a way on a run of `tripID` (any date).
  func tickets(onTrip tripID: String) async throws -> [Ticket] {
    let quoted = try Self.json(tripID)  // as the JSON of a ticket spells it
    return try await pool.read { db in try Self.tickets(db, where: "instr(json, ?) > 0", [quoted]) }
  }

  /// Tickets not refunded with a way on a run, still valid after `now`.
  func ticketsWithJourneys(validAfter now: Date) async throws -> [Ticket] {
    try await pool.read { db in
      // Only a station ticket has ways (`outbound`, as its JSON spells it).
      try Self.tickets(db, where: "instr(json, '\"outbound\"') > 0 AND refunded_at IS NULL AND valid_until > ?", [now.timeIntervalSince1970])
    }
  }

  /// Writes `tickets` as they now follow the timetable, moves pending follow changes of a
  /// renamed run to its new name (or drops those of a run that is gone), and the cursor.
  func saveFollowingTimetable(
    _ tickets: [Ticket],
    renaming: (from: RunReference, to: RunReference)? = nil,
    dropping gone: RunReference? = nil,
    position: EventPosition,
    at now: Date
  ) async throws {
    let rows = try tickets.map { ($0.id, try Self.json($0)) }
    try await pool.write { db in
      for (id, json) in rows {
        try db.execute(sql: "UPDATE ticket SET json = ? WHERE id = ?", arguments: [json, id])
      }
      if let (from, to) = renaming {
        try db.execute(
          sql: "UPDATE run_follow_change SET trip_id = ? WHERE trip_id = ? AND service_date = ? AND sent = 0",
          arguments: [to.tripID, from.tripID, from.serviceDate]
        )
      }
      if let gone {
        try db.execute(
          sql: "DELETE FROM run_follow_change WHERE trip_id = ? AND service_date = ? AND sent = 0",
          arguments: [gone.tripID, gone.serviceDate]
        )
      }
      try db.advanceEventCursor(to: position, at: now)
    }
  }
}
