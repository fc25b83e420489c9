import BinarioDomain
import BinarioPayments
import Foundation

/// What the background jobs do, each on the injected clock and idempotent across restarts.
extension DispatchDomain {
  /// Marks late rides delayed and tells their passengers (the estimate plus the grace passed
  /// without the taxi arriving), and alerts the admins once per ride whose taxi stopped
  /// reporting its position. Returns how many rides changed.
  @discardableResult
  public func runChecks() async throws -> Int {
    let now = clock.now()
    let grace = settings.delayGrace
    let silence = settings.positionSilenceAlert
    return try await commit { tx in
      var changed = 0
      for var ride in try tx.openRides() where ride.state.isActive {
        var touched = false
        if ride.state == .allocated, !ride.delayed, let estimate = ride.estimatedPickupAt, now > estimate.addingTimeInterval(grace) {
          ride.delayed = true
          ride.estimatedPickupAt = now.addingTimeInterval(grace)
          try self.enqueueToRiders(ride, event: "delayed", tx)
          touched = true
        }
        if !ride.positionAlerted, let code = ride.taxiCode, let taxi = try tx.taxi(code: code) {
          let lastHeard = max(taxi.positionAt ?? .distantPast, ride.allocatedAt ?? .distantPast)
          if now.timeIntervalSince(lastHeard) > silence {
            ride.positionAlerted = true
            try self.alertAdmins(
              OutboxMessage(
                dedupeKey: "dispatch:alert:silent:\(ride.id)",
                audience: .admins,
                userID: "",
                title: "Taxi \(code) is silent",
                body: "Taxi \(code), on ride \(ride.id), has not reported its position for \(Int(silence / 60)) minutes.",
                data: ["alert": "position_silence", "taxi_code": code, "ride_id": ride.id]
              ),
              tx,
              now: now
            )
            touched = true
          }
        }
        if touched {
          try tx.save(ride)
          tx.record(.rideChanged(ride))
          changed += 1
        }
      }
      return changed
    }
  }

  /// Settles every ended ride whose money is not settled (after a crash, or a provider that
  /// failed). Returns how many were settled.
  @discardableResult
  public func settleEndedRides() async throws -> Int {
    var settled = 0
    for ride in try await store.read({ tx in try tx.unsettledRides() }) {
      if await settle(rideID: ride.id) { settled += 1 }
    }
    return settled
  }

  /// Settles an ended ride: its fare (completed) or cancellation fee is charged and the hold
  /// released, and each rider charged is sent a receipt. Every payment carries a reference (and
  /// every receipt a key), so settling twice charges and tells nothing twice. Returns whether it
  /// is settled; a failure is logged and retried by ``settleEndedRides()``.
  @discardableResult
  func settle(rideID: String) async -> Bool {
    do {
      guard var ride = try await store.read({ tx in try tx.ride(id: rideID) }), !ride.settled, !ride.state.isOpen else {
        return true
      }
      var receipts: [OutboxMessage] = []
      let amount: Int64 = ride.state == .completed ? ride.fareMinor ?? 0 : ride.cancellationFeeMinor ?? 0
      let data = ["ride_id": ride.id, "url": "/#/taxi/\(ride.id)"]
      if ride.state == .completed, let groupID = ride.groupID {
        // Each member of a shared ride pays their share, on their own card.
        for member in try await store.read({ tx in try tx.members(groupID: groupID) }) where member.fareMinor > 0 {
          _ = try await payments.charge(
            ChargeRequest(
              cardToken: member.cardToken,
              cardLast4: member.cardLast4,
              amountMinor: member.fareMinor,
              currency: member.currency,
              reference: "ride:\(ride.id):share:\(member.id)",
              description: "Binario taxi: your share of shared ride \(ride.id)"
            )
          )
          receipts.append(
            fareReceipt(
              userID: member.passengerUserID,
              key: "ride:\(ride.id):\(member.id)",
              amount: Money(amountMinor: member.fareMinor, currency: member.currency),
              from: member.pickup,
              to: member.destination,
              metres: nil,
              cardLast4: member.cardLast4,
              data: data
            )
          )
        }
      } else if amount > 0 {
        let what = ride.state == .completed ? "fare" : "cancellation fee"
        _ = try await payments.charge(
          ChargeRequest(
            cardToken: ride.cardToken,
            cardLast4: ride.cardLast4,
            amountMinor: amount,
            currency: ride.currency,
            reference: "ride:\(ride.id):\(ride.state == .completed ? "fare" : "fee")",
            description: "Binario taxi: \(what), ride \(ride.id)"
          )
        )
        let money = Money(amountMinor: amount, currency: ride.currency)
        receipts.append(
          ride.state == .completed
            ? fareReceipt(
              userID: ride.passengerUserID,
              key: "ride:\(ride.id)",
              amount: money,
              from: ride.pickup,
              to: ride.destination,
              metres: ride.distanceMetres,
              cardLast4: ride.cardLast4,
              data: data
            )
            : feeReceipt(userID: ride.passengerUserID, key: "ride:\(ride.id)", amount: money, cardLast4: ride.cardLast4, data: data)
        )
      }
      try await payments.release(holdID: ride.holdID, reference: "ride:\(ride.id):release")
      ride.settled = true
      let (settledRide, told) = (ride, receipts)
      try await commit { tx in
        try tx.save(settledRide)
        tx.record(.rideChanged(settledRide))
        for receipt in told { try tx.enqueue(receipt) }
      }
      return true
    } catch {
      logger.warning("settling a ride failed; retrying later", metadata: ["ride_id": "\(rideID)", "error": "\(error)"])
      return false
    }
  }

