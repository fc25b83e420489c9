import BinarioDomain
import BinarioPayments
import Foundation

/// Reservations (G11–G12) and shared rides (G13–G14).
///
/// A reservation holds a meeting time at least the lead time ahead, an origin, a destination and
/// its passengers. With sharing on it joins a group: reservations from the same pickup zone to
/// the same destination zone whose meeting times are within the sharing window, while everyone
/// fits the taxi. A group rides as one ride; its route (every pickup, then every drop-off) and
/// each member's share of the fare are recomputed and sent when someone joins or leaves. A
/// background job dispatches each reservation (or group) the allocation lead before its meeting
/// time: a ride is created and offered like any other.
extension DispatchDomain {
  public func createReservation(
    passengerUserID: String,
    pickup: RideLocation?,
    destination: RideLocation?,
    meetingAt: Date?,
    passengers: Int,
    shared: Bool,
    idempotencyKey: String
  ) async throws -> Reservation {
    let now = clock.now()
    var check = InputValidation()
    let count = passengers == 0 ? 1 : passengers
    let seats = try await store.read { tx in try tx.largestCapacity() } ?? 4
    if !(1 ... seats).contains(count) { check.fail("passengers", "a reserved taxi takes 1 to \(seats) passengers") }
    if pickup == nil { check.fail("pickup", "a pickup position or address is required") }
    if destination == nil { check.fail("destination", "a reservation needs a destination") }
    if let meetingAt {
      if meetingAt < now.addingTimeInterval(settings.reservationLeadTime) {
        check.fail("meeting_at", "a reservation is made at least \(Int(settings.reservationLeadTime / 60)) minutes ahead")
      }
    } else {
      check.fail("meeting_at", "a meeting time is required")
    }
    let key = idempotencyKey.trimmingCharacters(in: .whitespaces)
    if key.count > 100 { check.fail("idempotency_key", "an idempotency key has at most 100 characters") }
    try check.finish()
    let requestKey = key.isEmpty ? Self.newID("key") : key
    if let earlier = try await store.read({ tx in try tx.reservation(passengerUserID: passengerUserID, idempotencyKey: requestKey) }) {
      return earlier
    }
    let from = try await resolve(pickup!, field: "pickup", userID: passengerUserID)
    guard !from.zoneID.isEmpty else { throw ServiceError.invalid("pickup", "the pickup is outside the city's taxi zones") }
    let to = try await resolve(destination!, field: "destination", userID: passengerUserID)
    let (name, card) = try await passengerReadiness(passengerUserID)
    let tariff = settings.tariff
    let reservation = Reservation(
      id: Self.newID("res"),
      passengerUserID: passengerUserID,
      passengerName: name,
      idempotencyKey: requestKey,
      state: .scheduled,
      pickup: from,
      destination: to,
      passengers: count,
      meetingAt: meetingAt!,
      endsAt: meetingAt!.addingTimeInterval(driveTime(metres: from.position.distance(to: to.position))),
      shared: shared,
      groupID: nil,
      currency: tariff.currency,
      fareMinor: tariff.estimate(from: from.position, to: to.position),
      cardToken: card.providerToken,
      cardLast4: card.last4,
      rideID: nil,
      createdAt: now,
      cancelledAt: nil,
      cancellationFeeMinor: nil,
      passengerCode: Self.newCode(),
      soloFareMinor: tariff.estimate(from: from.position, to: to.position)
    )
    return try await commit { tx in
      if let earlier = try tx.reservation(passengerUserID: passengerUserID, idempotencyKey: requestKey) { return earlier }
      try self.checkOverlap(reservation, tx, now: now)
      var booked = reservation
      try tx.insertReservation(booked)
      try self.group(&booked, tx, now: now)
      return try tx.reservation(id: booked.id) ?? booked
    }
  }

