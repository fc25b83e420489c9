import BinarioProto
import Foundation
import GRDB
import GRPCCore

/// Passengers buy zone tickets, each purchase with its own idempotency key, retried with the
/// same key until acknowledged. Afterwards every acknowledged purchase is in its buyer's
/// history exactly once, and ticketing's charges are one per purchase, none for anything else.
struct TicketPurchases: ChaosLoad {
  let name = "ticket purchases"
  let clients: Clients
  let passengers: [Passenger]
  let acknowledgement: Acknowledgement
  /// Ticketing's database, read after the run.
  let database: URL
  let findings = Findings()
  /// Acknowledged purchase ids by buyer.
  private let acknowledged = Locked<[String: [String]]>([:])

  func run(until stop: ContinuousClock.Instant) async throws {
    try await eachAtOnce(passengers) { passenger in try await self.buy(as: passenger, until: stop) }
  }

  private func buy(as passenger: Passenger, until stop: ContinuousClock.Instant) async throws {
    var number = 0
    while ContinuousClock.now < stop {
      number += 1
      let key = "chaos-\(passenger.index)-\(number)"
      var retried = false
      attempts: while true {
        guard
          let quote = try await acknowledgement.untilAnswered(
            as: passenger.person,
            retried: &retried,
            { metadata, options in
              try await clients.tickets.quoteTicket(
                .with { $0.zone = .with { $0.zones = "Mi1-Mi3" } },
                metadata: metadata,
                options: options
              ).quote
            }
          )
        else {
          findings.unanswered("purchase with key \(key)")
          break attempts
        }
        do {
          guard
            let purchase = try await acknowledgement.untilAnswered(
              as: passenger.person,
              retried: &retried,
              { metadata, options in
                try await clients.tickets.purchaseTickets(
                  .with {
                    $0.quoteID = quote.quoteID
                    $0.idempotencyKey = key
                  },
                  metadata: metadata,
                  options: options
                ).purchase
              }
            )
          else {
            findings.unanswered("purchase with key \(key)")
            break attempts
          }
          findings.count("acknowledged")
          if retried { findings.count("acknowledged after a failed attempt") }
          acknowledged.withLock { $0[passenger.person.userID, default: []].append(purchase.purchaseID) }
          break attempts
        } catch let error as RPCError where error.code == .failedPrecondition && error.message.contains("expired") {
          continue attempts  // the quote ran out while ticketing was down: a new one, the same key
        } catch let error as RPCError {
          findings.broken("purchase with key \(key) refused: \(error.code): \(error.message)")
          break attempts
        }
      }
      try await Task.sleep(for: Self.pace)
    }
  }

  func check() async throws -> ChaosReport.Section {
    let acknowledged = self.acknowledged.withLock { $0 }
    var listed = 0
    for passenger in passengers {
      let ids = try await allPages { token in
        let answer = try await clients.tickets.listPurchases(
          .with {
            $0.pageSize = 100
            $0.pageToken = token
          },
          metadata: await passenger.person.metadata()
        )
        return (answer.purchases.map(\.purchaseID), answer.nextPageToken)
      }
      listed += ids.count
      let times = Dictionary(ids.map { ($0, 1) }, uniquingKeysWith: +)
      for id in acknowledged[passenger.person.userID] ?? [] where times[id] != 1 {
        findings.broken("acknowledged purchase \(id) is in its buyer's history \(times[id] ?? 0) times")
      }
      let told = Set(acknowledged[passenger.person.userID] ?? [])
      for id in times.keys where !told.contains(id) {
        findings.broken("purchase \(id) is in the history, but its buyer was never told it was made")
      }
    }
    var configuration = Configuration()
    configuration.readonly = true
    let (charges, unmatched, twice) = try await DatabaseQueue(path: database.path, configuration: configuration).read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM charge WHERE kind = 'charge' AND status = 'approved'") ?? 0,
        try String.fetchAll(
          db,
          sql: """
            SELECT reference FROM charge c WHERE kind = 'charge' AND status = 'approved'
            AND NOT EXISTS (SELECT 1 FROM purchase p WHERE p.id = c.reference AND p.status = 'completed' AND p.charge_id = c.id)
            """
        ),
        try String.fetchAll(
          db,
          sql: "SELECT reference FROM charge WHERE kind = 'charge' GROUP BY reference HAVING COUNT(*) > 1"
        )
      )
    }
    for reference in unmatched { findings.broken("a charge for \(reference) pays for no completed purchase") }
    for reference in twice { findings.broken("\(reference) was charged more than once") }
    return ChaosReport.Section(
      name: name,
      counts: [
        ("acknowledged", findings.value("acknowledged")),
        ("of them after a failed attempt", findings.value("acknowledged after a failed attempt")),
        ("in the histories", listed), ("cards charged", charges),
      ],
      violations: findings.violations
    )
  }
}
