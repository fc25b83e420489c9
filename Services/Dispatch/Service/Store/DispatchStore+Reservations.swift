import BinarioDomain
import Foundation
import GRDB

extension DispatchTransaction {
  static func reservation(_ row: Row) -> Reservation {
    func place(_ prefix: String) -> RidePlace {
      RidePlace(
        position: GeoPoint(latitude: row["\(prefix)_latitude"], longitude: row["\(prefix)_longitude"]),
        address: row["\(prefix)_address"],
        zoneID: row["\(prefix)_zone_id"]
      )
    }
    var reservation = Reservation(
      id: row["id"],
      passengerUserID: row["passenger_user_id"],
      passengerName: row["passenger_name"],
      idempotencyKey: row["idempotency_key"],
      state: Reservation.State(rawValue: row["state"]) ?? .cancelled,
      pickup: place("pickup"),
      destination: place("destination"),
      passengers: row["passengers"],
      meetingAt: DispatchStore.date(row["meeting_at"] as Double),
      endsAt: DispatchStore.date(row["ends_at"] as Double),
      shared: row["shared"],
      groupID: row["group_id"],
      currency: row["currency"],
      fareMinor: row["fare_minor"],
      cardToken: row["card_token"],
      cardLast4: row["card_last4"],
      rideID: row["ride_id"],
      createdAt: DispatchStore.date(row["created_at"] as Double),
      cancelledAt: DispatchStore.date(row["cancelled_at"] as Double?),
      cancellationFeeMinor: row["cancellation_fee_minor"]
    )
    reservation.seq = row["seq"]
    reservation.passengerCode = row["passenger_code"]
    reservation.boardedAt = DispatchStore.date(row["boarded_at"] as Double?)
    reservation.soloFareMinor = row["solo_fare_minor"]
    reservation.endReason = Ride.EndReason(rawValue: row["end_reason"]) ?? .none
    return reservation
  }

  func reservations(where condition: String, _ arguments: StatementArguments = [], orderBy: String = "meeting_at, seq") throws -> [Reservation] {
    try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM reservation WHERE \(condition) ORDER BY \(orderBy)"), arguments: arguments)
      .map(Self.reservation)
  }

  public func reservation(id: String) throws -> Reservation? {
    try reservations(where: "id = ?", [id]).first
  }

  public func reservation(passengerUserID: String, idempotencyKey: String) throws -> Reservation? {
    try reservations(where: "passenger_user_id = ? AND idempotency_key = ?", [passengerUserID, idempotencyKey]).first
  }

  /// The passenger's reservations not cancelled whose span meets `start...end` (but `except`).
  public func overlappingReservations(passengerUserID: String, from start: Date, to end: Date, except id: String = "") throws -> [Reservation] {
    try reservations(
      where: "passenger_user_id = ? AND state <> 'cancelled' AND meeting_at <= ? AND ends_at >= ? AND id <> ?",
      [passengerUserID, DispatchStore.seconds(end), DispatchStore.seconds(start), id]
    )
  }

  /// The passenger's reservations to come and dispatched, soonest first.
  public func reservations(passengerUserID: String) throws -> [Reservation] {
    try reservations(where: "passenger_user_id = ? AND state <> 'cancelled'", [passengerUserID])
  }

  /// Every reservation of the passenger meeting since `since`, cancelled ones too, soonest first.
  public func reservations(passengerUserID: String, since: Date) throws -> [Reservation] {
    try reservations(where: "passenger_user_id = ? AND meeting_at >= ?", [passengerUserID, DispatchStore.seconds(since)])
  }

  /// The members of a shared group (not cancelled), in meeting order.
  public func members(groupID: String) throws -> [Reservation] {
    try reservations(where: "group_id = ? AND state <> 'cancelled'", [groupID])
  }