  /// Changes what is set, until the edit deadline; a shared reservation may move to another
  /// group (both re-split).
  public func updateReservation(
    id: String,
    passengerUserID: String,
    pickup: RideLocation?,
    destination: RideLocation?,
    meetingAt: Date?,
    passengers: Int?,
    shared: Bool?
  ) async throws -> Reservation {
    let now = clock.now()
    let seats = try await store.read { tx in try tx.largestCapacity() } ?? 4
    if let passengers, !(1 ... seats).contains(passengers) {
      throw ServiceError.invalid("passengers", "a reserved taxi takes 1 to \(seats) passengers")
    }
    if let meetingAt, meetingAt < now.addingTimeInterval(settings.reservationLeadTime) {
      throw ServiceError.invalid("meeting_at", "a reservation is made at least \(Int(settings.reservationLeadTime / 60)) minutes ahead")
    }
    var from: RidePlace?
    if let pickup {
      from = try await resolve(pickup, field: "pickup", userID: passengerUserID)
      guard from?.zoneID.isEmpty == false else { throw ServiceError.invalid("pickup", "the pickup is outside the city's taxi zones") }
    }
    var to: RidePlace?
    if let destination { to = try await resolve(destination, field: "destination", userID: passengerUserID) }
    let (newPickup, newDestination) = (from, to)
    return try await commit { tx in
      guard var reservation = try tx.reservation(id: id), reservation.passengerUserID == passengerUserID else {
        throw ServiceError.notFound("no reservation \(id) of yours")
      }
      guard reservation.state == .scheduled else {
        throw ServiceError.failedPrecondition("the reservation \(id) is \(reservation.state.rawValue); it can no longer change")
      }
      let deadline = reservation.meetingAt.addingTimeInterval(-self.settings.reservationEditCutoff)
      guard now <= deadline else {
        throw ServiceError.failedPrecondition(
          "the reservation \(id) could be changed until \(self.clockTime(deadline)); delete it instead (the fee applies in its last \(Int(self.settings.reservationAllocationLead / 60)) minutes)"
        )
      }
      let oldGroup = reservation.groupID
      if let newPickup { reservation.pickup = newPickup }
      if let newDestination { reservation.destination = newDestination }
      if let meetingAt { reservation.meetingAt = meetingAt }
      if let passengers { reservation.passengers = passengers }
      if let shared { reservation.shared = shared }
      reservation.endsAt = reservation.meetingAt.addingTimeInterval(
        self.driveTime(metres: reservation.pickup.position.distance(to: reservation.destination.position))
      )
      reservation.fareMinor = self.settings.tariff.estimate(from: reservation.pickup.position, to: reservation.destination.position)
      reservation.soloFareMinor = reservation.fareMinor
      try self.checkOverlap(reservation, tx, now: now)
      reservation.groupID = nil
      try tx.save(reservation)
      if let oldGroup { try self.resplit(group: oldGroup, tx, now: now) }
      try self.group(&reservation, tx, now: now)
      return try tx.reservation(id: id) ?? reservation
    }
  }

  /// Deletes a reservation: free until a driver has accepted its ride (in its last minutes),
  /// the cancellation fee after. A dispatched one leaves its ride (a shared ride's route and
  /// shares are redone; a ride left empty is cancelled). One whose ride found no taxi is always
  /// deleted, free.
  public func deleteReservation(id: String, passengerUserID: String) async throws -> Reservation {
    let now = clock.now()
    let tariff = settings.tariff
    let (reservation, chargeHere) = try await commit { tx -> (Reservation, Bool) in
      guard var reservation = try tx.reservation(id: id), reservation.passengerUserID == passengerUserID else {
        throw ServiceError.notFound("no reservation \(id) of yours")
      }
      guard reservation.state != .cancelled else { throw ServiceError.failedPrecondition("the reservation \(id) is deleted already") }
      let ride = try reservation.rideID.flatMap { try tx.ride(id: $0) }
      if let found = ride, found.state == .completed || (found.state == .inProgress && reservation.boardedAt != nil) {
        throw ServiceError.failedPrecondition(
          "the reservation's ride \(found.id) is \(found.state.rawValue.replacingOccurrences(of: "_", with: " ")); it can no longer be deleted"
        )
      }
      let fee = ride?.state.isActive == true ? tariff.cancellationFeeMinor : 0
      reservation.endReason = .passenger
      let chargeHere = try self.withdraw(&reservation, ride: ride, fee: fee, tx, now: now)
      return (reservation, chargeHere)
    }
    if chargeHere { try await chargeFee(of: reservation) }
    return reservation
  }

