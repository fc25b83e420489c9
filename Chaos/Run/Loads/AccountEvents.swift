import BinarioProto
import BinarioTestSupport
import Foundation
import GRPCCore

/// Changes that travel as integration events (docs/events.md), made while processes die: people
/// who leave (their data in every service: a board, a position, a saved place, a subscription
/// shared with a passenger), owners who end a friendship with the passenger they share a
/// subscription with, and an admin who edits one date of the run a traveller holds a ticket for
/// (renaming it `<trip>@<date>`). Afterwards, with every consumer caught up: nothing of a person
/// who left is in any database, each passenger heard once of each subscription they no longer
/// share, and the ticket points at the renamed run.
struct AccountEvents: ChaosLoad {
  let name = "account events"
  let clients: Clients
  let admin: Person
  /// The people who leave, each with what they had.
  let leavers: [Leaver]
  /// Owners who end their friendship with a passenger, each with the subscription they shared.
  let partings: [Parting]
  /// The run the passenger's ticket is for, and that ticket.
  let renamed: (run: Binario_Scheduling_V1_RunRef, holder: Person, ticketID: String)
  let acknowledgement: Acknowledgement
  /// The suite's folder: its services' databases are read after the run.
  let folder: URL
  let findings = Findings()

  struct Leaver: Sendable {
    let person: Person
    let deviceID: String
    let subscriptionID: String
    let friend: Passenger
  }

  struct Parting: Sendable {
    let owner: Person
    let subscriptionID: String
    let friend: Passenger
  }

  /// Everything the changes need, made before the first kill.
  static func prepare(
    _ clients: Clients,
    cast: Cast,
    people: Int,
    acknowledgement: Acknowledgement,
    folder: URL
  ) async throws -> AccountEvents {
    let identity = clients.identity
    let adminTokens = try await identity.signInAdmin()
    func newPerson(_ email: String, friendOf passenger: Passenger) async throws -> Person {
      let tokens = try await identity.signUp(email: email, password: Cast.password, firstName: "Leaving", admin: adminTokens)
      let request = try await identity.sendFriendRequest(.with { $0.email = passenger.person.email }, metadata: bearer(tokens))
      _ = try await identity.respondToFriendRequest(
        .with {
          $0.requestID = request.request.requestID
          $0.accept = true
        },
        metadata: await passenger.person.metadata()
      )
      return Person(email: email, password: Cast.password, tokens: tokens, identity: identity)
    }
    func share(_ name: String, by owner: Person, with passenger: Passenger) async throws -> String {
      var details = passenger.subscription
      details.serviceName = name
      details.customServiceName = true
      return try await clients.subscriptions.addSubscription(
        .with {
          $0.details = details
          $0.sharedWithUserIds = [passenger.person.userID]
        },
        metadata: await owner.metadata()
      ).subscription.subscriptionID
    }
    var leavers: [Leaver] = []
    var partings: [Parting] = []
    for index in 0 ..< people {
      let friend = cast.passengers[index % cast.passengers.count]
      let leaver = try await newPerson("chaos-leaver-\(index)@example.com", friendOf: friend)
      let device = try await clients.telemetry.registerDevice(.with { $0.name = "leaver's board" }, metadata: await leaver.metadata())
      _ = try await clients.geoOffers.reportLocation(
        .with {
          $0.latitude = Cast.duomo.latitude
          $0.longitude = Cast.duomo.longitude
          $0.accuracyMetres = 20
        },
        metadata: await leaver.metadata()
      )
      _ = try await clients.dispatch.savePlace(
        .with {
          $0.place.name = "Home"
          $0.place.position = .with {
            $0.latitude = Cast.duomo.latitude
            $0.longitude = Cast.duomo.longitude
          }
        },
        metadata: await leaver.metadata()
      )
      let shared = try await share("Leaver \(index)'s club", by: leaver, with: friend)
      leavers.append(Leaver(person: leaver, deviceID: device.device.id, subscriptionID: shared, friend: friend))

      let owner = try await newPerson("chaos-parting-\(index)@example.com", friendOf: friend)
      partings.append(Parting(owner: owner, subscriptionID: try await share("Parting \(index)'s club", by: owner, with: friend), friend: friend))
    }

    // A third run from Milano Centrale, and a ticket for it.
    let board = try await clients.scheduling.getDeparturesBoard(
      .with {
        $0.stationID = "MI_CENTRALE"
        $0.limit = 50
      }
    )
    guard
      let departure = board.departures.first(where: { departure in
        departure.run.stops[0].scheduledDeparture.date > Date().addingTimeInterval(20 * 60)
          && !cast.runs.contains { $0.tripID == departure.run.run.tripID }
      })
    else { throw RPCError(code: .failedPrecondition, message: "the demo board has no third run leaving 20 minutes from now") }
    // A traveller of this load's own: the ticket purchases' load counts the passengers' tickets.
    let travellerTokens = try await identity.signUp(email: "chaos-traveller@example.com", password: Cast.password, admin: adminTokens)
    try await identity.addCard(to: travellerTokens)
    let holder = Person(email: "chaos-traveller@example.com", password: Cast.password, tokens: travellerTokens, identity: identity)
    let quote = try await clients.tickets.quoteTicket(
      .with {
        $0.station = .with {
          $0.run = .with {
            $0.tripID = departure.run.run.tripID
            $0.serviceDate = departure.run.run.serviceDate
          }
          $0.fromStationID = "MI_CENTRALE"
          $0.toStationID = departure.run.stops[1].station.stationID
        }
      },
      metadata: await holder.metadata()
    ).quote
    let ticket = try await clients.tickets.purchaseTickets(
      .with {
        $0.quoteID = quote.quoteID
        $0.idempotencyKey = "chaos-renamed-run"
      },
      metadata: await holder.metadata()
    ).purchase.tickets[0]
    return AccountEvents(
      clients: clients,
      admin: cast.admin,
      leavers: leavers,
      partings: partings,
      renamed: (departure.run.run, holder, ticket.ticketID),
      acknowledgement: acknowledgement,
      folder: folder
    )
  }