  /// The receipt of a fare charged: the trip, its distance when driven alone, the amount and the
  /// card.
  func fareReceipt(
    userID: String,
    key: String,
    amount: Money,
    from: RidePlace,
    to: RidePlace?,
    metres: Double?,
    cardLast4: String,
    data: [String: String]
  ) -> OutboxMessage {
    let trip: PersonText =
      if let to { "from \(Self.describe(from)) to \(Self.describe(to))" } else { "from \(Self.describe(from))" }
    let body: PersonText =
      if let metres {
        "Your taxi ride \(trip), \(PersonText.number(metres / 1000, digits: 1)) km: \(amount) charged to your card ending \(cardLast4)."
      } else {
        "Your share of the shared taxi \(trip): \(amount) charged to your card ending \(cardLast4)."
      }
    return OutboxMessage(
      dedupeKey: "dispatch:receipt:\(key)",
      audience: .user,
      userID: userID,
      title: "Receipt: \(amount)",
      body: TranslatedText(body),
      data: data.merging(["event": "receipt"]) { $1 }
    )
  }

  /// The receipt of a cancellation fee charged.
  func feeReceipt(userID: String, key: String, amount: Money, cardLast4: String, data: [String: String]) -> OutboxMessage {
    OutboxMessage(
      dedupeKey: "dispatch:receipt:\(key):fee",
      audience: .user,
      userID: userID,
      title: "Cancellation fee: \(amount)",
      body: "\(amount) was charged to your card ending \(cardLast4): the taxi was already on its way.",
      data: data.merging(["event": "fee"]) { $1 }
    )
  }

  /// Sends what the outbox holds, oldest first, removing each once scheduling has it. Admin
  /// alerts go to the accounts of ``DispatchSettings/alertEmails``. Returns how many were sent;
  /// stops at the first failure (to retry later).
  @discardableResult
  public func sendOutbox(through notifier: any NotificationSender) async throws -> Int {
    var sent = 0
    var admins: [String]?
    while true {
      let batch = try await store.outbox(limit: 50)
      if batch.isEmpty { return sent }
      for message in batch {
        let recipients: [String]
        switch message.audience {
        case .user: recipients = [message.userID]
        case .admins:
          if admins == nil { admins = try await accounts.accounts(emails: settings.alertEmails).map(\.userID) }
          recipients = admins ?? []
        }
        if !recipients.isEmpty {
          try await notifier.send(
            PeerNotification(
              userIDs: recipients,
              kind: .taxiUpdate,
              title: message.title,
              body: message.body,
              data: message.data,
              dedupeKey: message.dedupeKey,
              pushOnly: message.pushOnly
            )
          )
        }
        try await store.removeFromOutbox(message)
        sent += 1
      }
    }
  }

}
