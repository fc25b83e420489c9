import AsyncHTTPClient
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRDB
import GRPCCore
import NIOCore
import NIOSSL
import SwiftProtobuf
import Testing

/// Ticketing through the gateway over TLS, on one suite start: a ticket for a demo-network run
/// bought with an idempotency key (again and concurrently: one charge), the wallet showing the
/// run's live platform, an admin's delay reaching the holder's stream, a declined card selling
/// nothing, an inspector validating (a single ride once, a carnet counting down, an altered code
/// refused), subscriptions shared among friends, and an acknowledged purchase surviving
/// `kill -9` of ticketing, its retry charging nothing more.
@Suite("Ticketing, end to end through the gateway", .serialized)
struct TicketingTests {
  typealias Tickets = Binario_Ticketing_V1_Tickets.Client<BinarioClientTransport>
  typealias Subscriptions = Binario_Ticketing_V1_Subscriptions.Client<BinarioClientTransport>
  typealias Scheduling = Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>

  @Test func ticketsSubscriptionsAndAKill() async throws {
    try await RunningSuite.with { suite in
      try await suite.waitUntilTheGatewaySeesServing("ticketing")
      try await suite.withGatewayConnection { connection in
        let identity = Binario_Identity_V1_Identity.Client(wrapping: connection)
        let tickets = Tickets(wrapping: connection)
        let scheduling = Scheduling(wrapping: connection)
        let admin = try await identity.signInAdmin()
        let ada = try await identity.signUp(email: "ada@example.com", admin: admin)
        try await identity.addCard(to: ada)

        // A run leaving Milano Centrale in ten minutes or more, to its next stop.
        let board = try await scheduling.getDeparturesBoard(
          .with {
            $0.stationID = "MI_CENTRALE"
            $0.limit = 20
          }
        )
        let departure = try #require(
          board.departures.first { $0.run.stops[0].scheduledDeparture.date > Date().addingTimeInterval(600) }
        )
        let run = departure.run.run
        let next = departure.run.stops[1].station.stationID
        let quote = try await tickets.quoteTicket(
          .with {
            $0.station = .with {
              $0.run = .with {
                $0.tripID = run.tripID
                $0.serviceDate = run.serviceDate
              }
              $0.fromStationID = "MI_CENTRALE"
              $0.toStationID = next
            }
            $0.passengers = 2
          },
          metadata: bearer(ada)
        ).quote
        #expect(quote.total.currency == "EUR" && quote.total.amountMinor > 0 && quote.passengers == 2)

        // The same key, concurrently and again: one purchase, one charge.
        let bought = try await withThrowingTaskGroup(of: Binario_Ticketing_V1_Purchase.self) { group in
          for _ in 0 ..< 3 {
            group.addTask {
              try await tickets.purchaseTickets(
                .with {
                  $0.quoteID = quote.quoteID
                  $0.idempotencyKey = "ada-key-1"
                },
                metadata: bearer(ada)
              ).purchase
            }
          }
          return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(bought.map(\.purchaseID)).count == 1 && bought[0].tickets.count == 2)
        let purchase = bought[0]
        #expect(try Self.charges(suite) == 1)

        // The wallet shows the run's live platform; an admin's delay reaches the holder's stream.
        _ = try await scheduling.changePlatform(
          .with {
            $0.run = run
            $0.sequence = departure.sequence
            $0.platform = "24"
            $0.reason = "Track works"
          },
          metadata: bearer(admin)
        )
        let wallet = try await tickets.listWallet(.init(), metadata: bearer(ada))
        #expect(wallet.tickets.count == 2)
        #expect(wallet.tickets.allSatisfy { $0.outbound.live.platform == "24" && $0.outbound.live.platformChanged })
        #expect(wallet.tickets.allSatisfy { $0.refundable && $0.status == .valid })
        let notifications = Binario_Scheduling_V1_Notifications.Client(wrapping: connection)
        let inbox = try await notifications.listNotifications(.init(), metadata: bearer(ada))
        #expect(inbox.notifications.map(\.kind) == [.platformChange])
        let delayed = try await SchedulingTests.firstNotifications(notifications, ada, after: inbox.notifications[0].cursor, count: 1) {
          _ = try await scheduling.delayRun(
            .with {
              $0.run = run
              $0.minutes = 7
              $0.reason = "Late connection"
            },
            metadata: bearer(admin)
          )
        }
        #expect(delayed.map(\.notification.kind) == [.tripDelay])
        let delayedWallet = try await tickets.listWallet(.init(), metadata: bearer(ada))
        #expect(delayedWallet.tickets[0].outbound.live.delayMinutes == 7)
        // The wallet's batch lookup is scheduling's internal GetRuns: ticketing's, not a client's.
        let batch = await #expect(throws: RPCError.self) {
          _ = try await scheduling.getRuns(.with { $0.runs = [run] }, metadata: bearer(admin))
        }
        #expect(batch?.code == .permissionDenied || batch?.code == .unimplemented)
        let asTicketing = try await suite.withDirectSchedulingConnection(as: "ticketing") { direct in
          try await Scheduling(wrapping: direct).getRuns(
            .with {
              $0.runs = [
                run,
                .with {
                  $0.tripID = "NO_SUCH_TRIP"
                  $0.serviceDate = run.serviceDate
                },
              ]
            }
          )
        }
        #expect(asTicketing.runs.map(\.run) == [run])

        // A card whose charges are declined sells nothing.
        let bob = try await identity.signUp(email: "bob@example.com", firstName: "Bob", admin: admin)
        try await identity.addCard(number: "4000000000000341", to: bob)
        let bobsQuote = try await tickets.quoteTicket(.with { $0.zone = .with { $0.zones = "Mi1-Mi3" } }, metadata: bearer(bob)).quote
        #expect(bobsQuote.total.amountMinor == 220)
        let declined = await #expect(throws: RPCError.self) {
          _ = try await tickets.purchaseTickets(
            .with {
              $0.quoteID = bobsQuote.quoteID
              $0.idempotencyKey = "bob-1"
            },
            metadata: bearer(bob)
          )
        }
        #expect(declined?.code == .failedPrecondition && declined?.message.contains("declined") == true)
        #expect(try await tickets.listWallet(.init(), metadata: bearer(bob)).tickets.isEmpty)
        #expect(try Self.charges(suite) == 2)