  /// Charges a reservation's cancellation fee apart from any ride's settlement (a rider who left
  /// a shared ride), and sends its receipt. Idempotent by the reservation.
  func chargeFee(of reservation: Reservation) async throws {
    guard let fee = reservation.cancellationFeeMinor, fee > 0 else { return }
    _ = try await payments.charge(
      ChargeRequest(
        cardToken: reservation.cardToken,
        cardLast4: reservation.cardLast4,
        amountMinor: fee,
        currency: reservation.currency,
        reference: "reservation:\(reservation.id):fee",
        description: "Binario taxi: reservation cancelled once its taxi was on its way"
      )
    )
    let receipt = feeReceipt(
      userID: reservation.passengerUserID,
      key: "reservation:\(reservation.id)",
      amount: Money(amountMinor: fee, currency: reservation.currency),
      cardLast4: reservation.cardLast4,
      data: ["reservation_id": reservation.id, "ride_id": reservation.rideID ?? ""]
    )
    try await commit { tx in try tx.enqueue(receipt) }
  }

  /// Cancels a reservation not ridden yet in a transaction, with `fee`. A dispatched one leaves
  /// its `ride`: a shared ride's route and shares are redone (a ride left empty is cancelled,
  /// its settlement taking the fee), a ride of its own is cancelled.
  /// - Returns: Whether the fee is charged apart (not by a ride's settlement).
  func withdraw(_ reservation: inout Reservation, ride: Ride?, fee: Int64, _ tx: DispatchTransaction, now: Date) throws -> Bool {
    reservation.state = .cancelled
    reservation.cancelledAt = now
    reservation.cancellationFeeMinor = fee
    if reservation.endReason == .none { reservation.endReason = .passenger }
    try tx.save(reservation)
    // A ride that ended already (no taxi found) is left as it is.
    let ride = ride.flatMap { $0.state.isOpen ? $0 : nil }
    if let groupID = reservation.groupID {
      let others = try tx.members(groupID: groupID)
      if others.isEmpty, var whole = ride {
        // The last member: the ride itself is cancelled (its settlement takes the fee).
        whole.endReason = reservation.endReason
        try cancel(&whole, fee: fee, tellDriver: reservation.endReason != .noShow, tx, now: now)
        return false
      }
      try resplit(group: groupID, tx, now: now)
      return fee > 0
    }
    if var solo = ride {
      solo.endReason = reservation.endReason
      try cancel(&solo, fee: fee, tellDriver: reservation.endReason != .noShow, tx, now: now)
      return false
    }
    return fee > 0
  }

  /// The passenger's reservations not deleted, soonest first.
  public func reservations(passengerUserID: String) async throws -> [Reservation] {
    try await store.read { tx in try tx.reservations(passengerUserID: passengerUserID) }
  }

  /// The passenger's reservations to come, soonest first, then their past ones (deleted, or
  /// whose meeting is over an hour gone) of the last `pastDays`, latest first.
  public func reservationsToComeAndPast(
    passengerUserID: String,
    pastDays: Int = 90
  ) async throws
    -> (toCome: [Reservation], past: [Reservation])
  {
    let now = clock.now()
    let all = try await store.read { tx in
      try tx.reservations(passengerUserID: passengerUserID, since: now.addingTimeInterval(-Double(pastDays) * 86400))
    }
    let toCome = all.filter { $0.state != .cancelled && $0.meetingAt > now.addingTimeInterval(-3600) }
    let past = all.filter { !toCome.contains($0) }.reversed()
    return (toCome, Array(past))
  }

