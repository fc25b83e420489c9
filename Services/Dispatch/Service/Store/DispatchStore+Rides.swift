import BinarioDomain
import Foundation
import GRDB

extension DispatchTransaction {
  static func ride(_ row: Row) -> Ride {
    func place(_ prefix: String) -> RidePlace? {
      guard let latitude: Double = row["\(prefix)_latitude"], let longitude: Double = row["\(prefix)_longitude"] else { return nil }
      return RidePlace(
        position: GeoPoint(latitude: latitude, longitude: longitude),
        address: row["\(prefix)_address"],
        zoneID: row["\(prefix)_zone_id"]
      )
    }
    var ride = Ride(
      id: row["id"],
      passengerUserID: row["passenger_user_id"],
      passengerName: row["passenger_name"],
      idempotencyKey: row["idempotency_key"],
      state: RideState(rawValue: row["state"]) ?? .cancelled,
      pickup: place("pickup")!,
      destination: place("destination"),
      passengers: row["passengers"],
      requestedAt: DispatchStore.date(row["requested_at"] as Double),
      passengerCode: row["passenger_code"],
      currency: row["currency"],
      cardToken: row["card_token"],
      cardLast4: row["card_last4"],
      holdID: row["hold_id"]
    )
    ride.seq = row["seq"]
    ride.taxiCode = row["taxi_code"]
    ride.taxiPlate = row["taxi_plate"]
    ride.allocatedAt = DispatchStore.date(row["allocated_at"] as Double?)
    ride.estimatedPickupAt = DispatchStore.date(row["estimated_pickup_at"] as Double?)
    ride.delayed = row["delayed"]
    ride.arrivedAt = DispatchStore.date(row["arrived_at"] as Double?)
    ride.startedAt = DispatchStore.date(row["started_at"] as Double?)
    ride.endedAt = DispatchStore.date(row["ended_at"] as Double?)
    ride.distanceMetres = row["distance_metres"]
    if let latitude: Double = row["last_latitude"], let longitude: Double = row["last_longitude"] {
      ride.lastPosition = GeoPoint(latitude: latitude, longitude: longitude)
    }
    ride.lastPositionAt = DispatchStore.date(row["last_position_at"] as Double?)
    ride.estimatedFareMinor = row["estimated_fare_minor"]
    ride.fareMinor = row["fare_minor"]
    ride.cancellationFeeMinor = row["cancellation_fee_minor"]
    ride.settled = row["settled"]
    ride.positionAlerted = row["position_alerted"]
    ride.reservationID = row["reservation_id"]
    ride.groupID = row["group_id"]
    ride.searchRound = row["search_round"]
    ride.nextRoundAt = DispatchStore.date(row["next_round_at"] as Double?)
    ride.endReason = Ride.EndReason(rawValue: row["end_reason"]) ?? .none
    ride.partyID = row["party_id"]
    ride.partyIndex = row["party_index"]
    ride.meetingAt = DispatchStore.date(row["meeting_at"] as Double?)
    return ride
  }

  func rides(where condition: String, _ arguments: StatementArguments = [], orderBy: String = "seq") throws -> [Ride] {
    try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM ride WHERE \(condition) ORDER BY \(orderBy)"), arguments: arguments)
      .map(Self.ride)
  }

  public func ride(id: String) throws -> Ride? {
    try rides(where: "id = ?", [id]).first
  }

  func ride(seq: Int64) throws -> Ride? {
    try rides(where: "seq = ?", [seq]).first
  }

  public func ride(passengerUserID: String, idempotencyKey: String) throws -> Ride? {
    try rides(where: "passenger_user_id = ? AND idempotency_key = ?", [passengerUserID, idempotencyKey]).first
  }

  public func openRide(passengerUserID: String) throws -> Ride? {
    try rides(where: "passenger_user_id = ? AND state IN ('searching', 'allocated', 'arrived', 'in_progress')", [passengerUserID])
      .first
  }

  public func activeRide(taxiCode: String) throws -> Ride? {
    try rides(where: "taxi_code = ? AND state IN ('allocated', 'arrived', 'in_progress')", [taxiCode]).first
  }

  /// Every open ride, oldest first.
  public func openRides() throws -> [Ride] {
    try rides(where: "state IN ('searching', 'allocated', 'arrived', 'in_progress')")
  }

  /// Rides searching with no pending offer (waiting for a taxi to be free to ask, or for their
  /// next round, due by `now`), oldest first.
  public func ridesWaitingForTaxi(now: Date) throws -> [Ride] {
    try rides(
      where: """
        state = 'searching' AND (next_round_at IS NULL OR next_round_at <= ?)
          AND NOT EXISTS (SELECT 1 FROM offer o WHERE o.ride_seq = ride.seq AND o.state = 'pending')
        """,
      [DispatchStore.seconds(now)]
    )
  }

