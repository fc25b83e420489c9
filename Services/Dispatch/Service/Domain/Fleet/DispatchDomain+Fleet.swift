import BinarioDomain
import Foundation

/// The fleet: taxis and their drivers (admins), availability and positions (drivers).
extension DispatchDomain {
  // MARK: - Admin

  /// A new taxi, not available until its driver says so. A driver named must be an account with
  /// the driver role, driving no other taxi.
  public func createTaxi(code rawCode: String, plate rawPlate: String, capacity: Int, driverUserID: String?) async throws -> Taxi {
    var check = InputValidation()
    let code = check.requiredText(rawCode.uppercased(), field: "taxi.code", what: "a taxi code", maxLength: 20)
    let plate = check.requiredText(rawPlate.uppercased(), field: "taxi.plate", what: "a plate", maxLength: 20)
    let seats = capacity == 0 ? 4 : capacity
    if !(1 ... 8).contains(seats) { check.fail("taxi.capacity", "a taxi seats 1 to 8 passengers") }
    try check.finish()
    let driver = try await checkedDriver(driverUserID)
    return try await commit { tx in
      if try tx.taxi(code: code) != nil { throw ServiceError.alreadyExists("there is a taxi \(code) already") }
      if let other = try tx.taxiCode(plate: plate) { throw ServiceError.alreadyExists("taxi \(other) has the plate \(plate)") }
      if let driver, let other = try tx.taxiCode(driverUserID: driver) {
        throw ServiceError.failedPrecondition("that driver drives taxi \(other); unlink them there first")
      }
      try tx.insertTaxi(Taxi(code: code, plate: plate, capacity: seats, driverUserID: driver))
      return try self.recordTaxi(tx, code)
    }
  }

  /// Changes a taxi's plate, capacity or driver (`""` unlinks; `nil` keeps).
  public func updateTaxi(code rawCode: String, plate rawPlate: String?, capacity: Int?, driverUserID: String?) async throws -> Taxi {
    let code = rawCode.uppercased()
    var check = InputValidation()
    let plate = rawPlate.map { check.requiredText($0.uppercased(), field: "taxi.plate", what: "a plate", maxLength: 20) }
    if let capacity, !(1 ... 8).contains(capacity) { check.fail("taxi.capacity", "a taxi seats 1 to 8 passengers") }
    try check.finish()
    let driver = try await checkedDriver(driverUserID.flatMap { $0.isEmpty ? nil : $0 })
    let now = clock.now()
    return try await commit { tx in
      guard let taxi = try tx.taxi(code: code) else { throw ServiceError.notFound("no taxi \(code)") }
      let newPlate = plate ?? taxi.plate
      if newPlate != taxi.plate, let other = try tx.taxiCode(plate: newPlate) {
        throw ServiceError.alreadyExists("taxi \(other) has the plate \(newPlate)")
      }
      var newDriver = taxi.driverUserID
      if driverUserID != nil {
        newDriver = driver
        if newDriver != taxi.driverUserID && (taxi.onRide || taxi.hasPendingOffer) {
          throw ServiceError.failedPrecondition("taxi \(code) is on a job; change its driver when it is free")
        }
        if let newDriver, let other = try tx.taxiCode(driverUserID: newDriver), other != code {
          throw ServiceError.failedPrecondition("that driver drives taxi \(other); unlink them there first")
        }
      }
      try tx.updateTaxiDetails(code: code, plate: newPlate, capacity: capacity ?? taxi.capacity, driverUserID: newDriver)
      if newDriver != taxi.driverUserID {
        // A new driver signs on for themselves.
        try tx.setAvailability(code: code, available: false, reason: newDriver == nil ? "no driver" : "not signed on yet")
        try tx.leaveQueue(code: code)
        try self.withdrawOffer(ofTaxi: code, reason: "unavailable", tx, now: now)
      }
      return try self.recordTaxi(tx, code)
    }
  }

  /// Deletes a taxi that is not on a job.
  public func deleteTaxi(code rawCode: String) async throws {
    let code = rawCode.uppercased()
    try await commit { tx in
      guard let taxi = try tx.taxi(code: code) else { throw ServiceError.notFound("no taxi \(code)") }
      guard !taxi.onRide, !taxi.hasPendingOffer else {
        throw ServiceError.failedPrecondition("taxi \(code) is on a job; delete it when it is free")
      }
      try tx.deleteTaxi(code: code)
    }
  }

  /// Every taxi by code, with its drivers' names.
  public func taxis() async throws -> [(taxi: Taxi, driverName: String)] {
    let taxis = try await store.read { tx in try tx.allTaxis() }
    let names = try await driverNames(taxis)
    return taxis.map { ($0, $0.driverUserID.flatMap { names[$0] } ?? "") }
  }

  func driverNames(_ taxis: [Taxi]) async throws -> [String: String] {
    let ids = taxis.compactMap(\.driverUserID)
    guard !ids.isEmpty else { return [:] }
    return Dictionary(try await accounts.accounts(ids).map { ($0.userID, $0.displayName) }, uniquingKeysWith: { first, _ in first })
  }

  /// `nil` for none, else the id of an existing, enabled account with the driver role.
  func checkedDriver(_ userID: String?) async throws -> String? {
    guard let userID = userID?.trimmingCharacters(in: .whitespaces), !userID.isEmpty else { return nil }
    guard let account = try await accounts.accounts([userID]).first else {
      throw ServiceError.invalid("taxi.driver_user_id", "no account \(userID); create the driver with identity's CreateDriver")
    }
    guard account.isDriver, !account.disabled else {
      throw ServiceError.invalid("taxi.driver_user_id", "account \(userID) is not an enabled driver")
    }
    return userID
  }

  // MARK: - Drivers

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
