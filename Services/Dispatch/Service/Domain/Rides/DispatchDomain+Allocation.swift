import BinarioDomain
import Foundation

/// Offers and answers: the fair queues at work.
///
/// A searching ride is offered to one taxi at a time: the head of its pickup zone's queue among
/// the taxis that hold no other offer, seat its passengers and were not offered it before; when
/// the zone has none, the neighbouring zones in order (nearest first). When no such taxi exists
/// but some queued taxi of those zones is only busy with another offer, the ride waits and is
/// offered again as soon as a taxi is free (``offerWaitingRides(_:now:)``, oldest ride first).
/// When none exists at all, the ride ends with no taxi.
extension DispatchDomain {
  // MARK: - Answers

  /// The driver takes the offered job: the taxi is allocated and leaves its queue.
  public func accept(driverUserID: String, offerID: String) async throws -> Ride {
    let now = clock.now()
    return try await commitThenRefuse { tx in
      let taxi = try self.driverTaxi(tx, driverUserID)
      let offer = try self.offer(tx, offerID, of: taxi)
      guard offer.state == .pending else { return .failure(Self.answered(offer)) }
      guard offer.expiresAt > now else {
        try self.expire(offer, tx, now: now)
        try self.offerWaitingRides(tx, now: now)
        return .failure(.failedPrecondition("the offer \(offerID) expired at \(offer.expiresAt); the job went to another taxi"))
      }
      guard var ride = try tx.ride(seq: offer.rideSeq) else { throw ServiceError.notFound("no ride for offer \(offerID)") }
      try tx.answer(offerID: offer.id, .accepted, at: now)
      try tx.leaveQueue(code: taxi.code)
      try tx.setMissedOffers(code: taxi.code, 0)
      let distance = taxi.position.map { $0.distance(to: ride.pickup.position) } ?? offer.distanceMetres
      ride.state = .allocated
      ride.taxiCode = taxi.code
      ride.taxiPlate = taxi.plate
      ride.allocatedAt = now
      ride.estimatedPickupAt = now.addingTimeInterval(self.driveTime(metres: distance))
      try tx.save(ride)
      tx.record(.rideChanged(ride))
      try self.recordTaxi(tx, taxi.code)
      try self.enqueueToRiders(ride, event: "allocated", tx)
      return .success(ride)
    }
  }

  /// The driver declines the offered job: the taxi goes to the tail of its zone's queue and the
  /// next taxi is offered the job.
  public func reject(driverUserID: String, offerID: String) async throws -> Taxi {
    let now = clock.now()
    return try await commitThenRefuse { tx in
      let taxi = try self.driverTaxi(tx, driverUserID)
      let offer = try self.offer(tx, offerID, of: taxi)
      guard offer.state == .pending else { return .failure(Self.answered(offer)) }
      try tx.answer(offerID: offer.id, .rejected, at: now)
      if taxi.isQueued { try tx.joinTail(code: taxi.code) }
      try tx.setMissedOffers(code: taxi.code, 0)
      tx.record(.offerWithdrawn(offerID: offer.id, taxiCode: taxi.code, reason: "rejected"))
      if var ride = try tx.ride(seq: offer.rideSeq), ride.state == .searching {
        try self.offerNext(&ride, tx, now: now)
      }
      try self.offerWaitingRides(tx, now: now)
      return .success(try self.recordTaxi(tx, taxi.code))
    }
  }

  /// Expires every offer not answered in time: each taxi goes to the tail of its queue and the
  /// job to the next taxi. A taxi that let ``DispatchSettings/missedOffersAlert`` offers expire
  /// in a row is made unavailable and the admins are alerted. Returns how many expired.
  @discardableResult
  public func expireDueOffers() async throws -> Int {
    let now = clock.now()
    return try await commit { tx in
      let due = try tx.expiredOffers(now: now)
      for offer in due { try self.expire(offer, tx, now: now) }
      if !due.isEmpty { try self.offerWaitingRides(tx, now: now) }
      return due.count
    }
  }

  /// When the next pending offer expires; `nil` when none is pending.
  public func nextOfferExpiry() async throws -> Date? {
    try await store.read { tx in try tx.nextOfferExpiry() }
  }

  /// The offer-timeouts job's pass: expires the offers that are due and starts the search rounds
  /// that are (a read first; a write only when something is), then says how soon the next is due
  /// (`nil`: nothing pending). A restart simply does what fell due while the process was down.
  public func expireOffersPass() async throws -> Duration? {
    if let next = try await nextOfferExpiry(), next <= clock.now() {
      try await expireDueOffers()
    }
    if let next = try await nextSearchRound(), next <= clock.now() {
      try await startDueRounds()
    }
    let due = [try await nextOfferExpiry(), try await nextSearchRound()].compactMap { $0 }.min()
    return due.map { .milliseconds(Int64(max(0, $0.timeIntervalSince(clock.now())) * 1000)) }
  }

