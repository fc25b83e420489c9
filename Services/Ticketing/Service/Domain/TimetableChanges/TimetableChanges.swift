import BinarioDomain
import Foundation

/// The timetable's changes as ticketing follows them from scheduling's events, so the tickets
/// sold for a run keep pointing at it: a run renamed (`<trip>@<date>`) → its tickets and pending
/// follow changes re-pointed (the wallet keeps its live platform and delay, the station welcome
/// keeps working); its stops edited → the tickets' times follow; removed, or no longer calling
/// at a ticket's stations → that way shows cancelled and refundable; the timetable replaced →
/// every ticket still to travel is checked against it.
///
/// Each change commits with the event's position (exactly once); what scheduling is asked
/// first (the run as it is now) is read again if the event comes again.
public struct TimetableChanges: Sendable {
  let store: TicketingStore
  let clock: any DomainClock
  let timetable: any TimetableLookup

  public init(store: TicketingStore, clock: any DomainClock, timetable: any TimetableLookup) {
    self.store = store
    self.clock = clock
    self.timetable = timetable
  }

  /// - Returns: How many tickets were re-pointed.
  public func runRenamed(_ run: RunReference, to newTripID: String, position: EventPosition) async throws -> Int {
    let renamed = RunReference(tripID: newTripID, serviceDate: run.serviceDate)
    let tickets = try await store.tickets(onTrip: run.tripID).compactMap { ticket in
      ticket.changingJourneys(on: run) { journey in
        var moved = journey
        moved.run = renamed
        return moved
      }
    }
    try await store.saveFollowingTimetable(tickets, renaming: (run, renamed), position: position, at: clock.now())
    return tickets.count
  }

  /// - Returns: How many tickets can no longer travel that way.
  public func runRemoved(_ run: RunReference, position: EventPosition) async throws -> Int {
    let tickets = try await store.tickets(onTrip: run.tripID).compactMap { ticket in
      ticket.changingJourneys(on: run) { $0.following(nil) }
    }
    try await store.saveFollowingTimetable(tickets, dropping: run, position: position, at: clock.now())
    return tickets.count
  }

  /// The run's stops or times changed: its tickets take its current times.
  public func runEdited(_ run: RunReference, position: EventPosition) async throws -> Int {
    let current = try await self.current([run])[run]
    let tickets = try await store.tickets(onTrip: run.tripID).compactMap { ticket in
      ticket.changingJourneys(on: run) { $0.following(current) }
    }
    try await store.saveFollowingTimetable(tickets, dropping: current == nil ? run : nil, position: position, at: clock.now())
    return tickets.count
  }

  /// A new timetable: every ticket still to travel follows its runs as they are now (gone
  /// ones removed, back ones restored).
  public func timetableReplaced(position: EventPosition) async throws -> Int {
    let tickets = try await store.ticketsWithJourneys(validAfter: clock.now())
    let runs = try await current(Set(tickets.flatMap(\.runs)))
    let changed = tickets.compactMap { ticket in
      ticket.changingJourneys(on: nil) { $0.following(runs[$0.run]) }
    }
    try await store.saveFollowingTimetable(changed, position: position, at: clock.now())
    return changed.count
  }

  /// The runs scheduling has now; those it no longer has are left out.
  private func current(_ runs: Set<RunReference>) async throws -> [RunReference: TimetableRun] {
    guard !runs.isEmpty else { return [:] }
    let found = try await timetable.runs(runs.sorted { ($0.tripID, $0.serviceDate) < ($1.tripID, $1.serviceDate) })
    return Dictionary(found.map { ($0.run, $0) }, uniquingKeysWith: { first, _ in first })
  }
}

extension Ticket {
  /// The ticket with `change` applied to its trains on `run` (every train when `nil`), or `nil` when
  /// that changes nothing.
  func changingJourneys(on run: RunReference?, _ change: (Journey) -> Journey) -> Ticket? {
    func apply(_ journey: Journey) -> Journey { run == nil || journey.run == run ? change(journey) : journey }
    var changed = self
    changed.outbound = outbound.map(apply)
    changed.returnJourney = returnJourney.map(apply)
    changed.outboundConnections = outboundConnections?.map(apply)
    changed.returnConnections = returnConnections?.map(apply)
    return changed == self ? nil : changed
  }
}