  /// Dispatches every reservation (or shared group) whose taxi is due: a ride is created and
  /// offered like one called now, the cancellation fee held on the (first) passenger's card.
  /// Idempotent: a reservation dispatched is never dispatched again. Returns how many rides.
  @discardableResult
  public func dispatchDueReservations() async throws -> Int {
    let now = clock.now()
    let due = try await store.read { tx in try tx.dueReservations(until: now.addingTimeInterval(self.settings.reservationAllocationLead)) }
    var seen: Set<String> = []
    var dispatched = 0
    for reservation in due where seen.insert(reservation.groupID ?? reservation.id).inserted {
      do {
        if try await dispatch(reservation) { dispatched += 1 }
      } catch {
        logger.warning("dispatching a reservation failed; retrying", metadata: ["reservation_id": "\(reservation.id)", "error": "\(error)"])
      }
    }
    return dispatched
  }

  func dispatch(_ first: Reservation) async throws -> Bool {
    let unit = first.groupID ?? first.id
    let tariff = settings.tariff
    let hold = try await payments.hold(
      ChargeRequest(
        cardToken: first.cardToken,
        cardLast4: first.cardLast4,
        amountMinor: tariff.cancellationFeeMinor,
        currency: tariff.currency,
        reference: "reservation-hold:\(unit)",
        description: "Binario taxi: cancellation fee held"
      )
    )
    let now = clock.now()
    return try await commit { tx in
      let members = try (first.groupID.map { try tx.members(groupID: $0) } ?? [tx.reservation(id: first.id)].compactMap { $0 })
        .filter { $0.state == .scheduled }
      guard let leader = members.first else { return false }
      if let open = try tx.openRide(passengerUserID: leader.passengerUserID) {
        throw ServiceError.failedPrecondition("passenger has ride \(open.id) open")
      }
      let route = SharedRoute.plan(members)
      var ride = Ride(
        id: Self.newID("ride"),
        passengerUserID: leader.passengerUserID,
        passengerName: leader.passengerName,
        idempotencyKey: "reservation:\(unit)",
        state: .searching,
        pickup: route.first?.place ?? leader.pickup,
        destination: route.last?.place ?? leader.destination,
        passengers: members.map(\.passengers).reduce(0, +),
        requestedAt: now,
        passengerCode: leader.passengerCode,
        currency: tariff.currency,
        cardToken: leader.cardToken,
        cardLast4: leader.cardLast4,
        holdID: hold.chargeID
      )
      ride.reservationID = leader.id
      ride.groupID = first.groupID
      ride.meetingAt = members.map(\.meetingAt).min()
      ride.estimatedFareMinor = members.map(\.fareMinor).reduce(0, +)
      var inserted = try tx.insertRide(ride)
      for var member in members {
        member.state = .dispatched
        member.rideID = inserted.id
        try tx.save(member)
        try tx.enqueue(
          OutboxMessage(
            dedupeKey: "dispatch:reservation:\(member.id):dispatched",
            audience: .user,
            userID: member.passengerUserID,
            title: "Your taxi is being allocated",
            body:
              "For your \(self.clockTime(member.meetingAt)) reservation from \(Self.describe(member.pickup)): we are asking the taxis nearby now. Your code for the driver: \(member.passengerCode).",
            data: ["reservation_id": member.id, "ride_id": inserted.id, "event": "dispatched", "url": "/#/taxi/\(inserted.id)"]
          )
        )
      }
      tx.record(.rideChanged(inserted))
      try self.offerNext(&inserted, tx, now: now)
      return true
    }
  }

  // MARK: - Inside a transaction

  /// Refuses a reservation that overlaps another of the passenger's, or an open ride within the
  /// open-ride horizon.
  func checkOverlap(_ reservation: Reservation, _ tx: DispatchTransaction, now: Date) throws {
    if let other = try tx.overlappingReservations(
      passengerUserID: reservation.passengerUserID,
      from: reservation.meetingAt,
      to: reservation.endsAt,
      except: reservation.id
    ).first {
      throw ServiceError.failedPrecondition(
        "it overlaps your reservation \(other.id) at \(clockTime(other.meetingAt)); change or delete that one first"
      )
    }
    if let open = try tx.openRide(passengerUserID: reservation.passengerUserID),
      reservation.meetingAt < now.addingTimeInterval(settings.openRideHorizon)
    {
      throw ServiceError.failedPrecondition("it overlaps your ride \(open.id); book it for after that ride")
    }
  }

