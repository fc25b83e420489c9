import BinarioDomain
import BinarioPayments
import Foundation

/// Where a passenger wants to be picked up or taken: a position, or an address.
public enum RideLocation: Sendable, Hashable {
  case position(GeoPoint)
  case address(String)
}

/// A passenger's rides: the request, watching it, cancelling it, the history.
extension DispatchDomain {
  /// The most passengers one request may carry: a party larger than a taxi seats gets several.
  public static let maximumParty = 16

  /// Calls a taxi now (or several, for a party larger than the fleet's largest taxi seats: the
  /// party is split as evenly as it goes, each group its own ride, taxi and code). Needs a
  /// verified phone and a card on file; holds the cancellation fee on the card for each ride,
  /// then offers each job to the first taxi. A retry with the same idempotency key answers the
  /// rides the first call made. The first ride is the party's first group.
  public func requestRide(
    passengerUserID: String,
    pickup: RideLocation?,
    destination: RideLocation?,
    passengers: Int,
    idempotencyKey: String
  ) async throws -> [Ride] {
    var check = InputValidation()
    let count = passengers == 0 ? 1 : passengers
    if !(1 ... Self.maximumParty).contains(count) {
      check.fail("passengers", "a request takes 1 to \(Self.maximumParty) passengers; a party larger than a taxi gets several taxis")
    }
    let key = idempotencyKey.trimmingCharacters(in: .whitespaces)
    if key.count > 100 { check.fail("idempotency_key", "an idempotency key has at most 100 characters") }
    if pickup == nil { check.fail("pickup", "a pickup position or address is required") }
    try check.finish()
    let requestKey = key.isEmpty ? Self.newID("key") : key
    // What the request reads before its commit, in one snapshot (each read costs a transaction).
    let (earlier, open, kept, seats) = try await store.read { tx in
      (
        try self.requested(passengerUserID, requestKey, tx), try tx.openRide(passengerUserID: passengerUserID),
        try tx.passengerProfile(userID: passengerUserID), try tx.largestCapacity()
      )
    }
    if let earlier { return earlier }
    let from = try await resolve(pickup!, field: "pickup", userID: passengerUserID)
    guard !from.zoneID.isEmpty else {
      throw ServiceError.invalid("pickup", "the pickup is outside the city's taxi zones")
    }
    var to: RidePlace?
    if let destination { to = try await resolve(destination, field: "destination", userID: passengerUserID) }
    if let open {
      throw ServiceError.failedPrecondition("you already have ride \(open.id) open; cancel it or wait for it to end")
    }
    let (name, card) = try await passengerReadiness(passengerUserID, kept: kept)
    let groups = Self.partyGroups(count, seats: seats ?? 4)
    let partyID = groups.count > 1 ? Self.newID("party") : nil
    let tariff = settings.tariff
    var holds: [String] = []
    for index in groups.indices {
      let hold = try await payments.hold(
        ChargeRequest(
          cardToken: card.providerToken,
          cardLast4: card.last4,
          amountMinor: tariff.cancellationFeeMinor,
          currency: tariff.currency,
          reference: "ride-hold:\(passengerUserID):\(Self.slotKey(requestKey, index))",
          description: "Binario taxi: cancellation fee held"
        )
      )
      holds.append(hold.chargeID)
    }
    let now = clock.now()
    let prepared = groups.enumerated().map { index, size in
      var ride = Ride(
        id: Self.newID("ride"),
        passengerUserID: passengerUserID,
        passengerName: name,
        idempotencyKey: Self.slotKey(requestKey, index),
        state: .searching,
        pickup: from,
        destination: to,
        passengers: size,
        requestedAt: now,
        passengerCode: Self.newCode(),
        currency: tariff.currency,
        cardToken: card.providerToken,
        cardLast4: card.last4,
        holdID: holds[index]
      )
      ride.partyID = partyID
      ride.partyIndex = index
      if let to { ride.estimatedFareMinor = tariff.estimate(from: from.position, to: to.position) }
      return ride
    }
    let outcome: Result<[Ride], ServiceError> = try await commit { tx in
      if let earlier = try self.requested(passengerUserID, requestKey, tx) { return .success(earlier) }
      if let open = try tx.openRide(passengerUserID: passengerUserID) {
        return .failure(.failedPrecondition("you already have ride \(open.id) open; cancel it or wait for it to end"))
      }
      if let booked = try tx.overlappingReservations(
        passengerUserID: passengerUserID,
        from: now,
        to: now.addingTimeInterval(self.settings.openRideHorizon)
      ).first {
        return .failure(
          .failedPrecondition("your reservation \(booked.id) at \(self.clockTime(booked.meetingAt)) is due; delete it or wait for it")
        )
      }
      var rides: [Ride] = []
      for ride in prepared {
        var inserted = try tx.insertRide(ride)
        tx.record(.rideChanged(inserted))
        try self.offerNext(&inserted, tx, now: now)
        rides.append(inserted)
      }
      // As the passenger sees them once committed (read here: no second transaction).
      return .success(try rides.compactMap { ride in try tx.ride(id: ride.id).flatMap { try self.personalised($0, for: passengerUserID, tx) } })
    }
    switch outcome {
    case .success(let rides):
      return rides
    case .failure(let refusal):
      for (index, hold) in holds.enumerated() {
        try? await payments.release(holdID: hold, reference: "ride-hold-release:\(passengerUserID):\(Self.slotKey(requestKey, index))")
      }
      throw refusal
    }
  }

