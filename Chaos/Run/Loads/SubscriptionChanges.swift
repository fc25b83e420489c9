import BinarioProto
import GRPCCore

/// Passengers keep changing their subscriptions: each adds one (with an idempotency key),
/// edits its price a few times, and removes every other one it added, each call retried until
/// acknowledged (a removal retried after a lost answer finds it gone: done). Afterwards each
/// passenger holds exactly the subscriptions acknowledged as added and not removed, each once,
/// at its last acknowledged price.
struct SubscriptionChanges: ChaosLoad {
  let name = "subscriptions"
  let clients: Clients
  let passengers: [Passenger]
  let acknowledgement: Acknowledgement
  let findings = Findings()
  /// What each passenger should hold: subscription id → last acknowledged price, by user id.
  private let held = Locked<[String: [String: Int64]]>([:])
  static let editsPerSubscription = 3

  func run(until stop: ContinuousClock.Instant) async throws {
    held.withLock { held in
      for passenger in passengers { held[passenger.person.userID] = [passenger.subscriptionID: passenger.subscription.price.amountMinor] }
    }
    try await eachAtOnce(passengers) { passenger in try await self.change(as: passenger, until: stop) }
  }

  private func change(as passenger: Passenger, until stop: ContinuousClock.Instant) async throws {
    var number = 0
    while ContinuousClock.now < stop {
      number += 1
      let key = "sub-\(passenger.index)-\(number)"
      var details = passenger.subscription
      details.serviceName = "Spotify"
      details.planType = "cycle \(number)"
      details.customPlanType = true
      var retried = false
      let added: Binario_Ticketing_V1_Subscription
      do {
        guard
          let answer = try await acknowledgement.untilAnswered(
            as: passenger.person,
            retried: &retried,
            { metadata, options in
              try await clients.subscriptions.addSubscription(
                .with {
                  $0.details = details
                  $0.idempotencyKey = key
                },
                metadata: metadata,
                options: options
              ).subscription
            }
          )
        else { return findings.unanswered("the add with key \(key)") }
        added = answer
      } catch let error as RPCError {
        findings.broken("the add with key \(key) refused: \(error.code): \(error.message)")
        continue
      }
      findings.count("added")
      if retried { findings.count("acknowledged after a failed attempt") }
      held.withLock { $0[passenger.person.userID]![added.subscriptionID] = details.price.amountMinor }

      for edit in 1 ... Self.editsPerSubscription {
        details.price.amountMinor = 1000 + Int64(number * 10 + edit)
        let id = added.subscriptionID
        let edited = details
        retried = false
        do {
          guard
            try await acknowledgement.untilAnswered(
              as: passenger.person,
              retried: &retried,
              { metadata, options in
                try await clients.subscriptions.updateSubscription(
                  .with {
                    $0.subscriptionID = id
                    $0.details = edited
                  },
                  metadata: metadata,
                  options: options
                )
              }
            ) != nil
          else { return findings.unanswered("the edit of \(id) to \(edited.price.amountMinor)") }
          findings.count("edited")
          if retried { findings.count("acknowledged after a failed attempt") }
          held.withLock { $0[passenger.person.userID]![id] = edited.price.amountMinor }
        } catch let error as RPCError {
          findings.broken("the edit of \(id) refused: \(error.code): \(error.message)")
        }
        try await Task.sleep(for: Self.pace)
      }

      if number % 2 == 0 {
        let id = added.subscriptionID
        retried = false
        do {
          guard
            try await acknowledgement.untilAnswered(
              as: passenger.person,
              retried: &retried,
              { metadata, options in
                try await clients.subscriptions.deleteSubscription(.with { $0.subscriptionID = id }, metadata: metadata, options: options)
              }
            ) != nil
          else { return findings.unanswered("the removal of \(id)") }
          findings.count("removed")
          if retried { findings.count("acknowledged after a failed attempt") }
          _ = held.withLock { $0[passenger.person.userID]!.removeValue(forKey: id) }
        } catch let error as RPCError where error.code == .notFound && retried {
          // The attempt whose answer was lost removed it.
          findings.count("removed")
          findings.count("acknowledged after a failed attempt")
          _ = held.withLock { $0[passenger.person.userID]!.removeValue(forKey: id) }
        } catch let error as RPCError {
          findings.broken("the removal of \(id) refused: \(error.code): \(error.message)")
        }
      }
      try await Task.sleep(for: Self.pace)
    }
  }

  func check() async throws -> ChaosReport.Section {
    let held = self.held.withLock { $0 }
    var found = 0
    for passenger in passengers {
      let expected = held[passenger.person.userID] ?? [:]
      let mine = try await clients.subscriptions.listSubscriptions(.init(), metadata: await passenger.person.metadata()).mine
      let times = Dictionary(mine.map { ($0.subscriptionID, 1) }, uniquingKeysWith: +)
      for (id, count) in times where count > 1 { findings.broken("\(id) is listed \(count) times") }
      for id in Set(times.keys).subtracting(expected.keys) {
        findings.broken("passenger \(passenger.index) holds \(id), which no acknowledged add left them (added twice, or not removed)")
      }
      for (id, price) in expected {
        guard let subscription = mine.first(where: { $0.subscriptionID == id }) else {
          findings.broken("passenger \(passenger.index)'s acknowledged \(id) is gone")
          continue
        }
        if subscription.details.price.amountMinor != price {
          findings.broken("\(id) costs \(subscription.details.price.amountMinor), not the last acknowledged \(price)")
        } else {
          found += 1
        }
      }
    }
    return ChaosReport.Section(
      name: name,
      counts: [
        ("added", findings.value("added")), ("edited", findings.value("edited")), ("removed", findings.value("removed")),
        ("of them after a failed attempt", findings.value("acknowledged after a failed attempt")),
        ("held at their last price", found),
      ],
      violations: findings.violations
    )
  }
}