  // MARK: - Inside a transaction

  func expire(_ offer: Offer, _ tx: DispatchTransaction, now: Date) throws {
    try tx.answer(offerID: offer.id, .expired, at: now)
    tx.record(.offerWithdrawn(offerID: offer.id, taxiCode: offer.taxiCode, reason: "expired"))
    if let taxi = try tx.taxi(code: offer.taxiCode) {
      let missed = taxi.missedOffers + 1
      try tx.setMissedOffers(code: taxi.code, missed)
      if missed >= settings.missedOffersAlert {
        try tx.setAvailability(code: taxi.code, available: false, reason: "did not answer \(missed) offers in a row")
        try tx.leaveQueue(code: taxi.code)
        try self.alertAdmins(
          OutboxMessage(
            dedupeKey: "dispatch:alert:missed-offers:\(offer.id)",
            audience: .admins,
            userID: "",
            title: "Taxi \(taxi.code) is not answering",
            body: "Taxi \(taxi.code) let \(missed) offers in a row time out; it was made unavailable until its driver is back.",
            data: ["alert": "missed_offers", "taxi_code": taxi.code]
          ),
          tx,
          now: now
        )
      } else if taxi.isQueued {
        try tx.joinTail(code: taxi.code)
      }
      try recordTaxi(tx, taxi.code)
    }
    if var ride = try tx.ride(seq: offer.rideSeq), ride.state == .searching {
      try offerNext(&ride, tx, now: now)
    }
  }

  /// Offers a searching ride (that holds no pending offer) to the next taxi of its round's reach,
  /// or leaves it waiting for a busy one. When every taxi in reach was asked this round, the
  /// search pauses and goes round again, one ring of zones wider, the passenger told; past the
  /// search limit it ends with no taxi.
  func offerNext(_ ride: inout Ride, _ tx: DispatchTransaction, now: Date) throws {
    if let next = ride.nextRoundAt, next > now { return }
    if let groupID = ride.groupID, ride.route.isEmpty { ride.route = SharedRoute.plan(try tx.members(groupID: groupID)) }
    let zoneIDs = zones.reach(from: ride.pickup.zoneID, round: ride.searchRound)
    if ride.nextRoundAt != nil {
      ride.nextRoundAt = nil
      try tx.save(ride)
    }
    for zoneID in zoneIDs {
      guard let taxi = try tx.candidate(for: ride, in: zoneID) else { continue }
      let offer = Offer(
        id: Self.newID("off"),
        rideSeq: ride.seq,
        taxiCode: taxi.code,
        state: .pending,
        queueSeq: taxi.queueSeq,
        distanceMetres: taxi.position.map { $0.distance(to: ride.pickup.position) } ?? 0,
        offeredAt: now,
        expiresAt: now.addingTimeInterval(settings.offerTimeout),
        round: ride.searchRound
      )
      try tx.insertOffer(offer)
      tx.record(.offerMade(OfferedJob(offer: offer, ride: ride)))
      try tx.enqueue(offerPush(offer, ride: ride, taxi: taxi))
      var offered = taxi
      offered.hasPendingOffer = true
      tx.record(.taxiChanged(offered))
      return
    }
    if try tx.hasBusyCandidate(for: ride, in: zoneIDs) { return }
    let deadline = searchDeadline(ride)
    if now < deadline {
      // Everyone in reach was asked: ask again after a pause, one ring wider.
      ride.searchRound += 1
      ride.nextRoundAt = min(now.addingTimeInterval(settings.searchRoundPause), deadline)
      try tx.save(ride)
      tx.record(.rideChanged(ride))
      if ride.searchRound == 2 { try enqueueToRiders(ride, event: "searching_again", tx) }
      return
    }
    ride.state = .noTaxi
    ride.endReason = .noTaxi
    ride.endedAt = now
    try tx.save(ride)
    tx.record(.rideChanged(ride))
    try enqueueToRiders(ride, event: "no_taxi", tx)
    let zoneName = zones.zone(id: ride.pickup.zoneID)?.name ?? ride.pickup.zoneID
    try self.alertAdmins(
      OutboxMessage(
        dedupeKey: "dispatch:alert:no-taxi:\(ride.id)",
        audience: .admins,
        userID: "",
        title: "No taxi for a request",
        body: "Ride \(ride.id) in \(zoneName) found no taxi in \(ride.searchRound) rounds of asking.",
        data: ["alert": "no_taxi", "ride_id": ride.id, "zone_id": ride.pickup.zoneID]
      ),
      tx,
      now: now
    )
  }