        try await Self.validation(identity, tickets, ada: ada, admin: admin)
        try await Self.journeyWithAChange(scheduling, tickets, ada: ada, admin: admin)
        try await Self.subscriptions(identity, Subscriptions(wrapping: connection), ada: ada, bob: bob, admin: admin)
        try await Self.renewalReminder(Subscriptions(wrapping: connection), notifications, ada: ada)
        try await Self.subscriptionLife(Subscriptions(wrapping: connection), ada: ada, bob: bob, admin: admin)

        // kill -9 after the acknowledged purchase: it is there after the restart, and a retry
        // with its key returns it without charging again.
        let chargesBefore = try Self.charges(suite)
        let port = suite.ticketingPort
        suite.killTicketing()
        try await suite.startTicketing(port: port)
        try await suite.waitUntilTheGatewaySeesServing("ticketing")
        let retried = try await tickets.purchaseTickets(
          .with {
            $0.quoteID = quote.quoteID
            $0.idempotencyKey = "ada-key-1"
          },
          metadata: bearer(ada)
        )
        #expect(retried.purchase.purchaseID == purchase.purchaseID)
        #expect(retried.purchase.tickets.map(\.ticketID) == purchase.tickets.map(\.ticketID))
        #expect(try Self.charges(suite) == chargesBefore)
        let history = try await tickets.listPurchases(.init(), metadata: bearer(ada))
        #expect(history.purchases.contains { $0.purchaseID == purchase.purchaseID })
        try await Self.timetableChanges(scheduling, tickets, run: run, ticketIDs: Set(purchase.tickets.map(\.ticketID)), ada: ada, admin: admin)

