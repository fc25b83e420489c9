import BinarioDomain
import BinarioEvents
import Foundation
import Testing

@testable import TicketingService

/// One ticket for a journey with a change: Milano Centrale → Monza on one run, Monza → Bergamo
/// on a later one.
@Suite("Journeys with changes")
struct ConnectionsTests {
  /// The first run leaves Milano Centrale at 10:00 (in Monza at 10:20); the second leaves
  /// Milano at 10:30 and Monza at 10:51.
  static func setUp() async throws -> (TestTicketing, RunReference, RunReference) {
    let (ticketing, first) = try await TicketPurchaseTests.setUp()
    let second = ticketing.timetable.addRun("R4_2303", date: "2027-03-10", departure: TestTicketing.start.addingTimeInterval(7200 + 1800))
    return (ticketing, first, second)
  }

  static func legs(_ first: RunReference, _ second: RunReference, change: String = "MONZA", secondFrom: String? = nil) -> [TicketLeg] {
    [
      TicketLeg(run: first, from: "MI_CENTRALE", to: change, fields: .leg(0, of: "legs")),
      TicketLeg(run: second, from: secondFrom ?? change, to: "BERGAMO", fields: .leg(1, of: "legs")),
    ]
  }

  static func problems(_ error: ServiceError?) -> [FieldProblem] {
    if case .invalid(let problems) = error { problems } else { [] }
  }