  /// A scheduled shared group `reservation` may join: same pickup and destination zones, a
  /// member's meeting time within `window` of it, room for its passengers in `capacity`.
  public func joinableGroup(for reservation: Reservation, window: TimeInterval, capacity: Int) throws -> String? {
    try String.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT group_id FROM reservation
          WHERE group_id IS NOT NULL AND state = 'scheduled' AND shared = 1 AND id <> ?
            AND pickup_zone_id = ? AND destination_zone_id = ? AND meeting_at BETWEEN ? AND ?
            AND NOT EXISTS (SELECT 1 FROM reservation d WHERE d.group_id = reservation.group_id AND d.state = 'dispatched')
          GROUP BY group_id
          HAVING (SELECT SUM(m.passengers) FROM reservation m WHERE m.group_id = reservation.group_id AND m.state <> 'cancelled'
            AND m.id <> ?) + ? <= ?
          ORDER BY MIN(meeting_at)
          LIMIT 1
          """
      ),
      arguments: [
        reservation.id, reservation.pickup.zoneID, reservation.destination.zoneID,
        DispatchStore.seconds(reservation.meetingAt.addingTimeInterval(-window)),
        DispatchStore.seconds(reservation.meetingAt.addingTimeInterval(window)), reservation.id, reservation.passengers, capacity,
      ]
    )
  }

  /// Scheduled reservations whose taxi is due (meeting at or before `until`), soonest first.
  public func dueReservations(until: Date) throws -> [Reservation] {
    try reservations(where: "state = 'scheduled' AND meeting_at <= ?", [DispatchStore.seconds(until)])
  }

  public func insertReservation(_ reservation: Reservation) throws {
    try db.execute(
      sql: """
        INSERT INTO reservation (id, passenger_user_id, passenger_name, idempotency_key, state, pickup_latitude, pickup_longitude,
          pickup_address, pickup_zone_id, destination_latitude, destination_longitude, destination_address, destination_zone_id,
          passengers, meeting_at, ends_at, shared, group_id, currency, fare_minor, card_token, card_last4, created_at,
          passenger_code, solo_fare_minor)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        reservation.id, reservation.passengerUserID, reservation.passengerName, reservation.idempotencyKey, reservation.state.rawValue,
        reservation.pickup.position.latitude, reservation.pickup.position.longitude, reservation.pickup.address,
        reservation.pickup.zoneID, reservation.destination.position.latitude, reservation.destination.position.longitude,
        reservation.destination.address, reservation.destination.zoneID, reservation.passengers,
        DispatchStore.seconds(reservation.meetingAt), DispatchStore.seconds(reservation.endsAt), reservation.shared,
        reservation.groupID, reservation.currency, reservation.fareMinor, reservation.cardToken, reservation.cardLast4,
        DispatchStore.seconds(reservation.createdAt), reservation.passengerCode, reservation.soloFareMinor,
      ]
    )
  }

  /// Writes every field that may change.
  public func save(_ reservation: Reservation) throws {
    try db.execute(
      sql: """
        UPDATE reservation SET state = ?, pickup_latitude = ?, pickup_longitude = ?, pickup_address = ?, pickup_zone_id = ?,
          destination_latitude = ?, destination_longitude = ?, destination_address = ?, destination_zone_id = ?, passengers = ?,
          meeting_at = ?, ends_at = ?, shared = ?, group_id = ?, fare_minor = ?, ride_id = ?, cancelled_at = ?,
          cancellation_fee_minor = ?, boarded_at = ?, solo_fare_minor = ?, end_reason = ?
        WHERE id = ?
        """,
      arguments: [
        reservation.state.rawValue, reservation.pickup.position.latitude, reservation.pickup.position.longitude,
        reservation.pickup.address, reservation.pickup.zoneID, reservation.destination.position.latitude,
        reservation.destination.position.longitude, reservation.destination.address, reservation.destination.zoneID,
        reservation.passengers, DispatchStore.seconds(reservation.meetingAt), DispatchStore.seconds(reservation.endsAt),
        reservation.shared, reservation.groupID, reservation.fareMinor, reservation.rideID,
        DispatchStore.seconds(reservation.cancelledAt), reservation.cancellationFeeMinor, DispatchStore.seconds(reservation.boardedAt),
        reservation.soloFareMinor, reservation.endReason.rawValue, reservation.id,
      ]
    )
  }

  /// The ride of a shared group (open or not), if it was dispatched.
  public func ride(groupID: String) throws -> Ride? {
    try rides(where: "group_id = ?", [groupID], orderBy: "seq DESC LIMIT 1").first
  }
}