  /// Offers every searching ride that holds no offer and whose next round is due: the rides
  /// that wait for a free taxi, and those pausing between rounds. Returns how many it looked at.
  @discardableResult
  public func startDueRounds() async throws -> Int {
    let now = clock.now()
    return try await commit { tx in try self.offerWaitingRides(tx, now: now) }
  }

  /// When the next paused search goes round again; `nil` when none is paused.
  public func nextSearchRound() async throws -> Date? {
    try await store.read { tx in try tx.nextSearchRound() }
  }

  /// A push to the driver of an offer, for a driver whose page is closed (their open stream
  /// has it at once).
  func offerPush(_ offer: Offer, ride: Ride, taxi: Taxi) -> OutboxMessage {
    let destination = ride.destination.map { Self.describe($0) } ?? ""
    let body: PersonText =
      destination.isEmpty
      ? "Pickup at \(Self.describe(ride.pickup)), \(Int(offer.distanceMetres.rounded())) m away. Answer by \(clockTime(offer.expiresAt))."
      : "Pickup at \(Self.describe(ride.pickup)), \(Int(offer.distanceMetres.rounded())) m away, to \(destination). Answer by \(clockTime(offer.expiresAt))."
    return OutboxMessage(
      dedupeKey: "dispatch:offer:\(offer.id)",
      audience: .user,
      userID: taxi.driverUserID ?? "",
      title: "New job for taxi \(taxi.code)",
      body: TranslatedText(body),
      data: ["offer_id": offer.id, "ride_id": ride.id, "event": "offer", "url": "/#/driver"],
      pushOnly: true
    )
  }

  /// Offers every ride that waits for a free taxi or a new round that is due, oldest first.
  @discardableResult
  func offerWaitingRides(_ tx: DispatchTransaction, now: Date) throws -> Int {
    let waiting = try tx.ridesWaitingForTaxi(now: now)
    for var ride in waiting {
      try offerNext(&ride, tx, now: now)
    }
    return waiting.count
  }

  /// Withdraws a taxi's pending offer (the taxi keeps its place) and offers the job to the next.
  func withdrawOffer(ofTaxi code: String, reason: String, _ tx: DispatchTransaction, now: Date) throws {
    guard let offer = try tx.pendingOffer(taxiCode: code) else { return }
    try tx.answer(offerID: offer.id, .withdrawn, at: now)
    tx.record(.offerWithdrawn(offerID: offer.id, taxiCode: code, reason: reason))
    if var ride = try tx.ride(seq: offer.rideSeq), ride.state == .searching {
      try offerNext(&ride, tx, now: now)
    }
  }

  /// The caller's taxi, or NOT_FOUND.
  func driverTaxi(_ tx: DispatchTransaction, _ driverUserID: String) throws -> Taxi {
    guard let taxi = try tx.taxi(driverUserID: driverUserID) else {
      throw ServiceError.notFound("no taxi is linked to your account; ask an admin to link one")
    }
    return taxi
  }

  func offer(_ tx: DispatchTransaction, _ offerID: String, of taxi: Taxi) throws -> Offer {
    guard let offer = try tx.offer(id: offerID), offer.taxiCode == taxi.code else {
      throw ServiceError.notFound("no offer \(offerID) for your taxi")
    }
    return offer
  }

  static func answered(_ offer: Offer) -> ServiceError {
    switch offer.state {
    case .accepted: return .failedPrecondition("the offer \(offer.id) was accepted already")
    case .rejected: return .failedPrecondition("the offer \(offer.id) was rejected already")
    case .expired: return .failedPrecondition("the offer \(offer.id) expired; the job went to another taxi")
    case .withdrawn, .pending: return .failedPrecondition("the offer \(offer.id) was withdrawn (the passenger cancelled)")
    }
  }

  /// Records the taxi as it is now for its driver's stream and the control room.
  @discardableResult
  func recordTaxi(_ tx: DispatchTransaction, _ code: String) throws -> Taxi {
    guard let taxi = try tx.taxi(code: code) else { throw ServiceError.notFound("no taxi \(code)") }
    tx.record(.taxiChanged(taxi))
    return taxi
  }

  /// How long a taxi takes to drive `metres` as the crow flies (with the detour factor), at
  /// least a minute.
  func driveTime(metres: Double) -> TimeInterval {
    max(60, (metres * settings.tariff.detourFactor / 1000) / settings.citySpeedKmh * 3600)
  }
}
