import BinarioDomain
import Foundation
import GRDB

extension DispatchTransaction {
  /// The taxi of a driver as a position report needs it: without its offer or queue rank
  /// (`onRide`: it has an active ride, whose passenger watches it come).
  public func taxiForReport(driverUserID: String) throws -> Taxi? {
    try Row.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT t.code, t.plate, t.capacity, t.driver_user_id, t.available, t.unavailable_reason, t.latitude, t.longitude,
            t.position_at, t.zone_id, t.queue_seq, t.missed_offers, 0 AS has_offer,
            EXISTS (SELECT 1 FROM ride r WHERE r.taxi_code = t.code AND r.state IN ('allocated', 'arrived', 'in_progress'))
              AS on_ride, 0 AS queue_position
          FROM taxi t WHERE t.driver_user_id = ?
          """
      ),
      arguments: [driverUserID]
    ).map(Self.taxi)
  }

  /// Every queued taxi, by zone and from the head.
  public func queuedTaxis() throws -> [Taxi] {
    try taxis(where: "t.queue_seq IS NOT NULL", orderBy: "t.zone_id, t.queue_seq")
  }

  public func setAvailability(code: String, available: Bool, reason: String) throws {
    try db.executeCached(
      sql: "UPDATE taxi SET available = ?, unavailable_reason = ? WHERE code = ?",
      arguments: [available, reason, code]
    )
  }

  public func setPosition(code: String, _ position: GeoPoint, at instant: Date, zoneID: String?) throws {
    try db.executeCached(
      sql: "UPDATE taxi SET latitude = ?, longitude = ?, position_at = ?, zone_id = ? WHERE code = ?",
      arguments: [position.latitude, position.longitude, DispatchStore.seconds(instant), zoneID, code]
    )
  }

  public func setMissedOffers(code: String, _ count: Int) throws {
    try db.executeCached(sql: "UPDATE taxi SET missed_offers = ? WHERE code = ?", arguments: [count, code])
  }

  /// Puts the taxi at the tail of its zone's queue (also when it was queued already).
  public func joinTail(code: String) throws {
    try db.executeCached(sql: "UPDATE queue_counter SET last = last + 1 WHERE id = 1")
    try db.executeCached(
      sql: "UPDATE taxi SET queue_seq = (SELECT last FROM queue_counter WHERE id = 1) WHERE code = ?",
      arguments: [code]
    )
  }

  /// Gives the taxi back a place it held (a cancelled job's taxi returns where it was).
  public func rejoin(code: String, queueSeq: Int64) throws {
    try db.executeCached(sql: "UPDATE taxi SET queue_seq = ? WHERE code = ?", arguments: [queueSeq, code])
  }

  public func leaveQueue(code: String) throws {
    try db.executeCached(sql: "UPDATE taxi SET queue_seq = NULL WHERE code = ?", arguments: [code])
  }

  /// The taxi to offer `ride` to in `zoneID`: the nearest the head of the queue that holds no
  /// pending offer, seats the passengers, and was not offered this ride in its current round.
  public func candidate(for ride: Ride, in zoneID: String) throws -> Taxi? {
    try taxis(
      where: """
        t.zone_id = ? AND t.queue_seq IS NOT NULL AND t.capacity >= ?
          AND NOT EXISTS (SELECT 1 FROM offer o WHERE o.taxi_code = t.code AND o.state = 'pending')
          AND NOT EXISTS (SELECT 1 FROM offer o WHERE o.ride_seq = ? AND o.taxi_code = t.code AND o.round = ?)
        """,
      [zoneID, ride.passengers, ride.seq, ride.searchRound],
      orderBy: "t.queue_seq LIMIT 1"
    ).first
  }

  /// Whether some queued taxi of `zoneIDs` could still take `ride` this round once free of its
  /// own offer.
  public func hasBusyCandidate(for ride: Ride, in zoneIDs: [String]) throws -> Bool {
    guard !zoneIDs.isEmpty else { return false }
    let marks = zoneIDs.map { _ in "?" }.joined(separator: ", ")
    return try Bool.fetchOne(
      db,
      sql: """
        SELECT EXISTS (SELECT 1 FROM taxi t WHERE t.zone_id IN (\(marks)) AND t.queue_seq IS NOT NULL AND t.capacity >= ?
          AND NOT EXISTS (SELECT 1 FROM offer o WHERE o.ride_seq = ? AND o.taxi_code = t.code AND o.round = ?))
        """,
      arguments: StatementArguments(zoneIDs) + [ride.passengers, ride.seq, ride.searchRound]
    ) ?? false
  }

  /// The queued taxis of `zoneIDs` free of any offer that seat `seats`, in the order a request
  /// would ask them (zone by zone as given, each from the head of its queue).
  public func freeTaxis(in zoneIDs: [String], seating seats: Int) throws -> [Taxi] {
    var free: [Taxi] = []
    for zoneID in zoneIDs {
      free += try taxis(
        where: """
          t.zone_id = ? AND t.queue_seq IS NOT NULL AND t.capacity >= ?
            AND NOT EXISTS (SELECT 1 FROM offer o WHERE o.taxi_code = t.code AND o.state = 'pending')
          """,
        [zoneID, seats],
        orderBy: "t.queue_seq"
      )
    }
    return free
  }
}
