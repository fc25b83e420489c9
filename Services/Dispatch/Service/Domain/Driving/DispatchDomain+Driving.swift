import BinarioDomain
import Foundation

/// A driver's shift: their taxi, its availability and its position.
extension DispatchDomain {
  /// The driver's taxi with its pending offer and current ride.
  public func myTaxi(driverUserID: String) async throws -> (taxi: Taxi, offer: OfferedJob?, ride: Ride?) {
    try await store.read { tx in
      let taxi = try self.driverTaxi(tx, driverUserID)
      let offer = try tx.pendingOffer(taxiCode: taxi.code).flatMap { offer in
        try tx.ride(seq: offer.rideSeq).map { OfferedJob(offer: offer, ride: $0) }
      }
      var ride = try tx.activeRide(taxiCode: taxi.code)
      if let groupID = ride?.groupID { ride?.route = SharedRoute.plan(try tx.members(groupID: groupID)) }
      var job = offer
      if let groupID = job?.ride.groupID { job?.ride.route = SharedRoute.plan(try tx.members(groupID: groupID)) }
      return (taxi, job, ride)
    }
  }

  /// Available: the taxi joins the tail of its zone's queue. Unavailable (with a reason): it
  /// leaves the queue and a pending offer goes to the next taxi.
  public func setAvailability(driverUserID: String, available: Bool, reason rawReason: String) async throws -> Taxi {
    var check = InputValidation()
    let reason = available ? "" : check.requiredText(rawReason, field: "reason", what: "a reason", maxLength: 200)
    try check.finish()
    let now = clock.now()
    return try await commit { tx in
      let taxi = try self.driverTaxi(tx, driverUserID)
      if taxi.onRide, let ride = try tx.activeRide(taxiCode: taxi.code) {
        throw ServiceError.failedPrecondition("you are on ride \(ride.id); complete it first")
      }
      if available {
        guard taxi.position != nil else {
          throw ServiceError.failedPrecondition("report your position first: a taxi waits in the queue of the zone it is in")
        }
        guard taxi.zoneID != nil else {
          throw ServiceError.failedPrecondition("your position is outside every taxi zone; drive into the city first")
        }
        try tx.setAvailability(code: taxi.code, available: true, reason: "")
        try tx.setMissedOffers(code: taxi.code, 0)
        if !taxi.isQueued { try tx.joinTail(code: taxi.code) }
        try self.offerWaitingRides(tx, now: now)
      } else {
        try tx.setAvailability(code: taxi.code, available: false, reason: reason)
        try tx.leaveQueue(code: taxi.code)
        try self.withdrawOffer(ofTaxi: taxi.code, reason: "unavailable", tx, now: now)
      }
      return try self.recordTaxi(tx, taxi.code)
    }
  }

  /// Where the driver's taxi is. A taxi that enters another zone joins the tail of its queue;
  /// on a ride, the distance driven grows. A report older than the last one is ignored.
  public func reportPosition(driverUserID: String, position: GeoPoint, reportedAt: Date?) async throws -> Taxi {
    var check = InputValidation()
    _ = check.position(latitude: position.latitude, longitude: position.longitude, field: "position")
    let now = clock.now()
    let instant = reportedAt ?? now
    if instant > now.addingTimeInterval(60) { check.fail("reported_at", "a report cannot be from the future") }
    try check.finish()
    let zoneID = zones.zone(containing: position)?.id
    return try await commit { tx in
      guard let taxi = try tx.taxiForReport(driverUserID: driverUserID) else {
        throw ServiceError.notFound("no taxi is linked to your account; ask an admin to link one")
      }
      if let last = taxi.positionAt, instant < last { return taxi }
      try tx.setPosition(code: taxi.code, position, at: instant, zoneID: zoneID)
      if taxi.onRide, var ride = try tx.activeRide(taxiCode: taxi.code), ride.state == .inProgress {
        if let last = ride.lastPosition { ride.distanceMetres += last.distance(to: position) }
        ride.lastPosition = position
        ride.lastPositionAt = instant
        try tx.save(ride)
      }
      guard zoneID != taxi.zoneID else {
        // Nothing a queue or a stream shows changed: answered without ranking the queue.
        return try tx.taxi(code: taxi.code) ?? taxi
      }
      if zoneID == nil {
        try tx.leaveQueue(code: taxi.code)
      } else if taxi.available, try tx.activeRide(taxiCode: taxi.code) == nil {
        try tx.joinTail(code: taxi.code)
        try self.offerWaitingRides(tx, now: now)
      }
      return try self.recordTaxi(tx, taxi.code)
    }
  }
}