  /// Puts a scheduled shared reservation in a group it fits (or a new one) and re-splits it; a
  /// reservation not shared rides alone at its estimate.
  func group(_ reservation: inout Reservation, _ tx: DispatchTransaction, now: Date) throws {
    guard reservation.shared else {
      reservation.groupID = nil
      try tx.save(reservation)
      return
    }
    let seats = try tx.largestCapacity() ?? 4
    reservation.groupID = try tx.joinableGroup(for: reservation, window: settings.sharingWindow, capacity: seats) ?? Self.newID("grp")
    try tx.save(reservation)
    try resplit(group: reservation.groupID!, tx, now: now)
  }

  /// Recomputes a group's shares (and, once dispatched, its ride's route, seats and leader);
  /// tells each member whose share changed, or who now rides with others than before. No share
  /// is more than that member's trip alone (``SharedRoute/shares(_:tariff:)``, capped).
  func resplit(group groupID: String, _ tx: DispatchTransaction, now: Date) throws {
    let members = try tx.members(groupID: groupID)
    let shares = SharedRoute.shares(members, tariff: settings.tariff)
    for var member in members {
      let share = shares[member.id] ?? member.fareMinor
      let others = members.filter { $0.id != member.id }.map(\.passengers).reduce(0, +)
      if share != member.fareMinor || members.count > 1 {
        member.fareMinor = share
        try tx.save(member)
        let amount = Money(amountMinor: share, currency: member.currency)
        let alone = Money(amountMinor: member.soloFareMinor ?? share, currency: member.currency)
        try tx.enqueue(
          OutboxMessage(
            dedupeKey: "dispatch:share:\(member.id):\(members.map(\.id).joined(separator: ",")):\(share)",
            audience: .user,
            userID: member.passengerUserID,
            title: "Your shared taxi: \(amount)",
            body: others == 0
              ? "You are the only one in your shared taxi at \(clockTime(member.meetingAt)) for now; your fare is \(amount)."
              : "\(others) other passenger(s) now share your taxi at \(clockTime(member.meetingAt)); your share is \(amount) (never more than riding alone, \(alone)).",
            data: ["reservation_id": member.id, "event": "share", "share_minor": "\(share)", "currency": member.currency]
          )
        )
      }
    }
    guard var ride = try tx.ride(groupID: groupID), ride.state.isOpen else { return }
    guard let leader = members.first else { return }
    let route = SharedRoute.plan(members)
    ride.passengers = members.map(\.passengers).reduce(0, +)
    ride.passengerUserID = leader.passengerUserID
    ride.passengerName = leader.passengerName
    ride.estimatedFareMinor = members.map { shares[$0.id] ?? $0.fareMinor }.reduce(0, +)
    try tx.save(ride)
    ride.route = route
    tx.record(.rideChanged(ride))
  }
}

extension DispatchDomain {
  /// How many other passengers share each reservation's taxi so far, by reservation id.
  public func companions(of reservations: [Reservation]) async throws -> [String: Int] {
    try await store.read { tx in
      var counts: [String: Int] = [:]
      for reservation in reservations {
        guard let groupID = reservation.groupID, reservation.state != .cancelled else { continue }
        counts[reservation.id] = try tx.members(groupID: groupID).filter { $0.id != reservation.id }.map(\.passengers).reduce(0, +)
      }
      return counts
    }
  }

  /// Until when a reservation may be changed.
  public func editableUntil(_ reservation: Reservation) -> Date {
    reservation.meetingAt.addingTimeInterval(-settings.reservationEditCutoff)
  }
}