  @Test("two trains, one ticket: priced on the distance both travel, both followed, both live in the wallet")
  func twoLegs() async throws {
    let (ticketing, first, second) = try await Self.setUp()
    let quote = try await ticketing.domain.quote(
      userID: "ada",
      .station(legs: Self.legs(first, second), returnLegs: [], travelClass: .second),
      passengers: 1
    )
    let direct = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: first, from: "MI_CENTRALE", to: "BERGAMO", returnRun: nil, travelClass: .second),
      passengers: 1
    )
    // 11.7 km + 33.6 km: the same band as the direct train's 45.3 km, one fare, not two.
    #expect(quote.total == direct.total)
    #expect(quote.lines.first?.description == "Milano Centrale → Bergamo via Monza, one way, 2nd class, 46 km")
    // Kept in every language, for a holder who reads Italian.
    #expect(quote.lines.first?.descriptionWords.text(in: .italian) == "Milano Centrale → Bergamo via Monza, sola andata, 2ª classe, 46 km")
    #expect(quote.ticket.descriptionWords.text(in: .italian) == quote.lines.first?.descriptionWords.text(in: .italian))
    #expect(quote.ticket.outbound?.toStationID == "MONZA" && quote.ticket.outboundConnections?.map(\.run) == [second])

    let ticket = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "k", paymentMethodID: "").tickets[0]
    #expect(ticketing.timetable.following.withLock { $0["ada"] } == [first, second])
    #expect(ticket.journeys.map(\.run) == [first, second] && ticket.ridesTotal == 1)

    // Geo-offers' welcome at Milano is for the first train, with the places of Bergamo.
    let departing = try await ticketing.domain.departingTickets(
      userID: "ada",
      stationID: "MI_CENTRALE",
      window: TestTicketing.start ..< TestTicketing.start.addingTimeInterval(3 * 3600)
    )
    #expect(departing.map { [$0.journey.run.tripID, $0.lastLeg.toStationID] } == [[first.tripID, "BERGAMO"]])

    ticketing.timetable.change(second) { $0.stops[1].platform = "11" }
    let shown = try await ticketing.domain.ticket(userID: "ada", ticketID: ticket.id)
    #expect(shown.outboundLive?.platform == "3" && shown.outboundConnectionsLive.map { $0?.platform } == ["11"])

    // After the first train left, only a cancelled connection makes the ticket refundable.
    ticketing.clock.advance(by: 7200 + 600)
    #expect(try await ticketing.domain.ticket(userID: "ada", ticketID: ticket.id).refundable == false)
    ticketing.timetable.change(second) { $0.stops[2].cancelled = true }
    let cancelled = try await ticketing.domain.ticket(userID: "ada", ticketID: ticket.id)
    #expect(cancelled.outboundConnectionsLive.first??.cancelled == true && cancelled.refundable)
    let (refunded, amount) = try await ticketing.domain.refund(userID: "ada", ticketID: ticket.id)
    #expect(amount == ticket.price && refunded.ticket.refundedAt != nil)
    #expect(ticketing.timetable.following.withLock { $0["ada"] } == [])
  }

  @Test("a return with a change each way; the way back must end where the way out began")
  func returnWithChanges() async throws {
    let (ticketing, first, second) = try await Self.setUp()
    let backFirst = ticketing.timetable.addRun(
      "R4_2350",
      date: "2027-03-10",
      departure: TestTicketing.start.addingTimeInterval(6 * 3600),
      reversed: true
    )
    let backSecond = ticketing.timetable.addRun(
      "R4_2352",
      date: "2027-03-10",
      departure: TestTicketing.start.addingTimeInterval(6.5 * 3600),
      reversed: true
    )
    let back = [
      TicketLeg(run: backFirst, from: "BERGAMO", to: "MONZA", fields: .leg(0, of: "return_legs")),
      TicketLeg(run: backSecond, from: "MONZA", to: "MI_CENTRALE", fields: .leg(1, of: "return_legs")),
    ]
    let quote = try await ticketing.domain.quote(
      userID: "ada",
      .station(legs: Self.legs(first, second), returnLegs: back, travelClass: .first),
      passengers: 1
    )
    #expect(quote.total.amountMinor == 1600 && quote.ticket.ridesTotal == 2)
    #expect(quote.ticket.returnLegs.map(\.run) == [backFirst, backSecond])
    let elsewhere = await serviceError {
      _ = try await ticketing.domain.quote(
        userID: "ada",
        .station(legs: Self.legs(first, second), returnLegs: Array(back.prefix(1)), travelClass: .first),
        passengers: 1
      )
    }
    #expect(elsewhere?.description.contains("the way back must go from Bergamo to Milano Centrale") == true)
  }

  @Test("legs that do not meet, or leave too little time to change, are refused naming the leg")
  func refusals() async throws {
    let (ticketing, first, _) = try await Self.setUp()
    // Leaves Milano at 10:01:40 and Monza at 10:22:40: 2 minutes 40 after the first arrives.
    let tight = ticketing.timetable.addRun("R4_2305", date: "2027-03-10", departure: TestTicketing.start.addingTimeInterval(7200 + 100))
    let tooTight = await serviceError {
      _ = try await ticketing.domain.quote(
        userID: "ada",
        .station(legs: Self.legs(first, tight), returnLegs: [], travelClass: .second),
        passengers: 1
      )
    }
    #expect(Self.problems(tooTight).map(\.field) == ["station.legs[1].run"])
    #expect(tooTight?.description.contains("at least 5 minutes are needed to change trains at Monza") == true)

    let second = ticketing.timetable.addRun("R4_2307", date: "2027-03-10", departure: TestTicketing.start.addingTimeInterval(9000))
    let apart = await serviceError {
      _ = try await ticketing.domain.quote(
        userID: "ada",
        .station(legs: Self.legs(first, second, secondFrom: "MI_CENTRALE"), returnLegs: [], travelClass: .second),
        passengers: 1
      )
    }
    #expect(Self.problems(apart).map(\.field) == ["station.legs[1].from_station_id"])

    // The second train left Milano before the first arrives.
    let earlier = ticketing.timetable.addRun("R4_2299", date: "2027-03-10", departure: TestTicketing.start.addingTimeInterval(7200 - 600))
    let gone = await serviceError {
      _ = try await ticketing.domain.quote(
        userID: "ada",
        .station(legs: Self.legs(first, earlier), returnLegs: [], travelClass: .second),
        passengers: 1
      )
    }
    #expect(gone?.description.contains("this train leaves Monza before the train before it arrives there") == true)
  }

  @Test("a validated ride lasts until the way's last train arrives, when that is later than the fare table's minutes")
  func rideCoversTheWholeWay() async throws {
    let (ticketing, first, _) = try await Self.setUp()
    // Five hours to wait at Monza: the second train reaches Bergamo past the 240 minutes.
    let late = ticketing.timetable.addRun("R4_2331", date: "2027-03-10", departure: TestTicketing.start.addingTimeInterval(7200 + 5 * 3600))
    let quote = try await ticketing.domain.quote(
      userID: "ada",
      .station(legs: Self.legs(first, late), returnLegs: [], travelClass: .second),
      passengers: 1
    )
    let ticket = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "k", paymentMethodID: "").tickets[0]
    let arrival = try #require(ticket.outboundConnections?.last?.arrival)
    let ridden = try ticket.validated(at: ticketing.clock.now())
    #expect(arrival > ticketing.clock.now().addingTimeInterval(240 * 60) && ridden.activeUntil == arrival)
  }

  @Test("a connection's run edited in the timetable: the ticket's connection takes its new times")
  func connectionFollowsTimetable() async throws {
    let (ticketing, first, second) = try await Self.setUp()
    let quote = try await ticketing.domain.quote(
      userID: "ada",
      .station(legs: Self.legs(first, second), returnLegs: [], travelClass: .second),
      passengers: 1
    )
    let ticket = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "k", paymentMethodID: "").tickets[0]
    ticketing.timetable.change(second) { run in
      for index in run.stops.indices {
        run.stops[index].scheduledArrival = run.stops[index].scheduledArrival?.addingTimeInterval(300)
        run.stops[index].scheduledDeparture = run.stops[index].scheduledDeparture?.addingTimeInterval(300)
      }
    }
    let changes = TimetableChanges(store: ticketing.store, clock: ticketing.clock, timetable: ticketing.timetable)
    #expect(try await changes.runEdited(second, position: EventPosition(producer: "scheduling", sequence: 1)) == 1)
    let moved = try await ticketing.domain.ticket(userID: "ada", ticketID: ticket.id).ticket
    #expect(moved.outbound == ticket.outbound)
    #expect(moved.outboundConnections?.first?.departure == ticket.outboundConnections?.first?.departure.addingTimeInterval(300))
  }
}
