import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension SchedulingStore {
  /// Sends `notice` in the transaction under way; `onCommitted` gets the notifications after it
  /// commits.
  static func send(
    _ notice: Notice?,
    _ db: Database,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) throws {
    guard let notice, !notice.userIDs.isEmpty else { return }
    let made = try insertNotifications(db, userIDs: notice.userIDs, content: notice.content, pushOnly: false, at: now)
    publish(made, from: db, to: onCommitted)
  }

  /// Inserts `itinerary` unless one with its id exists already (a keyed write sent again).
  public func insertItinerary(_ itinerary: Itinerary) async throws {
    try await pool.write { db in
      guard try !db.hasRow(in: "itinerary", id: itinerary.id) else { return }
      try db.execute(
        sql: """
          INSERT INTO itinerary (id, organiser_id, name, destination, start_day, end_day, cost_minor, currency, status, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          itinerary.id, itinerary.organiserID, itinerary.name, itinerary.destination,
          itinerary.startDate.daysSinceEpoch, itinerary.endDate.daysSinceEpoch, itinerary.estimatedCost.amountMinor,
          itinerary.estimatedCost.currency, itinerary.status.rawValue, itinerary.createdAt.timeIntervalSince1970,
        ]
      )
    }
  }

  public func itinerary(id: String) throws -> Itinerary? {
    try pool.read { db in
      try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM itinerary WHERE id = ?"), arguments: [id]).map(Self.itinerary)
    }
  }

  /// The active itineraries the user organises or has joined, by start date.
  public func itineraries(ofUser userID: String) throws -> [Itinerary] {
    try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT * FROM itinerary WHERE status = 'active' AND (organiser_id = ? OR id IN (
              SELECT itinerary_id FROM itinerary_invite WHERE invitee_user_id = ? AND status = 'accepted'))
            ORDER BY start_day, created_at
            """
        ),
        arguments: [userID, userID]
      ).map(Self.itinerary)
    }
  }

  /// Every invite of an itinerary, oldest first.
  public func invites(itineraryID: String) throws -> [ItineraryInvite] {
    try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(sql: "SELECT * FROM itinerary_invite WHERE itinerary_id = ? ORDER BY invited_at, rowid"),
        arguments: [itineraryID]
      ).map(Self.invite)
    }
  }

  public func invite(id: String) throws -> ItineraryInvite? {
    try pool.read { db in
      try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM itinerary_invite WHERE id = ?"), arguments: [id]).map(Self.invite)
    }
  }

  /// Invites a user or an email to an itinerary, and sends `notice`, in one transaction. An
  /// earlier invite of the same person that was rejected or left is renewed (pending again).
  /// - Throws: ``StoreConflict/duplicate`` when that person is already invited or a member.
  public func insertInvite(
    _ invite: ItineraryInvite,
    notice: Notice?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> ItineraryInvite {
    try await pool.write { db in
      let existing = try Row.fetchOne(
        db,
        sql: invite.inviteeUserID.isEmpty
          ? "SELECT * FROM itinerary_invite WHERE itinerary_id = ? AND invitee_email = ? AND invitee_user_id = ''"
          : "SELECT * FROM itinerary_invite WHERE itinerary_id = ? AND invitee_user_id = ?",
        arguments: [invite.itineraryID, invite.inviteeUserID.isEmpty ? invite.inviteeEmail : invite.inviteeUserID]
      ).map(Self.invite)
      var saved = invite
      if let existing {
        guard existing.status == .rejected || existing.status == .left else { throw StoreConflict.duplicate }
        saved.id = existing.id
        try db.execute(
          sql: """
            UPDATE itinerary_invite SET status = 'pending', invited_at = ?, answered_at = NULL, awaits_friendship = ?
            WHERE id = ?
            """,
          arguments: [invite.invitedAt.timeIntervalSince1970, invite.awaitsFriendship, existing.id]
        )
      } else {
        try db.execute(
          sql: """
            INSERT INTO itinerary_invite (id, itinerary_id, invitee_user_id, invitee_email, status, invited_at, awaits_friendship)
            VALUES (?, ?, ?, ?, 'pending', ?, ?)
            """,
          arguments: [
            invite.id, invite.itineraryID, invite.inviteeUserID, invite.inviteeEmail, invite.invitedAt.timeIntervalSince1970,
            invite.awaitsFriendship,
          ]
        )
      }
      try Self.send(notice, db, at: invite.invitedAt, onCommitted: onCommitted)
      return saved
    }
  }

  /// The user's pending invites to active itineraries, oldest first.
  public func pendingInvites(userID: String) throws -> [(ItineraryInvite, Itinerary)] {
    try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT itinerary_invite.* FROM itinerary_invite
            JOIN itinerary ON itinerary.id = itinerary_invite.itinerary_id AND itinerary.status = 'active'
            WHERE itinerary_invite.invitee_user_id = ? AND itinerary_invite.status = 'pending'
              AND itinerary_invite.awaits_friendship = 0
            ORDER BY itinerary_invite.invited_at, itinerary_invite.rowid
            """
        ),
        arguments: [userID]
      ).compactMap { row in
        let invite = Self.invite(row)
        guard let itinerary = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM itinerary WHERE id = ?"), arguments: [invite.itineraryID])
        else { return nil }
        return (invite, Self.itinerary(itinerary))
      }
    }
  }

  /// Sets an invite's status (answered now) and sends `notice`, in one transaction.
  public func setInviteStatus(
    id: String,
    _ status: ItineraryInvite.Status,
    at now: Date,
    notice: Notice?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws {
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE itinerary_invite SET status = ?, answered_at = ? WHERE id = ?",
        arguments: [status.rawValue, now.timeIntervalSince1970, id]
      )
      try Self.send(notice, db, at: now, onCommitted: onCommitted)
    }
  }

  /// Marks an itinerary deleted and sends `notice`, in one transaction.
  public func markItineraryDeleted(
    id: String,
    at now: Date,
    notice: Notice?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws {
    try await pool.write { db in
      try db.execute(sql: "UPDATE itinerary SET status = 'deleted' WHERE id = ?", arguments: [id])
      try Self.send(notice, db, at: now, onCommitted: onCommitted)
    }
  }

  /// Adds or replaces an event and sends `notice`, in one transaction.
  public func saveEvent(
    _ event: ItineraryEvent,
    at now: Date,
    notice: Notice?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO itinerary_event (id, itinerary_id, title, place, latitude, longitude, starts_at, ends_at, notes,
            cost_minor, currency, created_by, train_trip_id, train_service_date, train_from_station_id,
            train_to_station_id, ticket_id)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (id) DO UPDATE SET title = excluded.title, place = excluded.place, latitude = excluded.latitude,
            longitude = excluded.longitude, starts_at = excluded.starts_at, ends_at = excluded.ends_at,
            notes = excluded.notes, cost_minor = excluded.cost_minor, currency = excluded.currency,
            train_trip_id = excluded.train_trip_id, train_service_date = excluded.train_service_date,
            train_from_station_id = excluded.train_from_station_id, train_to_station_id = excluded.train_to_station_id,
            ticket_id = excluded.ticket_id
          """,
        arguments: [
          event.id, event.itineraryID, event.title, event.place, event.latitude, event.longitude,
          event.startsAt.timeIntervalSince1970, event.endsAt.timeIntervalSince1970, event.notes, event.cost.amountMinor,
          event.cost.currency, event.createdBy, event.train?.tripID, event.train?.serviceDate.description,
          event.train?.fromStationID, event.train?.toStationID, event.train?.ticketID,
        ]
      )
      try Self.send(notice, db, at: now, onCommitted: onCommitted)
    }
  }

  /// Deletes an event of the itinerary and sends `notice`; returns whether it was there.
  public func deleteEvent(
    id: String,
    itineraryID: String,
    at now: Date,
    notice: Notice?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM itinerary_event WHERE id = ? AND itinerary_id = ?", arguments: [id, itineraryID])
      guard db.changesCount == 1 else { return false }
      try Self.send(notice, db, at: now, onCommitted: onCommitted)
      return true
    }
  }

  /// An itinerary's events by start time.
  public func events(itineraryID: String) throws -> [ItineraryEvent] {
    try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(sql: "SELECT * FROM itinerary_event WHERE itinerary_id = ? ORDER BY starts_at, rowid"),
        arguments: [itineraryID]
      ).map { row in
        ItineraryEvent(
          id: row["id"],
          itineraryID: row["itinerary_id"],
          title: row["title"],
          place: row["place"],
          latitude: row["latitude"],
          longitude: row["longitude"],
          startsAt: Date(timeIntervalSince1970: row["starts_at"]),
          endsAt: Date(timeIntervalSince1970: row["ends_at"]),
          notes: row["notes"],
          cost: Money(amountMinor: row["cost_minor"], currency: row["currency"]),
          createdBy: row["created_by"],
          train: Self.train(row)
        )
      }
    }
  }

  static func itinerary(_ row: Row) -> Itinerary {
    Itinerary(
      id: row["id"],
      organiserID: row["organiser_id"],
      name: row["name"],
      destination: row["destination"],
      startDate: ServiceDate(daysSinceEpoch: row["start_day"]),
      endDate: ServiceDate(daysSinceEpoch: row["end_day"]),
      estimatedCost: Money(amountMinor: row["cost_minor"], currency: row["currency"]),
      status: Itinerary.Status(rawValue: row["status"]) ?? .deleted,
      createdAt: Date(timeIntervalSince1970: row["created_at"])
    )
  }

  static func invite(_ row: Row) -> ItineraryInvite {
    ItineraryInvite(
      id: row["id"],
      itineraryID: row["itinerary_id"],
      inviteeUserID: row["invitee_user_id"],
      inviteeEmail: row["invitee_email"],
      status: ItineraryInvite.Status(rawValue: row["status"]) ?? .pending,
      invitedAt: Date(timeIntervalSince1970: row["invited_at"]),
      answeredAt: (row["answered_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
      awaitsFriendship: row["awaits_friendship"]
    )
  }

  static func train(_ row: Row) -> ItineraryTrain? {
    guard let tripID: String = row["train_trip_id"], let date = ServiceDate(iso: row["train_service_date"]) else { return nil }
    return ItineraryTrain(
      tripID: tripID,
      serviceDate: date,
      fromStationID: row["train_from_station_id"] ?? "",
      toStationID: row["train_to_station_id"] ?? "",
      ticketID: row["ticket_id"] ?? ""
    )
  }
}