  /// The changes spread over the run, so kills land before, between and during them (the
  /// run's pace, not a wait for anything).
  func run(until stop: ContinuousClock.Instant) async throws {
    let start = ContinuousClock.now
    let changes = leavers.count + partings.count + 1
    func at(_ index: Int) -> ContinuousClock.Instant { start + (stop - start) * (Double(index) + 0.5) / Double(changes) }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, leaver) in leavers.enumerated() {
        group.addTask {
          try await Task.sleep(until: at(2 * index))
          try await self.leave(leaver)
        }
      }
      for (index, parting) in partings.enumerated() {
        group.addTask {
          try await Task.sleep(until: at(2 * index + 1))
          try await self.part(parting)
        }
      }
      group.addTask {
        try await Task.sleep(until: at(changes - 1))
        try await self.rename()
      }
      try await group.waitForAll()
    }
  }

  /// `DeleteMe` until answered. A token refused after an attempt whose answer was lost means the
  /// account is gone when signing in fails too.
  private func leave(_ leaver: Leaver) async throws {
    var retried = false
    while ContinuousClock.now < acknowledgement.settleBy {
      do {
        _ = try await clients.identity.deleteMe(
          .with { $0.password = Cast.password },
          metadata: await leaver.person.metadata(),
          options: Acknowledgement.options
        )
        return findings.count(retried ? "left after a failed attempt" : "left")
      } catch let error as RPCError where Acknowledgement.retried.contains(error.code) {
        retried = true
        acknowledgement.failures.add(error)
      } catch let error as RPCError where error.code == .unauthenticated {
        do {
          try await leaver.person.signIn()
        } catch let refused as RPCError where refused.code == .unauthenticated || refused.code == .notFound {
          return findings.count("left after a failed attempt")
        } catch let error as RPCError {
          acknowledgement.failures.add(error)
        }
      }
      try await Task.sleep(for: Self.pace)
    }
    findings.unanswered("\(leaver.person.email)'s DeleteMe")
  }

  /// The owner removes the friend; a retry after a lost answer finds them no longer friends.
  private func part(_ parting: Parting) async throws {
    var retried = false
    do {
      guard
        try await acknowledgement.untilAnswered(
          as: parting.owner,
          retried: &retried,
          { metadata, options in
            try await clients.identity.removeFriend(.with { $0.userID = parting.friend.person.userID }, metadata: metadata, options: options)
          }
        ) != nil
      else { return findings.unanswered("\(parting.owner.email)'s RemoveFriend") }
      findings.count("friendships ended")
    } catch let error as RPCError where error.code == .notFound && retried {
      findings.count("friendships ended")
    } catch let error as RPCError {
      findings.broken("\(parting.owner.email)'s RemoveFriend refused: \(error.code): \(error.message)")
    }
  }

  /// The admin edits the run's date alone; a retry after a lost answer finds the date gone from
  /// the old trip.
  private func rename() async throws {
    var retried = false
    do {
      guard
        try await acknowledgement.untilAnswered(
          as: admin,
          retried: &retried,
          { metadata, options in
            try await clients.scheduling.updateRun(
              .with {
                $0.run = renamed.run
                $0.headsign = "Renamed in the chaos"
              },
              metadata: metadata,
              options: options
            )
          }
        ) != nil
      else { return findings.unanswered("the UpdateRun of \(renamed.run.tripID)") }
      findings.count("runs renamed")
    } catch let error as RPCError where error.code == .notFound && retried {
      findings.count("runs renamed")
    } catch let error as RPCError {
      findings.broken("the UpdateRun of \(renamed.run.tripID) refused: \(error.code): \(error.message)")
    }
  }

  func check() async throws -> ChaosReport.Section {
    try await EventProgress.waitUntilApplied(
      by: ["telemetry", "scheduling", "geo-offers", "ticketing", "dispatch"],
      from: "identity",
      folder: folder
    )
    try await EventProgress.waitUntilApplied(by: ["ticketing", "geo-offers"], from: "scheduling", folder: folder)

    // Nothing of a person who left, anywhere but identity's audit log and event log.
    var clean = 0
    for leaver in leavers {
      var found: [String] = []
      for service in ["identity", "telemetry", "scheduling", "geo-offers", "ticketing", "dispatch"] {
        found += try DatabaseLeftovers.occurrences(
          of: [leaver.person.userID, leaver.person.email, leaver.deviceID],
          in: folder.appendingPathComponent("data/\(service)/\(service).sqlite")
        ).filter { service != "identity" || !($0.hasPrefix("audit_entry.") || $0.hasPrefix("event_log.")) }.map { "\(service): \($0)" }
      }
      if found.isEmpty { clean += 1 } else { findings.broken("\(leaver.person.email) left, but \(found.joined(separator: "; "))") }
    }

    // Each passenger no longer shares those subscriptions, and heard of each exactly once.
    var toldOnce = 0
    let ended = leavers.map { ($0.friend, $0.subscriptionID) } + partings.map { ($0.friend, $0.subscriptionID) }
    for (friend, subscriptionID) in ended {
      let metadata = await friend.person.metadata()
      let shared = try await clients.subscriptions.listSubscriptions(.init(), metadata: metadata).sharedWithMe
      if shared.contains(where: { $0.subscriptionID == subscriptionID }) {
        findings.broken("passenger \(friend.index) still shares \(subscriptionID)")
      }
      let inbox = try await allPages { token in
        let page = try await clients.notifications.listNotifications(
          .with {
            $0.pageToken = token
            $0.pageSize = 100
          },
          metadata: metadata
        )
        return (page.notifications, page.nextPageToken)
      }
      let told = inbox.filter { $0.data["subscription_id"] == subscriptionID }.count
      if told == 1 { toldOnce += 1 } else { findings.broken("passenger \(friend.index) was told \(told) times that \(subscriptionID) ended") }
    }

    // The ticket follows the renamed run.
    let expected = "\(renamed.run.tripID)@\(renamed.run.serviceDate)"
    let ticket = try await clients.tickets.getTicket(.with { $0.ticketID = renamed.ticketID }, metadata: await renamed.holder.metadata())
      .ticket
    let followed = ticket.outbound.run.tripID == expected
    if !followed { findings.broken("ticket \(renamed.ticketID) is for \(ticket.outbound.run.tripID), not the renamed \(expected)") }

    return ChaosReport.Section(
      name: name,
      counts: [
        ("accounts deleted", findings.value("left") + findings.value("left after a failed attempt")),
        ("of them after a failed attempt", findings.value("left after a failed attempt")),
        ("friendships ended", findings.value("friendships ended")),
        ("runs renamed", findings.value("runs renamed")),
        ("deleted accounts found nowhere", clean),
        ("ended shares told exactly once", toldOnce),
        ("tickets following the renamed run", followed ? 1 : 0),
      ],
      violations: findings.violations
    )
  }
}
