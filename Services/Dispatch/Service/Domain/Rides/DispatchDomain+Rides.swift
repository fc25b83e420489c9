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
  /// The most passengers a request may carry.
  public static let maximumPassengers = 4

  /// Calls a taxi now. Needs a verified phone and a card on file; holds the cancellation fee on
  /// the card, then offers the job to the first taxi. A retry with the same idempotency key
  /// answers the ride the first call made.
  public func requestRide(
    passengerUserID: String,
    pickup: RideLocation?,
    destination: RideLocation?,
    passengers: Int,
    idempotencyKey: String
  ) async throws -> Ride {
    var check = InputValidation()
    let count = passengers == 0 ? 1 : passengers
    if !(1 ... Self.maximumPassengers).contains(count) {
      check.fail("passengers", "a taxi takes 1 to \(Self.maximumPassengers) passengers")
    }
    let key = idempotencyKey.trimmingCharacters(in: .whitespaces)
    if key.count > 100 { check.fail("idempotency_key", "an idempotency key has at most 100 characters") }
    if pickup == nil { check.fail("pickup", "a pickup position or address is required") }
    try check.finish()
    let requestKey = key.isEmpty ? Self.newID("key") : key
    if let earlier = try await store.read({ tx in try tx.ride(passengerUserID: passengerUserID, idempotencyKey: requestKey) }) {
      return earlier
    }
    let from = try await resolve(pickup!, field: "pickup", userID: passengerUserID)
    guard !from.zoneID.isEmpty else {
      throw ServiceError.invalid("pickup", "the pickup is outside the city's taxi zones")
    }
    var to: RidePlace?
    if let destination { to = try await resolve(destination, field: "destination", userID: passengerUserID) }
    if let open = try await store.read({ tx in try tx.openRide(passengerUserID: passengerUserID) }) {
      throw ServiceError.failedPrecondition("you already have ride \(open.id) open; cancel it or wait for it to end")
    }
    let (name, card) = try await passengerReadiness(passengerUserID)
    let tariff = settings.tariff
    let hold = try await payments.hold(
      ChargeRequest(
        cardToken: card.providerToken,
        cardLast4: card.last4,
        amountMinor: tariff.cancellationFeeMinor,
        currency: tariff.currency,
        reference: "ride-hold:\(passengerUserID):\(requestKey)",
        description: "Binario taxi: cancellation fee held"
      )
    )
    let now = clock.now()
    var ride = Ride(
      id: Self.newID("ride"),
      passengerUserID: passengerUserID,
      passengerName: name,
      idempotencyKey: requestKey,
      state: .searching,
      pickup: from,
      destination: to,
      passengers: count,
      requestedAt: now,
      passengerCode: String(format: "%04d", Int.random(in: 0 ... 9999)),
      currency: tariff.currency,
      cardToken: card.providerToken,
      cardLast4: card.last4,
      holdID: hold.chargeID
    )
    if let to { ride.estimatedFareMinor = tariff.estimate(from: from.position, to: to.position) }
    let prepared = ride
    let outcome: Result<Ride, ServiceError> = try await commit { tx in
      if let earlier = try tx.ride(passengerUserID: passengerUserID, idempotencyKey: requestKey) { return .success(earlier) }
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
      var inserted = try tx.insertRide(prepared)
      tx.record(.rideChanged(inserted))
      try self.offerNext(&inserted, tx, now: now)
      return .success(inserted)
    }
    switch outcome {
    case .success(let ride):
      return ride.state.isOpen ? ride : try await self.ride(id: ride.id, passengerUserID: passengerUserID)
    case .failure(let refusal):
      try? await payments.release(holdID: hold.chargeID, reference: "ride-hold-release:\(passengerUserID):\(requestKey)")
      throw refusal
    }
  }

  /// The passenger's name, and their default card, or FAILED_PRECONDITION naming what is missing.
  func passengerReadiness(_ userID: String) async throws -> (name: String, card: CardOnFile) {
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

  /// One of the passenger's rides.
  /// One of the passenger's rides: theirs, or the shared ride their reservation is in.
  public func ride(id: String, passengerUserID: String) async throws -> Ride {
    let found = try await store.read { tx -> Ride? in
      guard var ride = try tx.ride(id: id) else { return nil }
      if let groupID = ride.groupID {
        let members = try tx.reservations(where: "group_id = ?", [groupID])
        guard ride.passengerUserID == passengerUserID || members.contains(where: { $0.passengerUserID == passengerUserID }) else {
          return nil
        }
        ride.route = SharedRoute.plan(members.filter { $0.state != .cancelled })
        return ride
      }
      return ride.passengerUserID == passengerUserID ? ride : nil
    }
    guard let found else { throw ServiceError.notFound("no ride \(id) of yours") }
    return found
  }

  /// Cancels a ride that has not started: free within the free period after the request, else
  /// the cancellation fee is taken. A taxi on its way gets its place in the queue back and its
  /// driver is told.
  public func cancelRide(id: String, passengerUserID: String) async throws -> Ride {
    let now = clock.now()
    let tariff = settings.tariff
    let ride = try await commitThenRefuse { tx -> Result<Ride, ServiceError> in
      guard var ride = try tx.ride(id: id), ride.passengerUserID == passengerUserID else {
        throw ServiceError.notFound("no ride \(id) of yours")
      }
      switch ride.state {
      case .searching, .allocated, .arrived: break
      case .inProgress: return .failure(.failedPrecondition("the ride \(id) has started; it ends at the destination"))
      case .completed, .cancelled, .noTaxi: return .failure(.failedPrecondition("the ride \(id) has ended already"))
      }
      let free = now.timeIntervalSince(ride.requestedAt) <= Double(tariff.freeCancellationSeconds)
      try self.cancel(&ride, fee: free ? 0 : tariff.cancellationFeeMinor, tx, now: now)
      // The reservations it was booked as are cancelled with it.
      for var member in try tx.reservations(where: "ride_id = ? AND state = 'dispatched'", [ride.id]) {
        member.state = .cancelled
        member.cancelledAt = now
        try tx.save(member)
      }
      return .success(ride)
    }
    return try await self.ride(id: ride.id, passengerUserID: passengerUserID)
  }

  /// Cancels an open ride (not started) in a transaction: its pending offer is withdrawn, a taxi
  /// on its way gets its place back and its driver is told; `fee` is what its settlement takes.
  func cancel(_ ride: inout Ride, fee: Int64, _ tx: DispatchTransaction, now: Date) throws {
    if let offer = try tx.pendingOffer(rideSeq: ride.seq) {
      try tx.answer(offerID: offer.id, .withdrawn, at: now)
      tx.record(.offerWithdrawn(offerID: offer.id, taxiCode: offer.taxiCode, reason: "cancelled"))
      try recordTaxi(tx, offer.taxiCode)
    }
    let taxiCode = ride.state.isActive ? ride.taxiCode : nil
    ride.state = .cancelled
    ride.endedAt = now
    ride.cancellationFeeMinor = fee
    try tx.save(ride)
    tx.record(.rideChanged(ride))
    if let taxiCode, let taxi = try tx.taxi(code: taxiCode) {
      if taxi.available, taxi.zoneID != nil {
        let accepted = try tx.offers(where: "ride_seq = ? AND state = 'accepted'", [ride.seq]).first
        if let place = accepted?.queueSeq { try tx.rejoin(code: taxiCode, queueSeq: place) } else { try tx.joinTail(code: taxiCode) }
      }
      try recordTaxi(tx, taxiCode)
      if let driver = taxi.driverUserID {
        try tx.enqueue(
          OutboxMessage(
            dedupeKey: "dispatch:driver:cancelled:\(ride.id)",
            audience: .user,
            userID: driver,
            title: "Ride cancelled",
            body: "The passenger at \(Self.describe(ride.pickup)) cancelled; you are back in the queue.",
            data: ["ride_id": ride.id, "event": "cancelled"],
            pushOnly: true
          )
        )
      }
    }
    try offerWaitingRides(tx, now: now)
  }

  /// The passenger's rides, newest first.
  public func rides(passengerUserID: String, pageSize: Int, pageToken: String) async throws -> (rides: [Ride], nextPageToken: String) {
    let size = try Paging.size(pageSize)
    var before: Int64?
    if let cursor = try Paging.cursor(pageToken, parts: 1, listing: "ListMyRides") {
      guard let seq = Int64(cursor[0]), seq > 0 else { throw Paging.invalidToken("ListMyRides") }
      before = seq
    }
    let beforeSeq = before
    let page = try await store.read { tx in try tx.rides(passengerUserID: passengerUserID, beforeSeq: beforeSeq, limit: size + 1) }
    let rides = Array(page.prefix(size))
    return (rides, page.count > size ? Paging.token(after: [String(rides.last!.seq)]) : "")
  }

  /// The passenger's notification (kind TAXI_UPDATE) of a ride's event.
  func passengerMessage(_ ride: Ride, event: String) -> OutboxMessage {
    let clock = ride.estimatedPickupAt.map { clockTime($0) } ?? ""
    let taxi = ride.taxiCode ?? ""
    let pickup = Self.describe(ride.pickup)
    let title: PersonText =
      switch event {
      case "allocated": "Taxi \(taxi) is on its way"
      case "delayed": "Your taxi is late"
      case "arrived": "Your taxi is here"
      case "no_taxi": "No taxi found"
      case "reallocating": "Finding you another taxi"
      case "ended_early": "Your ride has ended"
      case "closed": "Ride cancelled"
      default: "Ride update"
      }
    let body: PersonText =
      switch event {
      case "allocated":
        "Taxi \(taxi) (\(ride.taxiPlate)) will be at \(pickup) at about \(clock). Your code for the driver: \(ride.passengerCode)."
      case "delayed": "Taxi \(taxi) is delayed; it should now reach you at about \(clock)."
      case "arrived": "Taxi \(taxi) (\(ride.taxiPlate)) is waiting at \(pickup). Your code: \(ride.passengerCode)."
      case "no_taxi": "No taxi near \(pickup) could take your ride; nothing was charged. Please try again in a few minutes."
      case "reallocating": "The taxi on its way to \(pickup) is out of service; we are offering your ride to another one."
      case "ended_early": "Taxi \(taxi) went out of service during your ride; you pay only the distance driven."
      case "closed": "Your ride from \(pickup) was cancelled without charge: your account is suspended."
      default: "Your ride \(ride.id) is \(ride.state.rawValue)."
      }
    return OutboxMessage(
      dedupeKey: "dispatch:ride:\(ride.id):\(event)\(event == "delayed" ? ":\(Int(ride.estimatedPickupAt?.timeIntervalSince1970 ?? 0))" : "")",
      audience: .user,
      userID: ride.passengerUserID,
      title: TranslatedText(title),
      body: TranslatedText(body),
      data: ["ride_id": ride.id, "event": event, "taxi_code": ride.taxiCode ?? ""]
    )
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
