import BinarioDomain
import BinarioPayments
import Foundation
import Testing

@testable import TicketingService

@Suite("Quotes and purchases")
struct TicketPurchaseTests {
  /// A run leaving Milano Centrale at 10:00 on 2027-03-10 (Rome), two hours after the test's start.
  static func setUp() async throws -> (TestTicketing, RunReference) {
    let ticketing = try await TestTicketing()
    let run = ticketing.timetable.addRun("R4_2301", date: "2027-03-10", departure: TestTicketing.start.addingTimeInterval(7200))
    try await ticketing.accounts.addCard("ada")
    return (ticketing, run)
  }

  @Test("a station ticket is priced by the distance band of its journey along the run; return and first class")
  func stationQuote() async throws {
    let (ticketing, run) = try await Self.setUp()
    let back = ticketing.timetable.addRun(
      "R4_2350",
      date: "2027-03-10",
      departure: TestTicketing.start.addingTimeInterval(6 * 3600),
      reversed: true
    )
    let sameWay = ticketing.timetable.addRun("R4_2352", date: "2027-03-10", departure: TestTicketing.start.addingTimeInterval(7 * 3600))
    let oneWay = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: run, from: "MI_CENTRALE", to: "MONZA", returnRun: nil, travelClass: .second),
      passengers: 2
    )
    // 11.7 km → the 20 km band, 2.90 each.
    #expect(oneWay.total == Money(amountMinor: 580, currency: "EUR"))
    #expect(oneWay.lines.first?.description == "Milano Centrale → Monza, one way, 2nd class, 12 km")
    // 45.3 km → the 50 km band: 8.00 in first class, twice for a return on a run back.
    let firstClass = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: run, from: "MI_CENTRALE", to: "BERGAMO", returnRun: nil, travelClass: .first),
      passengers: 1
    )
    #expect(firstClass.total.amountMinor == 800)
    let returnTrip = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: run, from: "MI_CENTRALE", to: "BERGAMO", returnRun: back, travelClass: .first),
      passengers: 1
    )
    #expect(returnTrip.total.amountMinor == 1600 && returnTrip.ticket.ridesTotal == 2)
    #expect(returnTrip.ticket.returnJourney?.fromStationName == "Bergamo")
    let wrongWay = await serviceError {
      _ = try await ticketing.domain.quote(
        userID: "ada",
        .station(outbound: run, from: "MI_CENTRALE", to: "BERGAMO", returnRun: sameWay, travelClass: .first),
        passengers: 1
      )
    }
    #expect(wrongWay?.description.contains("does not call at MI_CENTRALE after BERGAMO") == true)
    let backwards = await serviceError {
      _ = try await ticketing.domain.quote(
        userID: "ada",
        .station(outbound: run, from: "BERGAMO", to: "MI_CENTRALE", returnRun: nil, travelClass: .second),
        passengers: 1
      )
    }
    #expect(backwards?.description.contains("does not call at MI_CENTRALE after BERGAMO") == true)
  }

  @Test("zone tickets, carnets and passes from the fare table; a left train is not sold")
  func otherProducts() async throws {
    let (ticketing, run) = try await Self.setUp()
    #expect(try await ticketing.domain.quote(userID: "ada", .zone(zones: "Mi1-Mi3"), passengers: 0).total.amountMinor == 220)
    #expect(try await ticketing.domain.quote(userID: "ada", .carnet(zones: "Mi1-Mi3", rides: 10), passengers: 1).total.amountMinor == 1950)
    let noCarnet = await serviceError { _ = try await ticketing.domain.quote(userID: "ada", .carnet(zones: "Mi1-Mi9", rides: 10), passengers: 1) }
    #expect(noCarnet?.isInvalid == true)
    let monthly = try await ticketing.domain.quote(
      userID: "ada",
      .pass(period: .monthly, startDate: "", zones: "", from: "MI_CENTRALE", to: "BERGAMO", travelClass: .second),
      passengers: 1
    )
    #expect(monthly.total.amountMinor == 8800)
    // Midnight 10 March to midnight 10 April in Rome: 31 days, one hour short (summer time starts on 28 March).
    #expect(monthly.ticket.validUntil.timeIntervalSince(monthly.ticket.validFrom) == 31 * 86_400 - 3600)
    ticketing.clock.advance(by: 7200 + 61)
    let left = await serviceError {
      _ = try await ticketing.domain.quote(
        userID: "ada",
        .station(outbound: run, from: "MI_CENTRALE", to: "MONZA", returnRun: nil, travelClass: .second),
        passengers: 1
      )
    }
    #expect(left?.isFailedPrecondition == true)
  }

  @Test("the same idempotency key, again and concurrently, charges once and returns the same tickets")
  func idempotency() async throws {
    let (ticketing, run) = try await Self.setUp()
    let quote = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: run, from: "MI_CENTRALE", to: "BERGAMO", returnRun: nil, travelClass: .second),
      passengers: 2
    )
    let results = try await withThrowingTaskGroup(of: PurchaseRecord.self) { group in
      for _ in 0 ..< 5 {
        group.addTask { try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "key-1", paymentMethodID: "") }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    let again = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "key-1", paymentMethodID: "")
    #expect(Set(results.map(\.id)) == [again.id])
    #expect(Set(results.map { $0.tickets.map(\.id) }) == [again.tickets.map(\.id)])
    #expect(again.tickets.count == 2 && again.total.amountMinor == 1060)
    let charges = try await ticketing.store.charges()
    #expect(charges.count == 1 && charges[0].approved && charges[0].receipt.amountMinor == 1060 && charges[0].receipt.cardLast4 == "4242")
    // The holder follows the run in scheduling.
    #expect(ticketing.timetable.following.withLock { $0["ada"] } == [run])
    // Another key for the same quote sells nothing more.
    let second = await serviceError {
      _ = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "key-2", paymentMethodID: "")
    }
    #expect(second?.isFailedPrecondition == true)
    #expect(try await ticketing.store.charges().count == 1)
  }

  @Test("a declined card sells nothing, and its key answers the same refusal")
  func declined() async throws {
    let (ticketing, _) = try await Self.setUp()
    try await ticketing.accounts.addCard("bob", number: TestPaymentProvider.chargeDeclinedCardNumber)
    let quote = try await ticketing.domain.quote(userID: "bob", .zone(zones: "Mi1-Mi3"), passengers: 1)
    for _ in 0 ..< 2 {
      let refusal = await serviceError {
        _ = try await ticketing.domain.purchase(userID: "bob", quoteID: quote.id, idempotencyKey: "k", paymentMethodID: "")
      }
      #expect(refusal?.isFailedPrecondition == true && refusal?.description.contains("ending 0341 was declined") == true)
    }
    #expect(try await ticketing.domain.wallet(userID: "bob").isEmpty)
    let charges = try await ticketing.store.charges()
    #expect(charges.count == 1 && !charges[0].approved)
    // The same quote, with a new key and another of the buyer's cards, named, pays.
    try await ticketing.accounts.addCard("bob", id: "pm-visa")
    let purchase = try await ticketing.domain.purchase(userID: "bob", quoteID: quote.id, idempotencyKey: "k2", paymentMethodID: "pm-visa")
    #expect(purchase.cardLast4 == "4242" && purchase.tickets.count == 1)
  }

  @Test("a purchase interrupted after claiming its key is finished by a retry, charging once")
  func resumed() async throws {
    let (ticketing, _) = try await Self.setUp()
    let quote = try await ticketing.domain.quote(userID: "ada", .zone(zones: "Mi1-Mi4"), passengers: 1)
    // As if the process died after claiming the key and charging, before recording the tickets.
    let pending = PurchaseRecord(
      id: "pu_interrupted",
      userID: "ada",
      idempotencyKey: "k",
      quoteID: quote.id,
      status: .pending,
      total: quote.total,
      paymentMethodID: "pm-4242",
      cardLast4: "4242",
      chargeID: nil,
      failure: nil,
      createdAt: ticketing.clock.now(),
      tickets: [],
      refunded: Money(amountMinor: 0, currency: "EUR")
    )
    let card = try await ticketing.accounts.card(userID: "ada", paymentMethodID: "")!
    try await ticketing.store.insertPendingPurchase(pending, cardToken: card.providerToken)
    _ = try await RecordingCardCharger(store: ticketing.store, now: { Date() }).charge(
      ChargeRequest(
        cardToken: card.providerToken,
        cardLast4: "4242",
        amountMinor: 260,
        currency: "EUR",
        reference: "pu_interrupted",
        description: "x"
      )
    )
    let resumed = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "k", paymentMethodID: "")
    #expect(resumed.id == "pu_interrupted" && resumed.status == .completed && resumed.tickets.count == 1)
    #expect(try await ticketing.store.charges().count == 1)
  }

  @Test("the wallet shows the live platform; refunds before departure, and after a cancellation")
  func walletAndRefunds() async throws {
    let (ticketing, run) = try await Self.setUp()
    let quote = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: run, from: "MONZA", to: "BERGAMO", returnRun: nil, travelClass: .second),
      passengers: 1
    )
    let purchase = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "k", paymentMethodID: "")
    ticketing.timetable.change(run) {
      $0.stops[1].platform = "7"
      $0.stops[1].platformChanged = true
    }
    let wallet = try await ticketing.domain.wallet(userID: "ada")
    #expect(wallet.count == 1 && wallet[0].outboundLive?.platform == "7" && wallet[0].refundable)

    // After departure it is not refundable, unless the run is cancelled.
    ticketing.clock.advance(by: 7200 + 1300)
    let late = await serviceError { _ = try await ticketing.domain.refund(userID: "ada", ticketID: purchase.tickets[0].id) }
    #expect(late?.isFailedPrecondition == true)
    ticketing.timetable.change(run) { $0.cancelled = true }
    #expect(try await ticketing.domain.wallet(userID: "ada")[0].refundable)
    let (refunded, amount) = try await ticketing.domain.refund(userID: "ada", ticketID: purchase.tickets[0].id)
    #expect(amount.amountMinor == 450 && refunded.ticket.status(at: ticketing.clock.now()) == .refunded)
    let charges = try await ticketing.store.charges()
    #expect(charges.map(\.kind) == ["charge", "refund"] && charges[1].receipt.amountMinor == 450)
    #expect(ticketing.timetable.following.withLock { $0["ada"] } == [])
    let twice = await serviceError { _ = try await ticketing.domain.refund(userID: "ada", ticketID: purchase.tickets[0].id) }
    #expect(twice?.isFailedPrecondition == true)
    #expect(
      await serviceError { _ = try await ticketing.domain.ticket(userID: "bob", ticketID: purchase.tickets[0].id) }
        == .notFound("no ticket \(purchase.tickets[0].id) of yours")
    )
    #expect(await serviceError { _ = try await ticketing.domain.ticket(userID: "ada", ticketID: "") }?.isInvalid == true)
    #expect(try await ticketing.domain.purchases(userID: "ada", after: nil, limit: 0).0.first?.refunded.amountMinor == 450)
  }

  @Test("a follow scheduling did not take is kept and sent by the retry")
  func followRetry() async throws {
    let (ticketing, run) = try await Self.setUp()
    ticketing.timetable.unreachable.store(true, ordering: .relaxed)
    let quote = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: run, from: "MONZA", to: "BERGAMO", returnRun: nil, travelClass: .second),
      passengers: 1
    )
    _ = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "k", paymentMethodID: "")
    #expect(try await ticketing.domain.retryFollowChanges() == 1)
    // The wallet still answers, without the live state scheduling cannot give.
    let wallet = try await ticketing.domain.wallet(userID: "ada")
    #expect(wallet.count == 1 && wallet[0].outboundLive == nil)
    ticketing.timetable.unreachable.store(false, ordering: .relaxed)
    #expect(try await ticketing.domain.wallet(userID: "ada")[0].outboundLive?.platform == "4")
    #expect(try await ticketing.domain.retryFollowChanges() == 0)
    #expect(ticketing.timetable.following.withLock { $0["ada"] } == [run])

    // A follow for a run removed from the timetable meanwhile is dropped, not retried for ever.
    ticketing.timetable.unreachable.store(true, ordering: .relaxed)
    let other = ticketing.timetable.addRun("R4_2399", date: "2027-03-10", departure: TestTicketing.start.addingTimeInterval(9000))
    let second = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: other, from: "MONZA", to: "BERGAMO", returnRun: nil, travelClass: .second),
      passengers: 1
    )
    _ = try await ticketing.domain.purchase(userID: "ada", quoteID: second.id, idempotencyKey: "k2", paymentMethodID: "")
    ticketing.timetable.runs.withLock { $0[other] = nil }
    ticketing.timetable.unreachable.store(false, ordering: .relaxed)
    #expect(try await ticketing.domain.retryFollowChanges() == 0)
    #expect(ticketing.timetable.following.withLock { $0["ada"] } == [run])
  }

  @Test("purchase history is newest first and paged")
  func history() async throws {
    let (ticketing, _) = try await Self.setUp()
    for index in 0 ..< 5 {
      let quote = try await ticketing.domain.quote(userID: "ada", .zone(zones: "Mi1-Mi3"), passengers: 1)
      _ = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "k\(index)", paymentMethodID: "")
      ticketing.clock.advance(by: 60)
    }
    let (first, cursor) = try await ticketing.domain.purchases(userID: "ada", after: nil, limit: 3)
    let (rest, end) = try await ticketing.domain.purchases(userID: "ada", after: cursor, limit: 3)
    #expect(first.count == 3 && rest.count == 2 && end == nil)
    let all = first + rest
    #expect(all.map(\.createdAt) == all.map(\.createdAt).sorted(by: >))
    #expect(try await ticketing.domain.purchases(userID: "bob", after: nil, limit: 0).0.isEmpty)
  }

  @Test("a route offer from geo-offers discounts a station ticket; what is paid is what a refund returns")
  func routeOfferDiscount() async throws {
    let (ticketing, run) = try await Self.setUp()
    ticketing.routeOffers.offers.withLock {
      $0["MI_CENTRALE-BERGAMO"] = RouteOfferMatch(offerID: "ro_1", title: "A day in Bergamo", discountPercent: 20)
    }
    // The 50 km band's 5.30 in second class, less 20 %: 4.24 each.
    let quote = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: run, from: "MI_CENTRALE", to: "BERGAMO", returnRun: nil, travelClass: .second),
      passengers: 2
    )
    #expect(quote.routeOffer?.offer.offerID == "ro_1" && quote.routeOffer?.fullUnitPrice.amountMinor == 530)
    #expect(quote.lines.map(\.unitPrice.amountMinor) == [424] && quote.total.amountMinor == 848)
    #expect(quote.lines[0].description.hasSuffix(", A day in Bergamo −20%"))
    let purchase = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "k1", paymentMethodID: "")
    #expect(purchase.total.amountMinor == 848)
    let (_, refunded) = try await ticketing.domain.refund(userID: "ada", ticketID: purchase.tickets[0].id)
    #expect(refunded.amountMinor == 424)
    // No offer for Monza: the full fare.
    let monza = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: run, from: "MI_CENTRALE", to: "MONZA", returnRun: nil, travelClass: .second),
      passengers: 1
    )
    #expect(monza.routeOffer == nil && monza.total.amountMinor == 290)
    #expect(AppliedRouteOffer.discounted(290, percent: 15) == 246 && AppliedRouteOffer.discounted(290, percent: 50) == 145)
  }

  @Test("the tickets a holder has for trains leaving a station within a window, for geo-offers' welcome")
  func departingTickets() async throws {
    let (ticketing, run) = try await Self.setUp()
    let quote = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: run, from: "MI_CENTRALE", to: "BERGAMO", returnRun: nil, travelClass: .second),
      passengers: 2
    )
    let purchase = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "k1", paymentMethodID: "")
    let now = ticketing.clock.now()
    let window = now ..< now.addingTimeInterval(3 * 3600)
    let found = try await ticketing.domain.departingTickets(userID: "ada", stationID: "MI_CENTRALE", window: window)
    #expect(Set(found.map(\.ticketID)) == Set(purchase.tickets.map(\.id)) && found.allSatisfy { $0.journey.run == run })
    #expect(try await ticketing.domain.departingTickets(userID: "ada", stationID: "MONZA", window: window).isEmpty)
    #expect(try await ticketing.domain.departingTickets(userID: "ada", stationID: "MI_CENTRALE", window: now ..< now.addingTimeInterval(600)).isEmpty)
    #expect(try await ticketing.domain.departingTickets(userID: "bob", stationID: "MI_CENTRALE", window: window).isEmpty)
    _ = try await ticketing.domain.refund(userID: "ada", ticketID: purchase.tickets[0].id)
    #expect(
      try await ticketing.domain.departingTickets(userID: "ada", stationID: "MI_CENTRALE", window: window).map(\.ticketID) == [purchase.tickets[1].id]
    )
  }

}