  /// The rides an earlier request with this key made (its party's, in order), if any.
  func requested(_ passengerUserID: String, _ requestKey: String, _ tx: DispatchTransaction) throws -> [Ride]? {
    guard let first = try tx.ride(passengerUserID: passengerUserID, idempotencyKey: requestKey) else { return nil }
    guard let partyID = first.partyID else { return [first] }
    return try tx.rides(where: "party_id = ?", [partyID])
  }

  /// A party of `count` split into the fewest taxis of `seats`, as evenly as it goes (7 in
  /// taxis of 4: 4 and 3).
  static func partyGroups(_ count: Int, seats: Int) -> [Int] {
    let taxis = (count + max(1, seats) - 1) / max(1, seats)
    return (0 ..< taxis).map { count / taxis + ($0 < count % taxis ? 1 : 0) }
  }

  /// The idempotency key of a party's ride `index` (the first keeps the request's key).
  static func slotKey(_ key: String, _ index: Int) -> String {
    index == 0 ? key : "\(key):party:\(index)"
  }

  /// A four-digit code a passenger tells the driver.
  static func newCode() -> String {
    String(format: "%04d", Int.random(in: 0 ... 9999))
  }

  /// The passenger's name, and their default card, or FAILED_PRECONDITION naming what is missing.
  /// Read from the profile identity's events keep (``PassengerProfile``); identity is asked only
  /// when that is missing or not ready, which it may be for the events' few milliseconds.
  func passengerReadiness(_ userID: String) async throws -> (name: String, card: CardOnFile) {
    try await passengerReadiness(userID, kept: try await store.read { tx in try tx.passengerProfile(userID: userID) })
  }

  /// ``passengerReadiness(_:)`` with the kept profile already read.
  func passengerReadiness(_ userID: String, kept: PassengerProfile?) async throws -> (name: String, card: CardOnFile) {
    if let kept, !kept.verifiedPhone.isEmpty, let card = kept.card {
      return (kept.displayName, card)
    }
    // Both asked of identity at once.
    async let found = accounts.accounts(ids: [userID])
    async let onFile = accounts.card(userID: userID, paymentMethodID: "")
    guard let account = try await found.first else {
      throw ServiceError.notFound("your account no longer exists")
    }
    let card = try await onFile
    let phone: PersonText = "a verified phone (add one with UpdateMe and confirm it with VerifyPhone)"
    let payment: PersonText = "a payment method on file (add a card with AddPaymentMethod)"
    switch (account.hasVerifiedPhone, card) {
    case (true, let card?): return (account.displayName, card)
    case (false, nil): throw ServiceError.failedPrecondition("before your first ride you need \(phone) and \(payment)")
    case (false, _): throw ServiceError.failedPrecondition("before your first ride you need \(phone)")
    case (true, nil): throw ServiceError.failedPrecondition("before your first ride you need \(payment)")
    }
  }

