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
      ride = ride.map(self.shown)
      var job = offer
      if let groupID = job?.ride.groupID { job?.ride.route = SharedRoute.plan(try tx.members(groupID: groupID)) }
      return (taxi, job, ride)
    }
  }

  /// A ride as its driver sees it: a shared ride's route with who is on board, and when they may
  /// mark a passenger absent.
  public func driverView(_ ride: Ride) async throws -> Ride {
    var view = ride
    if let groupID = ride.groupID, ride.route.isEmpty {
      view.route = SharedRoute.plan(try await store.read { tx in try tx.members(groupID: groupID) })
    }
    return shown(view)
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

  /// Where the driver's taxi is. A fix that is invalid is refused; one that is inaccurate, a
  /// duplicate, out of order or implausibly far from the last is not used (the answer says
  /// why; ``PositionVerdict``). A taxi that enters another zone (clearly: hysteresis at the
  /// borders) joins the tail of its queue; on a ride in progress, the distance driven grows; a
  /// passenger watching their ride sees the taxi move.
  public func reportPosition(
    driverUserID: String,
    position: GeoPoint,
    reportedAt: Date?,
    accuracyMetres: Double? = nil
  ) async throws -> (taxi: Taxi, verdict: PositionVerdict) {
    var check = InputValidation()
    _ = check.position(latitude: position.latitude, longitude: position.longitude, field: "position")
    let now = clock.now()
    let instant = reportedAt ?? now
    if instant > now.addingTimeInterval(60) { check.fail("reported_at", "a report cannot be from the future") }
    if let accuracyMetres, !(accuracyMetres >= 0 && accuracyMetres.isFinite) {
      check.fail("accuracy_metres", "an accuracy is a distance in metres, 0 or more")
    }
    try check.finish()
    let settings = self.settings
    return try await commit { tx in
      guard let taxi = try tx.taxiForReport(driverUserID: driverUserID) else {
        throw ServiceError.notFound("no taxi is linked to your account; ask an admin to link one")
      }
      let verdict = PositionVerdict.of(
        position,
        at: instant,
        accuracyMetres: accuracyMetres,
        last: taxi.position,
        lastAt: taxi.positionAt,
        settings: settings
      )
      guard verdict == .used else { return (taxi, verdict) }
      let zoneID = self.zones.zone(for: position, current: taxi.zoneID, hysteresis: settings.zoneHysteresisMetres)?.id
      try tx.setPosition(code: taxi.code, position, at: instant, zoneID: zoneID)
      tx.record(.taxiMoved(code: taxi.code))
      if taxi.onRide, var ride = try tx.activeRide(taxiCode: taxi.code) {
        if ride.state == .inProgress {
          if let last = ride.lastPosition { ride.distanceMetres += last.distance(to: position) }
          ride.lastPosition = position
          ride.lastPositionAt = instant
          try tx.save(ride)
        }
        // The passenger's map follows the taxi.
        ride.taxiPosition = position
        ride.taxiPositionAt = instant
        tx.record(.rideChanged(ride))
      }
      guard zoneID != taxi.zoneID else {
        // Nothing a queue or a stream shows changed: answered without ranking the queue.
        var moved = taxi
        moved.position = position
        moved.positionAt = instant
        return (moved, verdict)
      }
      if zoneID == nil {
        try tx.leaveQueue(code: taxi.code)
      } else if taxi.available, !taxi.onRide {
        try tx.joinTail(code: taxi.code)
        try self.offerWaitingRides(tx, now: now)
      }
      return (try self.recordTaxi(tx, taxi.code), verdict)
    }
  }
}
