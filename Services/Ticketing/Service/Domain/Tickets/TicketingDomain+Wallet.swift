import BinarioDomain
import Foundation

extension TicketingDomain {
  /// The holder's tickets that are valid or upcoming, soonest first, with their runs' live
  /// state. A run scheduling cannot tell about now is shown without it.
  public func wallet(userID: String) async throws -> [TicketWithLiveState] {
    let now = clock.now()
    let tickets = try await store.tickets(holderID: userID, validAfter: now)
      .filter { $0.status(at: now) == .valid }
      .sorted { ($0.sortKey, $0.id) < ($1.sortKey, $1.id) }
    let runs = await liveRuns(Set(tickets.flatMap(\.runs)))
    return tickets.map { withLiveState($0, runs: runs, now: now) }
  }

  /// One of the holder's tickets with its live state and validations.
  public func ticket(userID: String, ticketID: String) async throws -> TicketWithLiveState {
    let ticket = try await holderTicket(userID: userID, ticketID: ticketID)
    let runs = await liveRuns(Set(ticket.runs))
    var shown = withLiveState(ticket, runs: runs, now: clock.now())
    shown.validations = try await store.validations(ticketID: ticket.id)
    return shown
  }

  /// The holder's station tickets, unused and not refunded, whose next way leaves `stationID`
  /// (scheduled) within `window`: what geo-offers welcomes them at the station with. Each comes
  /// with the way's first train (`journey`) and its last (the same one on a direct way).
  public func departingTickets(
    userID: String,
    stationID: String,
    window: Range<Date>
  ) async throws -> [(
    ticketID: String, journey: Ticket.Journey, lastLeg: Ticket.Journey
  )] {
    var check = InputValidation()
    check.requiredText(userID, field: "user_id", what: "the user's id", maxLength: 200)
    check.requiredText(stationID, field: "station_id", what: "the station's id", maxLength: 200)
    try check.finish()
    return try await store.tickets(holderID: userID, validAfter: window.lowerBound)
      .filter { $0.kind == .station && $0.refundedAt == nil && $0.ridesUsed < $0.ridesTotal }
      .compactMap { ticket in
        // A return ticket whose outbound ride is used leaves next on its way back.
        let next = ticket.ways.dropFirst(ticket.ridesUsed).first
        guard let next, let first = next.first, let last = next.last, first.fromStationID == stationID,
          window.contains(first.departure)
        else { return nil }
        return (ticket.id, first, last)
      }
      .sorted { ($0.journey.departure, $0.ticketID) < ($1.journey.departure, $1.ticketID) }
  }

  func holderTicket(userID: String, ticketID: String) async throws -> Ticket {
    if ticketID.isEmpty { throw ServiceError.invalid("ticket_id", "a ticket id is required") }
    guard let ticket = try await store.ticket(id: ticketID), ticket.holderID == userID else {
      throw ServiceError.notFound("no ticket \(ticketID) of yours")
    }
    return ticket
  }

  /// Each run as scheduling shows it now, in one call; runs it could not tell about (or all,
  /// when scheduling cannot be reached) are left out.
  func liveRuns(_ references: Set<RunReference>) async -> [RunReference: TimetableRun] {
    guard !references.isEmpty,
      let runs = try? await timetable.runs(references.sorted { ($0.tripID, $0.serviceDate) < ($1.tripID, $1.serviceDate) })
    else { return [:] }
    return Dictionary(runs.map { ($0.run, $0) }, uniquingKeysWith: { first, _ in first })
  }

  func withLiveState(_ ticket: Ticket, runs: [RunReference: TimetableRun], now: Date) -> TicketWithLiveState {
    /// The train at its boarding stop, cancelled when it no longer takes the holder from there
    /// to where they alight.
    func boarding(_ journey: Ticket.Journey?) -> TimetableRun.Stop? {
      if let journey, journey.runRemoved == true {
        // Scheduling no longer has the run: shown cancelled, as its followers were told.
        return TimetableRun.Stop(
          stationID: journey.fromStationID,
          stationName: journey.fromStationName,
          latitude: 0,
          longitude: 0,
          scheduledArrival: nil,
          scheduledDeparture: journey.departure,
          expectedDeparture: nil,
          platform: "",
          platformChanged: false,
          delayMinutes: 0,
          cancelled: true
        )
      }
      guard let journey, let run = runs[journey.run],
        var stop = run.stops.first(where: { $0.stationID == journey.fromStationID })
      else { return nil }
      let alighting = run.stops.last(where: { $0.stationID == journey.toStationID })
      stop.cancelled = stop.cancelled || run.cancelled || alighting?.cancelled == true
      return stop
    }
    var shown = TicketWithLiveState(
      ticket: ticket,
      outboundLive: boarding(ticket.outbound),
      returnLive: boarding(ticket.returnJourney),
      outboundConnectionsLive: (ticket.outboundConnections ?? []).map(boarding),
      returnConnectionsLive: (ticket.returnConnections ?? []).map(boarding),
      refundable: false
    )
    shown.refundable = refundRefusal(ticket, anyTrainCancelled: shown.anyTrainCancelled, now: now) == nil
    return shown
  }

  /// Why `ticket` cannot be refunded at `now`, or `nil` when it can: a station ticket one of
  /// whose trains is cancelled is refundable until used, even after its first train left.
  func refundRefusal(_ ticket: Ticket, anyTrainCancelled: Bool, now: Date) -> PersonText? {
    if ticket.refundedAt != nil { return "this ticket was refunded already" }
    if ticket.ridesUsed > 0 { return "this ticket was used" }
    switch ticket.kind {
    case .station:
      if anyTrainCancelled { return nil }
      if let departure = ticket.outbound?.departure, departure <= now { return "its train has left" }
    case .pass:
      if ticket.validFrom <= now { return "a pass is refundable before its first day only" }
    case .zone, .carnet:
      if ticket.validUntil <= now { return "this ticket expired" }
    }
    return nil
  }

  /// Refunds an unused ticket before departure (or of a cancelled run) to the card it was paid
  /// with; its holder stops following its runs, and a pass leaves the subscriptions.
  public func refund(userID: String, ticketID: String) async throws -> (TicketWithLiveState, Money) {
    let ticket = try await holderTicket(userID: userID, ticketID: ticketID)
    let runs = await liveRuns(Set(ticket.runs))
    let now = clock.now()
    let shown = withLiveState(ticket, runs: runs, now: now)
    if let refusal = refundRefusal(ticket, anyTrainCancelled: shown.anyTrainCancelled, now: now) {
      throw ServiceError.failedPrecondition(refusal)
    }
    guard let purchase = try await store.purchase(id: ticket.purchaseID), let chargeID = purchase.chargeID else {
      throw ServiceError.failedPrecondition("the purchase of this ticket has no charge to refund")
    }
    let receipt = try await charger.refund(
      chargeID: chargeID,
      amountMinor: ticket.price.amountMinor,
      reference: "refund-\(ticket.id)"
    )
    let (refunded, follows) = try await store.markRefunded(ticketID: ticket.id, refundChargeID: receipt.chargeID, at: now)
    await sendFollowChanges(follows)
    return (withLiveState(refunded, runs: runs, now: now), ticket.price)
  }
}
