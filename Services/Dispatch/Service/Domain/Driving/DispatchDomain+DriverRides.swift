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
      try self.enqueueToRiders(ride, event: "delayed", tx)
    }
  }

  /// The taxi is at the pickup: the passenger is told.
  public func reportArrived(driverUserID: String, rideID: String) async throws -> Ride {
    let now = clock.now()
    return try await driverRide(driverUserID, rideID, allowed: [.allocated]) { ride, tx in
      ride.state = .arrived
      ride.arrivedAt = now
      try self.enqueueToRiders(ride, event: "arrived", tx)
    }
  }

  /// A passenger is on board, having given the driver their code. The distance driven counts
  /// from the pickup (never the approach: the taxi's last report may be stale). A shared ride
  /// takes each rider on with their own code, the first one starting it.
  public func startRide(driverUserID: String, rideID: String, passengerCode: String) async throws -> Ride {
    let now = clock.now()
    let code = passengerCode.trimmingCharacters(in: .whitespaces)
    return try await driverRide(driverUserID, rideID, allowed: [.allocated, .arrived, .inProgress]) { ride, tx in
      let wrong = ServiceError.permissionDenied("that is not this ride's passenger code; ask the passenger for theirs")
      var boardedAt = ride.pickup.position
      if let groupID = ride.groupID {
        let members = try tx.members(groupID: groupID)
        guard var member = members.first(where: { $0.passengerCode == code }) else { throw wrong }
        guard member.boardedAt == nil else {
          throw ServiceError.failedPrecondition("\(member.passengerName) is on board already")
        }
        member.boardedAt = now
        try tx.save(member)
        boardedAt = member.pickup.position
      } else {
        guard ride.state != .inProgress else { throw ServiceError.failedPrecondition("the ride \(ride.id) is in progress") }
        guard code == ride.passengerCode else { throw wrong }
      }
      if ride.state != .inProgress {
        ride.state = .inProgress
        ride.startedAt = now
        if ride.arrivedAt == nil { ride.arrivedAt = now }
        ride.lastPosition = boardedAt
        ride.lastPositionAt = now
      }
    }
  }

  /// The passenger was not at the pickup: once the driver has waited the no-show time since
  /// arriving (or since the last rider boarded, on a shared ride), they mark them absent. The
  /// fee rule applies (a driver had accepted), the taxi gets its place in the queue back and
  /// the passenger is told. On a shared ride, `reservationID` names the rider; the others ride
  /// on.
  public func reportNoShow(driverUserID: String, rideID: String, reservationID: String) async throws -> Ride {
    let now = clock.now()
    let (ride, chargeApart) = try await commitThenRefuse { tx -> Result<(Ride, Reservation?), ServiceError> in
      var chargeApart: Reservation?
      let taxi = try self.driverTaxi(tx, driverUserID)
      guard var ride = try tx.ride(id: rideID), ride.taxiCode == taxi.code, ride.state.isOpen else {
        throw ServiceError.notFound("no ride \(rideID) of your taxi")
      }
      var waitingSince = ride.arrivedAt
      var member: Reservation?
      if let groupID = ride.groupID {
        let members = try tx.members(groupID: groupID)
        guard let found = members.first(where: { $0.id == reservationID }), found.boardedAt == nil else {
          throw ServiceError.invalid("reservation_id", "name a rider of this shared ride not yet on board")
        }
        member = found
        waitingSince = ([ride.arrivedAt] + members.map(\.boardedAt)).compactMap { $0 }.max()
        guard ride.state == .arrived || ride.state == .inProgress else {
          return .failure(.failedPrecondition("report that you are at the pickup first"))
        }
      } else if ride.state != .arrived {
        return .failure(.failedPrecondition("report that you are at the pickup first"))
      }
      let since = waitingSince ?? now
      let allowedAt = since.addingTimeInterval(self.settings.noShowWait)
      guard now >= allowedAt else {
        return .failure(
          .failedPrecondition(
            "wait for the passenger until \(self.clockTime(allowedAt)) (\(Int(self.settings.noShowWait / 60)) minutes after arriving) before marking them absent"
          )
        )
      }
      let fee = self.settings.tariff.cancellationFeeMinor
      if var absent = member {
        absent.endReason = .noShow
        if try self.withdraw(&absent, ride: ride, fee: fee, tx, now: now) { chargeApart = absent }
        let rider = Rider(userID: absent.passengerUserID, code: absent.passengerCode, pickup: absent.pickup, reservationID: absent.id)
        try tx.enqueue(self.passengerMessage(ride, to: rider, event: "no_show"))
        if let after = try tx.ride(id: ride.id) { ride = after }
      } else {
        try self.enqueueToRiders(ride, event: "no_show", tx)
        ride.endReason = .noShow
        try self.cancel(&ride, fee: fee, tellDriver: false, tx, now: now)
        for var booked in try tx.reservations(where: "ride_id = ? AND state = 'dispatched'", [ride.id]) {
          booked.state = .cancelled
          booked.cancelledAt = now
          booked.cancellationFeeMinor = fee
          booked.endReason = .noShow
          try tx.save(booked)
        }
      }
      try self.recordTaxi(tx, taxi.code)
      return .success((ride, chargeApart))
    }
    if let chargeApart { try await chargeFee(of: chargeApart) }
    return ride
  }

  /// The driver cannot do the job after all (a breakdown, a road closed): with a reason, they
  /// give it up before the passenger is on board. The ride is offered to the next taxi at once
  /// (not to this one again this round), its passengers told, the admins told why; the taxi
  /// goes to the tail of its zone's queue.
  public func giveUpRide(driverUserID: String, rideID: String, reason rawReason: String) async throws -> Ride {
    var check = InputValidation()
    let reason = check.requiredText(rawReason, field: "reason", what: "a reason", maxLength: 200)
    try check.finish()
    let now = clock.now()
    return try await commit { tx in
      let taxi = try self.driverTaxi(tx, driverUserID)
      guard var ride = try tx.ride(id: rideID), ride.taxiCode == taxi.code, ride.state.isOpen else {
        throw ServiceError.notFound("no ride \(rideID) of your taxi")
      }
      guard ride.state == .allocated || ride.state == .arrived else {
        throw ServiceError.failedPrecondition("a passenger is on board; complete the ride instead")
      }
      try self.enqueueToRiders(ride, event: "given_up", tx)
      try self.alertAdmins(
        OutboxMessage(
          dedupeKey: "dispatch:alert:given-up:\(ride.id):\(taxi.code)",
          audience: .admins,
          userID: "",
          title: "Taxi \(taxi.code) gave up a job",
          body: "Taxi \(taxi.code) gave up ride \(ride.id) at \(Self.describe(ride.pickup)): \(reason). It was offered again.",
          data: ["alert": "given_up", "taxi_code": taxi.code, "ride_id": ride.id]
        ),
        tx,
        now: now
      )
      if taxi.available, taxi.zoneID != nil { try tx.joinTail(code: taxi.code) }
      try self.searchAgain(&ride, tx, now: now)
      try self.recordTaxi(tx, taxi.code)
      return ride
    }
  }

  /// Puts an allocated ride back to searching (its taxi gave up or left service) and offers it
  /// to the next taxi at once.
  func searchAgain(_ ride: inout Ride, _ tx: DispatchTransaction, now: Date) throws {
    ride.state = .searching
    ride.taxiCode = nil
    ride.taxiPlate = ""
    ride.allocatedAt = nil
    ride.estimatedPickupAt = nil
    ride.arrivedAt = nil
    ride.delayed = false
    ride.nextRoundAt = nil
    try tx.save(ride)
    tx.record(.rideChanged(ride))
    try offerNext(&ride, tx, now: now)
  }

  /// The passenger is at the destination: the fare for the distance driven is charged and the
  /// taxi joins the tail of its zone's queue. A shared ride ends once every rider is on board
  /// or marked absent.
  public func completeRide(driverUserID: String, rideID: String) async throws -> Ride {
    let now = clock.now()
    let ride = try await driverRide(driverUserID, rideID, allowed: [.inProgress]) { ride, tx in
      if let groupID = ride.groupID, let waiting = try tx.members(groupID: groupID).first(where: { $0.boardedAt == nil }) {
        throw ServiceError.failedPrecondition("\(waiting.passengerName) is not on board: take them on with their code, or mark them absent")
      }
      try self.complete(&ride, tx, now: now)
    }
    return try await store.read { tx in try tx.ride(id: ride.id) } ?? ride
  }

  /// Ends a ride in progress in a transaction: its fare is set (a shared ride's riders' agreed
  /// shares, those never on board let go without charge; any other the distance driven) and an
  /// available taxi joins the tail of its queue.
  func complete(_ ride: inout Ride, _ tx: DispatchTransaction, now: Date) throws {
    ride.state = .completed
    ride.endedAt = now
    if let groupID = ride.groupID {
      var fare: Int64 = 0
      for var member in try tx.members(groupID: groupID) {
        if member.boardedAt == nil {
          member.state = .cancelled
          member.cancelledAt = now
          member.cancellationFeeMinor = 0
          member.endReason = ride.endReason == .none ? .passenger : ride.endReason
          try tx.save(member)
        } else {
          fare += member.fareMinor
        }
      }
      ride.fareMinor = fare
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