  /// A location as a place with its zone; an address is looked up (NOT_FOUND asks for a position).
  func resolve(_ location: RideLocation, field: String, userID: String) async throws -> RidePlace {
    switch location {
    case .position(let point):
      var check = InputValidation()
      _ = check.position(latitude: point.latitude, longitude: point.longitude, field: field)
      try check.finish()
      return RidePlace(position: point, address: "", zoneID: zones.zone(containing: point)?.id ?? "")
    case .address(let raw):
      let address = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !address.isEmpty, address.count <= 200 else {
        throw ServiceError.invalid(field, "an address has 1 to 200 characters")
      }
      guard let point = try await geocoder.position(of: address, userID: userID) else {
        throw ServiceError.notFound("\(field): the address \"\(address)\" is not known; give a position (latitude and longitude) instead")
      }
      return RidePlace(position: point, address: address, zoneID: zones.zone(containing: point)?.id ?? "")
    }
  }

  /// One of the passenger's rides as they see it: their own, or the shared ride their
  /// reservation is in (``personalised(_:for:_:)``).
  public func ride(id: String, passengerUserID: String) async throws -> Ride {
    let found = try await store.read { tx -> Ride? in
      guard let ride = try tx.ride(id: id) else { return nil }
      return try self.personalised(ride, for: passengerUserID, tx)
    }
    guard let found else { throw ServiceError.notFound("no ride \(id) of yours") }
    return found
  }

  /// Cancels a ride that has not started: free until a driver has accepted it and within the
  /// free period after the request; else the cancellation fee is taken (R2: it pays for a taxi
  /// already on its way). A rider of a shared ride leaves it alone: the others ride on, their
  /// shares recomputed and told. A taxi on its way gets its place in the queue back and its
  /// driver is told.
  public func cancelRide(id: String, passengerUserID: String) async throws -> Ride {
    let now = clock.now()
    let (rideID, chargeApart) = try await commitThenRefuse { tx -> Result<(String, Reservation?), ServiceError> in
      guard var ride = try tx.ride(id: id), try self.personalised(ride, for: passengerUserID, tx) != nil else {
        throw ServiceError.notFound("no ride \(id) of yours")
      }
      if let groupID = ride.groupID {
        guard var mine = try tx.members(groupID: groupID).first(where: { $0.passengerUserID == passengerUserID }) else {
          return .failure(.failedPrecondition("you left the shared ride \(id) already"))
        }
        guard ride.state.isOpen, mine.boardedAt == nil else {
          return .failure(.failedPrecondition("you are on board the ride \(id); it ends at your destination"))
        }
        let fee = ride.state.isActive ? self.settings.tariff.cancellationFeeMinor : 0
        mine.endReason = .passenger
        let apart = try self.withdraw(&mine, ride: ride, fee: fee, tx, now: now)
        return .success((ride.id, apart ? mine : nil))
      }
      switch ride.state {
      case .searching, .allocated, .arrived: break
      case .inProgress: return .failure(.failedPrecondition("the ride \(id) has started; it ends at the destination"))
      case .completed, .cancelled, .noTaxi: return .failure(.failedPrecondition("the ride \(id) has ended already"))
      }
      ride.endReason = .passenger
      try self.cancel(&ride, fee: self.cancellationFee(ride, now: now), tx, now: now)
      // The reservation it was booked as is cancelled with it.
      for var member in try tx.reservations(where: "ride_id = ? AND state = 'dispatched'", [ride.id]) {
        member.state = .cancelled
        member.cancelledAt = now
        member.cancellationFeeMinor = ride.cancellationFeeMinor
        member.endReason = .passenger
        try tx.save(member)
      }
      return .success((ride.id, nil))
    }
    if let chargeApart { try await chargeFee(of: chargeApart) }
    return try await self.ride(id: rideID, passengerUserID: passengerUserID)
  }