  /// When the next search paused between rounds asks again.
  public func nextSearchRound() throws -> Date? {
    try Double.fetchOne(db.cachedStatement(sql: "SELECT MIN(next_round_at) FROM ride WHERE state = 'searching' AND next_round_at IS NOT NULL"))
      .map(DispatchStore.date)
  }

  /// Ended rides whose money is not settled yet.
  public func unsettledRides() throws -> [Ride] {
    try rides(where: "settled = 0 AND state IN ('completed', 'cancelled', 'no_taxi')")
  }

  /// A passenger's rides, newest first, after `beforeSeq` (a page token), at most `limit`: their
  /// own, and the shared rides a reservation of theirs was dispatched to.
  public func rides(passengerUserID: String, beforeSeq: Int64?, limit: Int) throws -> [Ride] {
    try rides(
      where: """
        seq < ? AND (passenger_user_id = ?
          OR id IN (SELECT r.ride_id FROM reservation r WHERE r.passenger_user_id = ? AND r.ride_id IS NOT NULL))
        """,
      [beforeSeq ?? Int64.max, passengerUserID, passengerUserID],
      orderBy: "seq DESC LIMIT \(limit)"
    )
  }

  @discardableResult
  public func insertRide(_ ride: Ride) throws -> Ride {
    try db.execute(
      sql: """
        INSERT INTO ride (id, passenger_user_id, passenger_name, idempotency_key, state, pickup_latitude, pickup_longitude,
          pickup_address, pickup_zone_id, destination_latitude, destination_longitude, destination_address,
          destination_zone_id, passengers, requested_at, passenger_code, currency, estimated_fare_minor, card_token,
          card_last4, hold_id, reservation_id, group_id, party_id, party_index, meeting_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        ride.id, ride.passengerUserID, ride.passengerName, ride.idempotencyKey, ride.state.rawValue,
        ride.pickup.position.latitude, ride.pickup.position.longitude, ride.pickup.address, ride.pickup.zoneID,
        ride.destination?.position.latitude, ride.destination?.position.longitude, ride.destination?.address ?? "",
        ride.destination?.zoneID ?? "", ride.passengers, DispatchStore.seconds(ride.requestedAt), ride.passengerCode,
        ride.currency, ride.estimatedFareMinor, ride.cardToken, ride.cardLast4, ride.holdID, ride.reservationID, ride.groupID,
        ride.partyID, ride.partyIndex, DispatchStore.seconds(ride.meetingAt),
      ]
    )
    var inserted = ride
    inserted.seq = db.lastInsertedRowID
    return inserted
  }

  /// Writes every field that changes over a ride's life.
  public func save(_ ride: Ride) throws {
    try db.executeCached(
      sql: """
        UPDATE ride SET state = ?, taxi_code = ?, taxi_plate = ?, allocated_at = ?, estimated_pickup_at = ?, delayed = ?,
          arrived_at = ?, started_at = ?, ended_at = ?, distance_metres = ?, last_latitude = ?, last_longitude = ?,
          last_position_at = ?, fare_minor = ?, cancellation_fee_minor = ?, card_last4 = ?, settled = ?, position_alerted = ?,
          passengers = ?, passenger_user_id = ?, passenger_name = ?, estimated_fare_minor = ?, search_round = ?, next_round_at = ?,
          end_reason = ?
        WHERE seq = ?
        """,
      arguments: [
        ride.state.rawValue, ride.taxiCode, ride.taxiPlate, DispatchStore.seconds(ride.allocatedAt),
        DispatchStore.seconds(ride.estimatedPickupAt), ride.delayed, DispatchStore.seconds(ride.arrivedAt),
        DispatchStore.seconds(ride.startedAt), DispatchStore.seconds(ride.endedAt), ride.distanceMetres,
        ride.lastPosition?.latitude, ride.lastPosition?.longitude, DispatchStore.seconds(ride.lastPositionAt), ride.fareMinor,
        ride.cancellationFeeMinor, ride.cardLast4, ride.settled, ride.positionAlerted, ride.passengers, ride.passengerUserID,
        ride.passengerName, ride.estimatedFareMinor, ride.searchRound, DispatchStore.seconds(ride.nextRoundAt), ride.endReason.rawValue,
        ride.seq,
      ]
    )
  }

  /// The distinct pickups and destinations of a passenger's recent rides that were given as
  /// addresses, newest first.
  public func recentAddresses(passengerUserID: String, limit: Int) throws -> [RidePlace] {
    var seen: Set<String> = []
    var places: [RidePlace] = []
    for ride in try rides(passengerUserID: passengerUserID, beforeSeq: nil, limit: 50) {
      for place in [ride.destination, ride.pickup].compactMap({ $0 }) where !place.address.isEmpty {
        if seen.insert(place.address.lowercased()).inserted { places.append(place) }
      }
    }
    return Array(places.prefix(limit))
  }
}
