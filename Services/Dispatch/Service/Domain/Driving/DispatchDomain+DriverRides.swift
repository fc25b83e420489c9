import BinarioDomain
import Foundation

/// A ride from the driver's side: late, at the pickup, on board, at the destination.
extension DispatchDomain {
  /// The taxi will be `minutes` late: the estimate moves and the passenger is told.
  public func reportDelay(driverUserID: String, rideID: String, minutes: Int) async throws -> Ride {
    guard (1 ... 120).contains(minutes) else { throw ServiceError.invalid("minutes", "a delay is 1 to 120 minutes") }
    let now = clock.now()
    return try await driverRide(driverUserID, rideID, allowed: [.allocated]) { ride, tx in
      ride.estimatedPickupAt = max(now, ride.estimatedPickupAt ?? now).addingTimeInterval(Double(minutes) * 60)
      ride.delayed = true
      try tx.enqueue(self.passengerMessage(ride, event: "delayed"))
    }
  }

  /// The taxi is at the pickup: the passenger is told.
  public func reportArrived(driverUserID: String, rideID: String) async throws -> Ride {
    let now = clock.now()
    return try await driverRide(driverUserID, rideID, allowed: [.allocated]) { ride, tx in
      ride.state = .arrived
      ride.arrivedAt = now
      try tx.enqueue(self.passengerMessage(ride, event: "arrived"))
    }
  }

  /// The passenger is on board, having given the driver their code. The distance driven counts
  /// from the taxi's position now.
  public func startRide(driverUserID: String, rideID: String, passengerCode: String) async throws -> Ride {
    let now = clock.now()
    return try await driverRide(driverUserID, rideID, allowed: [.allocated, .arrived]) { ride, tx in
      guard passengerCode.trimmingCharacters(in: .whitespaces) == ride.passengerCode else {
        throw ServiceError.permissionDenied("that is not this ride's passenger code; ask the passenger for theirs")
      }
      let taxi = try tx.taxi(code: ride.taxiCode ?? "")
      ride.state = .inProgress
      ride.startedAt = now
      if ride.arrivedAt == nil { ride.arrivedAt = now }
      ride.lastPosition = taxi?.position
      ride.lastPositionAt = taxi?.positionAt
    }
  }

  /// The passenger is at the destination: the fare for the distance driven is charged and the
  /// taxi joins the tail of its zone's queue.
  public func completeRide(driverUserID: String, rideID: String) async throws -> Ride {
    let now = clock.now()
    let ride = try await driverRide(driverUserID, rideID, allowed: [.inProgress]) { ride, tx in
      try self.complete(&ride, tx, now: now)
    }
    return try await store.read { tx in try tx.ride(id: ride.id) } ?? ride
  }

  /// Ends a ride in progress in a transaction: its fare is set (a shared ride's members' agreed
  /// shares, any other the distance driven) and an available taxi joins the tail of its queue.
  func complete(_ ride: inout Ride, _ tx: DispatchTransaction, now: Date) throws {
    ride.state = .completed
    ride.endedAt = now
    if let groupID = ride.groupID {
      ride.fareMinor = try tx.members(groupID: groupID).map(\.fareMinor).reduce(0, +)
    } else {
      ride.fareMinor = settings.tariff.fare(metres: ride.distanceMetres)
    }
    try tx.save(ride)
    if let code = ride.taxiCode, let taxi = try tx.taxi(code: code), taxi.available, taxi.zoneID != nil {
      try tx.joinTail(code: code)
    }
    try offerWaitingRides(tx, now: now)
  }

  /// Applies `change` to one of the driver's rides in one of the `allowed` states, saves it and
  /// records it for the streams.
  func driverRide(
    _ driverUserID: String,
    _ rideID: String,
    allowed: Set<RideState>,
    _ change: @escaping @Sendable (inout Ride, DispatchTransaction) throws -> Void
  ) async throws -> Ride {
    try await commit { tx in
      let taxi = try self.driverTaxi(tx, driverUserID)
      guard var ride = try tx.ride(id: rideID), ride.taxiCode == taxi.code,
        ride.state.isActive || ride.state == .completed
          || ride.state == .cancelled
      else { throw ServiceError.notFound("no ride \(rideID) of your taxi") }
      guard allowed.contains(ride.state) else {
        throw ServiceError.failedPrecondition("the ride \(rideID) is \(ride.state.rawValue.replacingOccurrences(of: "_", with: " "))")
      }
      try change(&ride, tx)
      try tx.save(ride)
      tx.record(.rideChanged(ride))
      try self.recordTaxi(tx, taxi.code)
      return ride
    }
  }
}