  /// What cancelling `ride` costs now: nothing until a driver accepted it, nor within the free
  /// period after the request; the cancellation fee after.
  func cancellationFee(_ ride: Ride, now: Date) -> Int64 {
    let tariff = settings.tariff
    guard ride.state.isActive, ride.allocatedAt != nil else { return 0 }
    return now.timeIntervalSince(ride.requestedAt) <= Double(tariff.freeCancellationSeconds) ? 0 : tariff.cancellationFeeMinor
  }

  /// Cancels an open ride (not started) in a transaction: its pending offer is withdrawn, a taxi
  /// on its way gets its place back and its driver is told (unless the driver ended it); `fee`
  /// is what its settlement takes.
  func cancel(_ ride: inout Ride, fee: Int64, tellDriver: Bool = true, _ tx: DispatchTransaction, now: Date) throws {
    if let offer = try tx.pendingOffer(rideSeq: ride.seq) {
      try tx.answer(offerID: offer.id, .withdrawn, at: now)
      tx.record(.offerWithdrawn(offerID: offer.id, taxiCode: offer.taxiCode, reason: "cancelled"))
      try recordTaxi(tx, offer.taxiCode)
    }
    let taxiCode = ride.state.isActive ? ride.taxiCode : nil
    ride.state = .cancelled
    ride.endedAt = now
    ride.nextRoundAt = nil
    ride.cancellationFeeMinor = fee
    if ride.endReason == .none { ride.endReason = .passenger }
    try tx.save(ride)
    tx.record(.rideChanged(ride))
    if let taxiCode, let taxi = try tx.taxi(code: taxiCode) {
      if taxi.available, taxi.zoneID != nil {
        let accepted = try tx.offers(where: "ride_seq = ? AND state = 'accepted'", [ride.seq]).last
        if let place = accepted?.queueSeq { try tx.rejoin(code: taxiCode, queueSeq: place) } else { try tx.joinTail(code: taxiCode) }
      }
      try recordTaxi(tx, taxiCode)
      if tellDriver, let driver = taxi.driverUserID {
        try tx.enqueue(
          OutboxMessage(
            dedupeKey: "dispatch:driver:cancelled:\(ride.id)",
            audience: .user,
            userID: driver,
            title: "Ride cancelled",
            body: "The passenger at \(Self.describe(ride.pickup)) cancelled; you are back in the queue.",
            data: ["ride_id": ride.id, "event": "cancelled", "url": "/#/driver"],
            pushOnly: true
          )
        )
      }
    }
    try offerWaitingRides(tx, now: now)
  }

  /// The passenger's rides as they saw them, newest first: their own, and the shared rides
  /// they were booked on.
  public func rides(passengerUserID: String, pageSize: Int, pageToken: String) async throws -> (rides: [Ride], nextPageToken: String) {
    let size = try Paging.size(pageSize)
    var before: Int64?
    if let cursor = try Paging.cursor(pageToken, parts: 1, listing: "ListMyRides") {
      guard let seq = Int64(cursor[0]), seq > 0 else { throw Paging.invalidToken("ListMyRides") }
      before = seq
    }
    let beforeSeq = before
    let page = try await store.read { tx in
      try tx.rides(passengerUserID: passengerUserID, beforeSeq: beforeSeq, limit: size + 1).compactMap {
        try self.personalised($0, for: passengerUserID, tx)
      }
    }
    let rides = Array(page.prefix(size))
    return (rides, page.count > size ? Paging.token(after: [String(rides.last!.seq)]) : "")
  }

  static func describe(_ place: RidePlace) -> String {
    place.address.isEmpty ? String(format: "%.5f, %.5f", place.position.latitude, place.position.longitude) : place.address
  }

  /// `14:05` in the city's time zone.
  func clockTime(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = settings.zone
    let parts = calendar.dateComponents([.hour, .minute], from: date)
    return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
  }
}
