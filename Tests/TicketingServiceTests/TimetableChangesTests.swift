import BinarioDomain
import BinarioEvents
import Foundation
import Testing

@testable import TicketingService

@Suite("Scheduling's timetable events in ticketing")
struct TimetableChangesTests {
  static func position(_ sequence: Int64) -> EventPosition { EventPosition(producer: "scheduling", sequence: sequence) }

  /// Ada holds a ticket Monza → Bergamo on a run leaving Milano Centrale at 10:00.
  static func setUp() async throws -> (TestTicketing, TimetableChanges, RunReference, Ticket) {
    let (ticketing, run) = try await TicketPurchaseTests.setUp()
    let quote = try await ticketing.domain.quote(
      userID: "ada",
      .station(outbound: run, from: "MONZA", to: "BERGAMO", returnRun: nil, travelClass: .second),
      passengers: 1
    )
    let ticket = try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: "k", paymentMethodID: "").tickets[0]
    return (ticketing, TimetableChanges(store: ticketing.store, clock: ticketing.clock, timetable: ticketing.timetable), run, ticket)
  }

  @Test("a run renamed: the ticket follows it, live platform included; then its times, once")
  func renamedThenEdited() async throws {
    let (ticketing, changes, run, ticket) = try await Self.setUp()
    // The admin edited this date of a trip that runs on others: it is `<trip>@<date>` now.
    let renamed = ticketing.timetable.addRun("R4_2301@2027-03-10", date: "2027-03-10", departure: TestTicketing.start.addingTimeInterval(7200))
    ticketing.timetable.runs.withLock { _ = $0.removeValue(forKey: run) }
    ticketing.timetable.change(renamed) { $0.stops[1].platform = "9" }
    #expect(try await changes.runRenamed(run, to: renamed.tripID, position: Self.position(1)) == 1)
    let wallet = try await ticketing.domain.wallet(userID: "ada")
    #expect(wallet.map(\.ticket.id) == [ticket.id])
    #expect(wallet[0].ticket.outbound?.run == renamed && wallet[0].outboundLive?.platform == "9")
    await #expect(throws: EventAlreadyApplied.self) { _ = try await changes.runRenamed(run, to: renamed.tripID, position: Self.position(1)) }

    // Its stops now ten minutes later: the ticket's times follow.
    ticketing.timetable.change(renamed) { run in
      for index in run.stops.indices {
        run.stops[index].scheduledArrival = run.stops[index].scheduledArrival?.addingTimeInterval(600)
        run.stops[index].scheduledDeparture = run.stops[index].scheduledDeparture?.addingTimeInterval(600)
      }
    }
    #expect(try await changes.runEdited(renamed, position: Self.position(2)) == 1)
    let moved = try await ticketing.domain.ticket(userID: "ada", ticketID: ticket.id).ticket.outbound
    #expect(moved?.departure == ticket.outbound!.departure.addingTimeInterval(600))
    #expect(moved?.arrival == ticket.outbound!.arrival.addingTimeInterval(600))
  }

  @Test("a run removed: the ticket shows cancelled and is refundable, even after its departure")
  func removed() async throws {
    let (ticketing, changes, run, ticket) = try await Self.setUp()
    ticketing.timetable.runs.withLock { _ = $0.removeValue(forKey: run) }
    #expect(try await changes.runRemoved(run, position: Self.position(1)) == 1)
    ticketing.clock.advance(by: 3 * 3600)
    let shown = try await ticketing.domain.ticket(userID: "ada", ticketID: ticket.id)
    #expect(shown.outboundLive?.cancelled == true && shown.refundable)
    let (refunded, amount) = try await ticketing.domain.refund(userID: "ada", ticketID: ticket.id)
    #expect(amount == ticket.price && refunded.ticket.refundedAt != nil)
  }

  @Test("a timetable imported again: tickets whose runs are gone are cancelled, and restored when they come back")
  func replaced() async throws {
    let (ticketing, changes, run, ticket) = try await Self.setUp()
    let saved = try #require(ticketing.timetable.runs.withLock { $0.removeValue(forKey: run) })
    #expect(try await changes.timetableReplaced(position: Self.position(1)) == 1)
    #expect(try await ticketing.domain.ticket(userID: "ada", ticketID: ticket.id).outboundLive?.cancelled == true)
    // Nothing changed since: nothing to write.
    #expect(try await changes.timetableReplaced(position: Self.position(2)) == 0)
    ticketing.timetable.runs.withLock { $0[run] = saved }
    #expect(try await changes.timetableReplaced(position: Self.position(3)) == 1)
    let back = try await ticketing.domain.ticket(userID: "ada", ticketID: ticket.id)
    #expect(back.outboundLive?.cancelled == false && back.ticket.outbound?.runRemoved == nil)
  }
}