        // The fare table over HTTP/JSON, as a web page would read it.
        try await Self.faresOverHTTP(suite)
      }
    }
  }

  /// An admin edits the date of Ada's run alone (the trip runs on other dates too, so it becomes
  /// `<trip>@<date>`), then removes it: through scheduling's events, her wallet follows the run
  /// with its live platform, then shows it cancelled and refundable.
  static func timetableChanges(
    _ scheduling: Scheduling,
    _ tickets: Tickets,
    run: Binario_Scheduling_V1_RunRef,
    ticketIDs: Set<String>,
    ada: Binario_Identity_V1_TokenPair,
    admin: Binario_Identity_V1_TokenPair
  ) async throws {
    let edited = try await scheduling.updateRun(
      .with {
        $0.run = run
        $0.headsign = "Bergamo via the edit"
      },
      metadata: bearer(admin)
    ).run.run
    #expect(edited.tripID == "\(run.tripID)@\(run.serviceDate)")
    let followed = try await eventually("ticketing re-points the tickets of a renamed run") { () -> [Binario_Ticketing_V1_Ticket]? in
      let wallet = try await tickets.listWallet(.init(), metadata: bearer(ada)).tickets.filter { ticketIDs.contains($0.ticketID) }
      return wallet.allSatisfy { $0.outbound.run.tripID == edited.tripID } ? wallet : nil
    }
    #expect(followed.count == 2 && followed.allSatisfy { $0.outbound.live.platform == "24" })
    _ = try await scheduling.removeRun(
      .with {
        $0.run = edited
        $0.reason = "Strike"
      },
      metadata: bearer(admin)
    )
    let cancelled = try await eventually("ticketing shows a removed run's tickets cancelled") { () -> [Binario_Ticketing_V1_Ticket]? in
      let wallet = try await tickets.listWallet(.init(), metadata: bearer(ada)).tickets.filter { ticketIDs.contains($0.ticketID) }
      return wallet.allSatisfy { $0.outbound.live.cancelled } ? wallet : nil
    }
    #expect(cancelled.count == 2 && cancelled.allSatisfy(\.refundable))
  }

  /// Malpensa T1 → Bergamo with a change at Milano, as the journey search finds it, bought as
  /// one ticket: both trains in the wallet with their live platforms, both followed.
  static func journeyWithAChange(
    _ scheduling: Scheduling,
    _ tickets: Tickets,
    ada: Binario_Identity_V1_TokenPair,
    admin: Binario_Identity_V1_TokenPair
  ) async throws {
    let found = try await scheduling.searchJourneys(
      .with {
        $0.fromStationID = "MALPENSA_T1"
        $0.toStationID = "BERGAMO"
        $0.departureAfter = Google_Protobuf_Timestamp(date: Date().addingTimeInterval(600))
        $0.limit = 20
      }
    )
    let journey = try #require(found.journeys.first { $0.legs.count == 2 })
    func station(_ leg: Binario_Scheduling_V1_JourneyLeg, _ sequence: Int32) throws -> Binario_Scheduling_V1_RunStop {
      try #require(leg.run.stops.first { $0.sequence == sequence })
    }
    let legs = try journey.legs.map { leg in
      let (from, to) = (try station(leg, leg.boardSequence).station.stationID, try station(leg, leg.alightSequence).station.stationID)
      return Binario_Ticketing_V1_TicketLeg.with {
        $0.run = .with {
          $0.tripID = leg.run.run.tripID
          $0.serviceDate = leg.run.run.serviceDate
        }
        $0.fromStationID = from
        $0.toStationID = to
      }
    }
    let quote = try await tickets.quoteTicket(.with { $0.station = .with { $0.legs = legs } }, metadata: bearer(ada)).quote
    #expect(quote.lines.first?.description_p.contains("Malpensa") == true && quote.lines.first?.description_p.contains(" via ") == true)
    let ticket = try #require(
      try await tickets.purchaseTickets(
        .with {
          $0.quoteID = quote.quoteID
          $0.idempotencyKey = "ada-change-1"
        },
        metadata: bearer(ada)
      ).purchase.tickets.first
    )
    #expect(ticket.outbound.run.tripID == legs[0].run.tripID && ticket.outboundConnections.map(\.run.tripID) == [legs[1].run.tripID])

    // The second train's platform changes at the station of the change: the wallet shows it.
    let second = journey.legs[1]
    _ = try await scheduling.changePlatform(
      .with {
        $0.run = second.run.run
        $0.sequence = second.boardSequence
        $0.platform = "17"
        $0.reason = "Track works"
      },
      metadata: bearer(admin)
    )
    let shown = try #require(try await tickets.listWallet(.init(), metadata: bearer(ada)).tickets.first { $0.ticketID == ticket.ticketID })
    #expect(shown.outbound.hasLive && shown.outboundConnections.map(\.live.platform) == ["17"])
    #expect(shown.outboundConnections.allSatisfy { $0.live.platformChanged })
    let followed = try await scheduling.listFollowedRuns(.init(), metadata: bearer(ada)).runs.map(\.run.tripID)
    #expect(legs.allSatisfy { followed.contains($0.run.tripID) })
  }

  /// Charges and refunds recorded in ticketing's database (read beside the running service).
  static func charges(_ suite: RunningSuite) throws -> Int {
    let path = suite.folder.appendingPathComponent("data/ticketing/ticketing.sqlite").path
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    return try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM charge") ?? 0 }
  }

  /// An inspector (a role an admin grants) validates: a zone ticket once, a carnet twice, an
  /// altered code never; a passenger may not validate.
  static func validation(
    _ identity: IdentityClient,
    _ tickets: Tickets,
    ada: Binario_Identity_V1_TokenPair,
    admin: Binario_Identity_V1_TokenPair
  ) async throws {
    func buy(_ product: (inout Binario_Ticketing_V1_QuoteTicketRequest) -> Void, key: String) async throws -> Binario_Ticketing_V1_Ticket {
      let quote = try await tickets.quoteTicket(.with(product), metadata: bearer(ada)).quote
      return try await tickets.purchaseTickets(
        .with {
          $0.quoteID = quote.quoteID
          $0.idempotencyKey = key
        },
        metadata: bearer(ada)
      )
      .purchase.tickets[0]
    }
    let single = try await buy({ $0.zone = .with { $0.zones = "Mi1-Mi4" } }, key: "ada-zone")
    let carnet = try await buy(
      {
        $0.carnet = .with {
          $0.zones = "Mi1-Mi3"
          $0.rides = 10
        }
      },
      key: "ada-carnet"
    )
    #expect(carnet.price.amountMinor == 1950)

    _ = try await identity.signUp(email: "ines@example.com", firstName: "Ines", admin: admin)
    _ = try await identity.grantRole(
      .with {
        $0.account = .with { $0.email = "ines@example.com" }
        $0.role = .inspector
      },
      metadata: bearer(admin)
    )
    let inspector = try await identity.login(
      .with {
        $0.email = "ines@example.com"
        $0.password = "a-good-password-1"
      }
    ).tokens
    #expect(inspector.roles.contains(.inspector))

    let passengerTries = await #expect(throws: RPCError.self) {
      _ = try await tickets.validateTicket(.with { $0.code = single.validationCode }, metadata: bearer(ada))
    }
    #expect(passengerTries?.code == .permissionDenied)
    let first = try await tickets.validateTicket(.with { $0.code = single.validationCode }, metadata: bearer(inspector))
    #expect(first.ride == 1 && first.hasActiveUntil)
    let inspected = try await tickets.inspectTicket(.with { $0.code = single.validationCode }, metadata: bearer(inspector))
    #expect(inspected.mayTravel)
    let reused = await #expect(throws: RPCError.self) {
      _ = try await tickets.validateTicket(.with { $0.code = single.validationCode }, metadata: bearer(inspector))
    }
    #expect(reused?.code == .failedPrecondition)
    for ride in 1 ... 2 {
      let used = try await tickets.validateTicket(.with { $0.code = carnet.validationCode }, metadata: bearer(inspector))
      #expect(used.ride == ride && used.ticket.ridesTotal - used.ticket.ridesUsed == 10 - UInt32(ride))
    }
    var altered = Array(carnet.validationCode)
    let index = altered.count / 4
    altered[index] = altered[index] == "A" ? "B" : "A"
    let forged = await #expect(throws: RPCError.self) {
      _ = try await tickets.validateTicket(.with { $0.code = String(altered) }, metadata: bearer(inspector))
    }
    #expect(forged?.code == .invalidArgument)
    let keys = try await tickets.getValidationKeys(.init())
    #expect(keys.keys.first?.algorithm == "Ed25519" && keys.keys.first?.publicKey.count == 32)
  }

  /// Ada shares a subscription with Bob once they are friends; Bob may not edit it but may
  /// withdraw; a stranger cannot be added; Ada's home adds it up.
  static func subscriptions(
    _ identity: IdentityClient,
    _ subscriptions: Subscriptions,
    ada: Binario_Identity_V1_TokenPair,
    bob: Binario_Identity_V1_TokenPair,
    admin: Binario_Identity_V1_TokenPair
  ) async throws {
    let details = Binario_Ticketing_V1_SubscriptionDetails.with {
      $0.serviceName = "Netflix"
      $0.planType = "family"
      // Renewing about 20 days from today whenever the test runs: no reminder due.
      $0.startDate = romeDate(daysFromToday: -10)
      $0.period = .monthly
      $0.price = .with {
        $0.amountMinor = 2399
        $0.currency = "EUR"
      }
      $0.automaticRenewal = true
      $0.category = .moviesAndTv
    }
    let notFriends = await #expect(throws: RPCError.self) {
      _ = try await subscriptions.addSubscription(
        .with {
          $0.details = details
          $0.sharedWithUserIds = [bob.userID]
        },
        metadata: bearer(ada)
      )
    }
    #expect(notFriends?.code == .invalidArgument)
    let request = try await identity.sendFriendRequest(.with { $0.email = "bob@example.com" }, metadata: bearer(ada)).request
    _ = try await identity.respondToFriendRequest(
      .with {
        $0.requestID = request.requestID
        $0.accept = true
      },
      metadata: bearer(bob)
    )
    let added = try await subscriptions.addSubscription(
      .with {
        $0.details = details
        $0.sharedWithUserIds = [bob.userID]
      },
      metadata: bearer(ada)
    ).subscription
    #expect(added.owner.share.amountMinor == 1200 && added.members.map(\.share.amountMinor) == [1199])
    #expect(added.members.first?.name.isEmpty == false)
    let bobs = try await subscriptions.listSubscriptions(.init(), metadata: bearer(bob))
    #expect(bobs.mine.isEmpty && bobs.sharedWithMe.map(\.subscriptionID) == [added.subscriptionID])
    #expect(bobs.sharedWithMe[0].yourShare.amountMinor == 1199 && !bobs.sharedWithMe[0].owned)
    let edit = await #expect(throws: RPCError.self) {
      _ = try await subscriptions.updateSubscription(
        .with {
          $0.subscriptionID = added.subscriptionID
          $0.details = details
        },
        metadata: bearer(bob)
      )
    }
    #expect(edit?.code == .permissionDenied)
    _ = try await subscriptions.withdrawFromSubscription(.with { $0.subscriptionID = added.subscriptionID }, metadata: bearer(bob))
    #expect(try await subscriptions.listSubscriptions(.init(), metadata: bearer(bob)).sharedWithMe.isEmpty)
    // Ada alone pays it all again: 23.99 a month, 287.88 a year.
    let home = try await subscriptions.getSubscriptionsHome(.init(), metadata: bearer(ada))
    #expect(home.subscriptions == 1)
    #expect(home.totals.map(\.monthly.amountMinor) == [2399] && home.totals.map(\.yearly.amountMinor) == [28_788])
    let statistics = try await subscriptions.getSubscriptionStatistics(.init(), metadata: bearer(ada))
    #expect(statistics.categories.map(\.category) == [.moviesAndTv] && statistics.categories[0].shareBasisPoints == 10_000)
  }

  /// A subscription renewing tomorrow gets its reminder through scheduling's notification centre
  /// (the job runs as soon as a subscription is added), once.
  static func renewalReminder(
    _ subscriptions: Subscriptions,
    _ notifications: Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>,
    ada: Binario_Identity_V1_TokenPair
  ) async throws {
    let start = romeDate(daysFromToday: 1)
    let newest = try await notifications.listNotifications(.init(), metadata: bearer(ada)).notifications.first?.cursor ?? "0"
    let reminded = try await SchedulingTests.firstNotifications(notifications, ada, after: newest, count: 1) {
      _ = try await subscriptions.addSubscription(
        .with {
          $0.details = .with {
            $0.serviceName = "Spotify"
            $0.planType = "individual"
            $0.startDate = start
            $0.period = .monthly
            $0.price = .with {
              $0.amountMinor = 1099
              $0.currency = "EUR"
            }
            $0.automaticRenewal = true
            $0.category = .music
          }
        },
        metadata: bearer(ada)
      )
    }
    #expect(reminded.map(\.notification.kind) == [.renewalReminder])
    #expect(reminded.first?.notification.title == "Spotify renews tomorrow")
  }

  /// A subscription's life through the gateway: the operator's exchange rates, a gym paid by hand
  /// shared with Bob by his email, due today, marked paid by Bob (a retry harmless), paused,
  /// resumed and cancelled; home's grand total, budgets and statistics in exact minor units.
  static func subscriptionLife(
    _ subscriptions: Subscriptions,
    ada: Binario_Identity_V1_TokenPair,
    bob: Binario_Identity_V1_TokenPair,
    admin: Binario_Identity_V1_TokenPair
  ) async throws {
    let ecb = """
      <gesmes:Envelope><Cube><Cube time='2026-11-27'><Cube currency='USD' rate='1.0512'/><Cube currency='JPY' rate='162.39'/></Cube></Cube></gesmes:Envelope>
      """
    let notAdmin = await #expect(throws: RPCError.self) {
      _ = try await subscriptions.loadExchangeRates(.with { $0.content = ecb }, metadata: bearer(ada))
    }
    #expect(notAdmin?.code == .permissionDenied)
    let loaded = try await subscriptions.loadExchangeRates(.with { $0.content = ecb }, metadata: bearer(admin))
    #expect(loaded.ratesDate == "2026-11-27" && loaded.currencies == 2)
    let rates = try await subscriptions.getExchangeRates(.init())
    #expect(rates.ratesDate == "2026-11-27" && rates.rates.map { "\($0.currency) \($0.perEuro)" } == ["JPY 162.39", "USD 1.0512"])

    // Weekly, by hand, started a week ago: due today. 30.01 USD split: Ada 15.01, Bob 15.00.
    let today = romeDate(daysFromToday: 0)
    let gym = try await subscriptions.addSubscription(
      .with {
        $0.details = .with {
          $0.serviceName = "Palestra Navigli"
          $0.customServiceName = true
          $0.startDate = romeDate(daysFromToday: -7)
          $0.period = .weekly
          $0.price = .with {
            $0.amountMinor = 3001
            $0.currency = "USD"
          }
          $0.category = .other
          $0.reminderDays = 1
        }
        $0.sharedWithEmails = ["bob@example.com"]
        $0.idempotencyKey = "gym-1"
      },
      metadata: bearer(ada)
    ).subscription
    #expect(gym.members.map(\.email) == ["bob@example.com"] && gym.members.map(\.share.amountMinor) == [1500])
    #expect(gym.yourShare.amountMinor == 1501 && gym.details.planType.isEmpty && gym.reminderDays == 1)
    #expect(gym.status == .active && gym.due && gym.daysOverdue == 0 && gym.nextRenewal == today)

    var home = try await subscriptions.getSubscriptionsHome(.init(), metadata: bearer(ada))
    #expect(home.due.map(\.subscriptionID) == [gym.subscriptionID] && home.due[0].yourShare.amountMinor == 1501)
    // USD: 15.01 × 52 = 780.52 a year, 65.04 a month; the grand total in euros adds it at 1.0512.
    let usd = try #require(home.totals.first { $0.yearly.currency == "USD" })
    #expect(usd.yearly.amountMinor == 78_052 && usd.monthly.amountMinor == 6_504)
    let euros = home.totals.first { $0.yearly.currency == "EUR" }?.yearly.amountMinor ?? 0
    var grand = Decimal(euros) + Decimal(78_052) / Decimal(string: "1.0512")!
    var rounded = Decimal()
    NSDecimalRound(&rounded, &grand, 0, .plain)
    let grandYearly = NSDecimalNumber(decimal: rounded).int64Value
    #expect(
      home.grandTotal.yearly
        == .with {
          $0.amountMinor = grandYearly
          $0.currency = "EUR"
        }
    )
    #expect(home.grandTotal.monthly.amountMinor == (grandYearly * 2 + 12) / 24 && home.ratesDate == "2026-11-27")

    // Bob, a member, marks today's date paid; again (a retry) changes nothing.
    let paid = try await subscriptions.markSubscriptionPaid(
      .with {
        $0.subscriptionID = gym.subscriptionID
        $0.dueDate = today
      },
      metadata: bearer(bob)
    )
    #expect(paid.subscription.nextRenewal == romeDate(daysFromToday: 7) && !paid.subscription.due)
    #expect(paid.payment.amount.amountMinor == 3001 && paid.payment.paidByUserID == bob.userID && !paid.payment.paidByName.isEmpty)
    let again = try await subscriptions.markSubscriptionPaid(
      .with {
        $0.subscriptionID = gym.subscriptionID
        $0.dueDate = today
      },
      metadata: bearer(ada)
    )
    #expect(again.payment == paid.payment && again.subscription.nextRenewal == romeDate(daysFromToday: 7))
    let history = try await subscriptions.listSubscriptionPayments(.with { $0.subscriptionID = gym.subscriptionID }, metadata: bearer(ada))
    #expect(history.payments.map(\.dueDate) == [today] && history.totalPaid.amountMinor == 3001)

    // Only the owner pauses; paused, it leaves the totals; resumed, it is back.
    let bobPauses = await #expect(throws: RPCError.self) {
      _ = try await subscriptions.pauseSubscription(.with { $0.subscriptionID = gym.subscriptionID }, metadata: bearer(bob))
    }
    #expect(bobPauses?.code == .permissionDenied)
    let paused = try await subscriptions.pauseSubscription(.with { $0.subscriptionID = gym.subscriptionID }, metadata: bearer(ada))
    #expect(paused.subscription.status == .paused && paused.subscription.pausedOn == today)
    home = try await subscriptions.getSubscriptionsHome(.init(), metadata: bearer(ada))
    #expect(!home.totals.contains { $0.yearly.currency == "USD" })
    let resumed = try await subscriptions.resumeSubscription(.with { $0.subscriptionID = gym.subscriptionID }, metadata: bearer(ada))
    #expect(resumed.subscription.status == .active && resumed.subscription.nextRenewal == romeDate(daysFromToday: 7))

    // Settings: dollars, a month's budget of 1.00 USD and one for Other: both passed.
    let settings = try await subscriptions.updateSubscriptionSettings(
      .with {
        $0.settings = .with {
          $0.reminderDays = 2
          $0.homeRenewals = 3
          $0.mainCurrency = "usd"
          $0.monthlyBudgetMinor = 100
          $0.categoryBudgets = [
            .with {
              $0.category = .other
              $0.amountMinor = 6_000
            }
          ]
        }
      },
      metadata: bearer(ada)
    ).settings
    #expect(settings.mainCurrency == "USD" && settings.categoryBudgets.map(\.amountMinor) == [6_000])
    home = try await subscriptions.getSubscriptionsHome(.init(), metadata: bearer(ada))
    #expect(home.grandTotal.monthly.currency == "USD" && home.nextRenewals.count <= 3)
    #expect(home.budgetNotices.map(\.category) == [.unspecified, .other])
    #expect(
      home.budgetNotices[1].spent
        == .with {
          $0.amountMinor = 6_504
          $0.currency = "USD"
        }
    )
    let statistics = try await subscriptions.getSubscriptionStatistics(.init(), metadata: bearer(ada))
    let other = try #require(statistics.converted.first { $0.category == .other })
    #expect(other.monthly.amountMinor == 6_504 && other.monthly.currency == "USD" && statistics.ratesDate == "2026-11-27")
    #expect(statistics.converted.map(\.subscriptions).reduce(0, +) == home.subscriptions)

    // Cancelled today: it ends today, out of the totals, kept with its payment.
    let cancelled = try await subscriptions.cancelSubscription(.with { $0.subscriptionID = gym.subscriptionID }, metadata: bearer(ada))
    #expect(cancelled.subscription.status == .cancelled && cancelled.subscription.endsOn == today)
    home = try await subscriptions.getSubscriptionsHome(.init(), metadata: bearer(ada))
    #expect(!home.totals.contains { $0.yearly.currency == "USD" } && home.budgetNotices.map(\.category) == [.unspecified])
    let kept = try await subscriptions.listSubscriptions(.init(), metadata: bearer(ada)).mine.first { $0.subscriptionID == gym.subscriptionID }
    #expect(kept?.status == .cancelled)
  }

  static func faresOverHTTP(_ suite: RunningSuite) async throws {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(suite.caFile)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
    defer { _ = client.shutdown() }
    let response = try await client.execute(
      HTTPClientRequest(url: "https://localhost:\(suite.gatewayHTTPPort)/v1/fares"),
      timeout: .seconds(30)
    )
    #expect(response.status == .ok)
    let body = try await response.body.collect(upTo: 1 << 20)
    let json = try JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)) as? [String: Any]
    let zoneFares = json?["zoneFares"] as? [[String: Any]] ?? []
    #expect((zoneFares.first?["single"] as? [String: Any])?["amountMinor"] as? String == "220")
  }
}
