import BinarioProto
import GRPCCore
import Synchronization

/// Passengers keep editing their subscription's price, each edit retried until acknowledged.
/// Afterwards each subscription holds the last acknowledged price, and each passenger still
/// has exactly the one subscription.
struct SubscriptionEdits: ChaosLoad {
  let name = "subscription edits"
  let clients: Clients
  let passengers: [Passenger]
  let acknowledgement: Acknowledgement
  let findings = Findings()
  /// The last acknowledged price by subscription id.
  private let lastPrice = Locked<[String: Int64]>([:])

  func run(until stop: ContinuousClock.Instant) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      for passenger in passengers {
        group.addTask { try await self.edit(as: passenger, until: stop) }
      }
      try await group.waitForAll()
    }
  }

  private func edit(as passenger: Passenger, until stop: ContinuousClock.Instant) async throws {
    var price: Int64 = 1000
    while ContinuousClock.now < stop {
      price += 1
      var details = passenger.subscription
      details.price.amountMinor = price
      var retried = false
      do {
        guard
          let edited = try await acknowledgement.untilAnswered(as: passenger.person, retried: &retried, { metadata in
            try await clients.subscriptions.updateSubscription(
              .with { $0.subscriptionID = passenger.subscriptionID; $0.details = details }, metadata: metadata,
              options: Acknowledgement.options
            ).subscription
          })
        else {
          findings.unanswered("the edit of \(passenger.subscriptionID) to \(price)")
          return
        }
        findings.count("acknowledged")
        if retried { findings.count("acknowledged after a failed attempt") }
        if edited.details.price.amountMinor != price {
          findings.broken("the edit to \(price) answered with the price \(edited.details.price.amountMinor)")
        }
        lastPrice.withLock { $0[passenger.subscriptionID] = price }
      } catch let error as RPCError {
        findings.broken("the edit of \(passenger.subscriptionID) to \(price) refused: \(error.code): \(error.message)")
      }
      try await Task.sleep(for: Self.pace)
    }
  }

  func check() async throws -> ChaosReport.Section {
    let lastPrice = self.lastPrice.withLock { $0 }
    var atLastPrice = 0
    for passenger in passengers {
      let list = try await clients.subscriptions.listSubscriptions(.init(), metadata: await passenger.person.metadata())
      if list.mine.map(\.subscriptionID) != [passenger.subscriptionID] {
        findings.broken("passenger \(passenger.index) has subscriptions \(list.mine.map(\.subscriptionID)), not just \(passenger.subscriptionID)")
      }
      let price = list.mine.first?.details.price.amountMinor
      if let expected = lastPrice[passenger.subscriptionID], price != expected {
        findings.broken("\(passenger.subscriptionID) costs \(price ?? -1), not the last acknowledged \(expected)")
      } else {
        atLastPrice += 1
      }
    }
    return ChaosReport.Section(
      name: name,
      counts: [
        ("acknowledged", findings.value("acknowledged")),
        ("of them after a failed attempt", findings.value("acknowledged after a failed attempt")),
        ("subscriptions at their last price", atLastPrice),
      ],
      violations: findings.violations)
  }
}
