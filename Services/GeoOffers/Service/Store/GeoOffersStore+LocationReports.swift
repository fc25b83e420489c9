import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension GeoOffersStore {
  /// One location report's writes, in one transaction: keeps `location` as the user's last
  /// known one unless a newer report is already kept, and offers the user the active deals
  /// within `radius` not offered to them since `notOfferedSince`, nearest first, at most
  /// `limit`, recording them as offered at `now`.
  ///
  /// Concurrent reports of one user are serialised by the write: a deal is offered once.
  public func recordReport(
    userID: String,
    location: UserLocation,
    now: Date,
    dealRadius radius: Double,
    notOfferedSince: Date,
    limit: Int
  ) async throws -> (stored: Bool, deals: [Nearby<Deal>]) {
    try await pool.write { db in
      try db.executeCached(
        sql: """
          INSERT INTO user_location (user_id, latitude, longitude, accuracy_metres, reported_at, received_at)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (user_id) DO UPDATE SET latitude = excluded.latitude, longitude = excluded.longitude,
            accuracy_metres = excluded.accuracy_metres, reported_at = excluded.reported_at, received_at = excluded.received_at
          WHERE excluded.reported_at >= user_location.reported_at
          """,
        arguments: [
          userID, location.position.latitude, location.position.longitude, location.accuracyMetres,
          Self.instant(location.reportedAt), Self.instant(now),
        ]
      )
      let stored = db.changesCount > 0
      let candidates = try Self.within(
        db,
        point: location.position,
        radius: radius,
        limit: Int.max,
        select: Self.activeDealsSelect,
        filter: Self.activeDealsFilter + """
           AND NOT EXISTS (SELECT 1 FROM offered_deal o WHERE o.user_id = ? AND o.deal_seq = t.seq AND o.offered_at > ?)
          """,
        arguments: [Self.instant(now), Self.instant(now), userID, Self.instant(notOfferedSince)],
        make: { row, position in OfferedDeal(seq: row[0], deal: Self.deal(row, position)) }
      )
      let offered = candidates.prefix(limit)
      for candidate in offered {
        try db.executeCached(
          sql: "INSERT OR REPLACE INTO offered_deal (user_id, deal_seq, offered_at) VALUES (?, ?, ?)",
          arguments: [userID, candidate.item.seq, Self.instant(now)]
        )
      }
      return (stored, offered.map { Nearby($0.item.deal, distanceMetres: $0.distanceMetres) })
    }
  }

  /// A deal with its row, while a report records it.
  struct OfferedDeal: Sendable, Hashable {
    var seq: Int64
    var deal: Deal
  }

  public func location(userID: String) async throws -> UserLocation? {
    try pool.readOnCurrentThread { db in
      try Row.fetchOne(
        db.cachedStatement(sql: "SELECT latitude, longitude, accuracy_metres, reported_at FROM user_location WHERE user_id = ?"),
        arguments: [userID]
      ).map {
        UserLocation(position: GeoPoint(latitude: $0[0], longitude: $0[1]), accuracyMetres: $0[2], reportedAt: Self.date($0[3]))
      }
    }
  }

  /// Forgets the user's last known location and the deals offered to them.
  public func forgetLocation(userID: String) async throws {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM user_location WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM offered_deal WHERE user_id = ?", arguments: [userID])
    }
  }

  /// Forgets offers made before `instant` (past the no-repeat period they no longer matter).
  @discardableResult
  public func removeOffers(madeBefore instant: Date) async throws -> Int {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM offered_deal WHERE offered_at <= ?", arguments: [Self.instant(instant)])
      return db.changesCount
    }
  }

  // MARK: - Welcomes

  /// Which of `ticketIDs` were already welcomed.
  public func welcomedTickets(among ticketIDs: [String]) async throws -> Set<String> {
    guard !ticketIDs.isEmpty else { return [] }
    return try await pool.read { db in
      let marks = Array(repeating: "?", count: ticketIDs.count).joined(separator: ", ")
      return Set(
        try String.fetchAll(db, sql: "SELECT ticket_id FROM welcome WHERE ticket_id IN (\(marks))", arguments: StatementArguments(ticketIDs))
      )
    }
  }

  /// Records that `ticketIDs` were welcomed (again is harmless).
  public func recordWelcome(ticketIDs: [String], userID: String, stationID: String, at instant: Date) async throws {
    try await pool.write { db in
      for ticketID in ticketIDs {
        try db.execute(
          sql: "INSERT OR IGNORE INTO welcome (ticket_id, user_id, station_id, sent_at) VALUES (?, ?, ?, ?)",
          arguments: [ticketID, userID, stationID, Self.instant(instant)]
        )
      }
    }
  }
}
