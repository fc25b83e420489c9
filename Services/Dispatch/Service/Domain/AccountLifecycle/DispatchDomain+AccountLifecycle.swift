import BinarioDomain
import Foundation

/// What dispatch erased or de-identified of a deleted account.
public struct DispatchErasure: Sendable, Hashable {
  public let rides: Int
  public let reservations: Int
  /// Whether the person drove a taxi (it left its queue, without a driver).
  public let drove: Bool
}

/// An account's life as dispatch follows it from identity's events (docs/data-map.md).
///
/// Deleted: the person's open rides and reservations are cancelled without a fee; their taxi,
/// when they drive one, leaves its queue without a driver (a job offered goes to the next taxi,
/// a passenger waiting for it gets another, a ride in progress ends with the fare so far); their
/// history keeps its fares, dates and zones without them; their saved places and waiting
/// messages are erased, and so is their profile. Disabled: their waiting requests and reservations are cancelled without
/// a fee and their taxi leaves its queue the same way. Each change commits with the event's
/// position (exactly once).
extension DispatchDomain {
  public func accountDeleted(userID: String, position: EventPosition) async throws -> DispatchErasure {
    // Money owed on ended rides is taken while the card is still known (a failure leaves the
    // event to be applied again later).
    for ride in try await store.unsettledRides(passengerUserID: userID) {
      guard await settle(rideID: ride.id) else {
        throw ServiceError.failedPrecondition("ride \(ride.id) of a deleted account is not settled yet; its erasure waits")
      }
    }
    let now = clock.now()
    return try await commit { tx in
      try self.endPassengerBookings(of: userID, includingRidesInProgress: true, tx, now: now)
      let taxi = try tx.taxi(driverUserID: userID)
      if let taxi { try self.removeDriver(of: taxi, reason: "no driver", unlink: true, tx, now: now) }
      let erased = try tx.eraseAccount(userID: userID)
      try tx.advanceEventCursor(to: position, at: now)
      return DispatchErasure(rides: erased.rides, reservations: erased.reservations, drove: taxi != nil)
    }
  }

  /// Keeps what a request needs about the passenger (``PassengerProfile``), so a request asks
  /// identity nothing when it is ready.
  public func accountProfileChanged(_ profile: PassengerProfile, position: EventPosition) async throws {
    let now = clock.now()
    try await commit { tx in
      try tx.savePassengerProfile(profile, at: now)
      try tx.advanceEventCursor(to: position, at: now)
    }
  }

  public func accountDisabled(userID: String, position: EventPosition) async throws {
    let now = clock.now()
    try await commit { tx in
      try self.endPassengerBookings(of: userID, includingRidesInProgress: false, tx, now: now)
      if let taxi = try tx.taxi(driverUserID: userID) {
        try self.removeDriver(of: taxi, reason: "the driver's account is disabled", unlink: false, tx, now: now)
      }
      try tx.advanceEventCursor(to: position, at: now)
    }
  }

  /// Cancels the passenger's reservations and rides not ridden yet without a fee, telling them
  /// and the drivers concerned. A ride in progress ends too when `includingRidesInProgress` (the
  /// passenger left): a shared one goes on for the others, their own share forgiven.
  func endPassengerBookings(of userID: String, includingRidesInProgress: Bool, _ tx: DispatchTransaction, now: Date) throws {
    for var reservation in try tx.reservations(passengerUserID: userID) {
      let ride = try reservation.rideID.flatMap { try tx.ride(id: $0) }
      if let ride, !ride.state.isOpen { continue }
      if let ride, ride.state == .inProgress {
        guard includingRidesInProgress else { continue }
        reservation.state = .cancelled
        reservation.cancelledAt = now
        reservation.cancellationFeeMinor = 0
        reservation.fareMinor = 0
        try tx.save(reservation)
        continue
      }
      reservation.endReason = .accountClosed
      _ = try withdraw(&reservation, ride: ride, fee: 0, tx, now: now)
      try tx.enqueue(reservationClosedMessage(reservation))
    }
    for var ride in try tx.openRides(passengerUserID: userID) where ride.groupID == nil {
      if ride.state == .inProgress && !includingRidesInProgress { continue }
      ride.endReason = .accountClosed
      try cancel(&ride, fee: 0, tx, now: now)
      try enqueueToRiders(ride, event: "closed", tx)
    }
  }

  /// Takes `taxi` out of service: it leaves its queue, unavailable for `reason` (and without a
  /// driver when `unlink`); its pending offer goes to the next taxi; a passenger waiting for it
  /// is offered another; a ride in progress ends with the fare for the distance driven.
  func removeDriver(of taxi: Taxi, reason: String, unlink: Bool, _ tx: DispatchTransaction, now: Date) throws {
    try tx.setAvailability(code: taxi.code, available: false, reason: reason)
    try tx.leaveQueue(code: taxi.code)
    if unlink { try tx.updateTaxiDetails(code: taxi.code, plate: taxi.plate, capacity: taxi.capacity, driverUserID: nil) }
    try withdrawOffer(ofTaxi: taxi.code, reason: "unavailable", tx, now: now)
    if var ride = try tx.activeRide(taxiCode: taxi.code) {
      if ride.state == .inProgress {
        ride.endReason = .taxiOutOfService
        try complete(&ride, tx, now: now)
        tx.record(.rideChanged(ride))
        try enqueueToRiders(ride, event: "ended_early", tx)
      } else {
        try enqueueToRiders(ride, event: "reallocating", tx)
        try searchAgain(&ride, tx, now: now)
      }
    }
    try recordTaxi(tx, taxi.code)
  }

  /// The passenger's notification that a reservation ended with their account's suspension.
  func reservationClosedMessage(_ reservation: Reservation) -> OutboxMessage {
    OutboxMessage(
      dedupeKey: "dispatch:reservation:\(reservation.id):closed",
      audience: .user,
      userID: reservation.passengerUserID,
      title: "Reservation cancelled",
      body: "Your taxi at \(clockTime(reservation.meetingAt)) was cancelled without charge: your account is suspended.",
      data: ["reservation_id": reservation.id, "event": "closed"]
    )
  }
}
