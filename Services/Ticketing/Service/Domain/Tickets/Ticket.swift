import BinarioDomain
import Foundation

/// One passenger's ticket, as sold and as used.
public struct Ticket: Sendable, Hashable, Codable {
  public enum Kind: String, Sendable, Hashable, Codable {
    case station, zone, carnet, pass
  }

  public enum TravelClass: String, Sendable, Hashable, Codable {
    case first, second
  }

  public enum PassPeriod: String, Sendable, Hashable, Codable {
    case monthly, yearly
  }

  /// What the ticket is good for now (``status(at:)``).
  public enum Status: String, Sendable, Hashable {
    case valid, used, expired, refunded
  }

  /// One way of a station ticket: a run from one of its stations to a later one.
  public struct Journey: Sendable, Hashable, Codable {
    public var run: RunReference
    public var trainNumber: String
    public var fromStationID: String
    public var fromStationName: String
    public var toStationID: String
    public var toStationName: String
    public var departure: Date
    public var arrival: Date
    /// The run's line short name (not kept by tickets bought before it was recorded).
    public var line: String? = nil
    /// The run no longer takes this way: taken out of the timetable, or no longer calling at one
    /// of its two stations (scheduling's timetable events). The way is cancelled and refundable.
    public var runRemoved: Bool? = nil

    /// This way after its run changed in the timetable: the run's current times at its two
    /// stations, or removed when `run` is gone (`nil`) or no longer calls at both in order.
    public func following(_ run: TimetableRun?) -> Journey {
      var journey = self
      guard let run,
        let from = run.stops.firstIndex(where: { $0.stationID == fromStationID }),
        let to = run.stops.lastIndex(where: { $0.stationID == toStationID }), from < to,
        let departure = run.stops[from].scheduledDeparture ?? run.stops[from].scheduledArrival,
        let arrival = run.stops[to].scheduledArrival ?? run.stops[to].scheduledDeparture
      else {
        journey.runRemoved = true
        return journey
      }
      journey.runRemoved = nil
      journey.departure = departure
      journey.arrival = arrival
      journey.trainNumber = run.trainNumber
      return journey
    }
  }

  public var id: String
  public var purchaseID: String
  public var holderID: String
  public var kind: Kind
  public var description: String
  public var price: Money
  public var travelClass: TravelClass?
  /// A station ticket's way out: its first (often only) train.
  public var outbound: Journey?
  public var returnJourney: Journey?
  /// The zone range (`Mi1-Mi3`) of a zone ticket, carnet or zone pass.
  public var zones: String?
  /// 0 for a pass: any number of rides within its dates.
  public var ridesTotal: Int
  public var ridesUsed: Int
  /// How long a validated ride lasts.
  public var rideMinutes: Int
  public var validFrom: Date
  public var validUntil: Date
  /// While a validated ride is active.
  public var activeUntil: Date?
  public var passPeriod: PassPeriod?
  public var refundedAt: Date?
  public var createdAt: Date
  /// The signed code shown to an inspector (``TicketCodes``).
  public var validationCode: String
  /// The trains after `outbound` on a way with changes, in order (`nil` for a direct train).
  public var outboundConnections: [Journey]? = nil
  /// The trains after `returnJourney` on a way back with changes.
  public var returnConnections: [Journey]? = nil
  /// `description` in the languages besides English, by code (not kept by tickets sold before).
  public var descriptionTranslations: [String: String]? = nil

  /// The description in every language it was written in.
  public var descriptionWords: TranslatedText {
    TranslatedText(english: description, translations: descriptionTranslations ?? [:])
  }

  public func status(at now: Date) -> Status {
    if refundedAt != nil { return .refunded }
    if let activeUntil, now < activeUntil { return .valid }
    if ridesTotal > 0 && ridesUsed >= ridesTotal { return .used }
    if now >= validUntil { return .expired }
    return .valid
  }

  /// The trains of the way out, in order: `outbound`, then its connections.
  public var outboundLegs: [Journey] {
    outbound.map { [$0] + (outboundConnections ?? []) } ?? []
  }

  /// The trains of the way back, in order.
  public var returnLegs: [Journey] {
    returnJourney.map { [$0] + (returnConnections ?? []) } ?? []
  }

  /// Every train a holder rides and follows: the way out's, then the way back's.
  public var journeys: [Journey] { outboundLegs + returnLegs }

  /// The ways in the order they are ridden (out, then back), each its trains in order: a
  /// station ticket uses one ride per way.
  public var ways: [[Journey]] { [outboundLegs, returnLegs].filter { !$0.isEmpty } }

  public var runs: [RunReference] { journeys.map(\.run) }

  /// When the ticket is first needed: its first departure, else its first valid day.
  public var sortKey: Date { outbound?.departure ?? validFrom }

  /// The ticket with one more ride used at `now`, its ride active for ``rideMinutes``.
  /// - Throws: ``BinarioDomain/ServiceError/failedPrecondition(_:)`` when it may not travel.
  public func validated(at now: Date) throws(ServiceError) -> Ticket {
    try checkDates(at: now)
    if ridesTotal > 0 && ridesUsed >= ridesTotal {
      let last = activeUntil.map { " (its last ride was active until \($0.ISO8601Format()))" } ?? ""
      throw .failedPrecondition(
        ridesTotal == 1 ? "this ticket was already used\(last)" : "every one of this ticket's \(ridesTotal) rides was used\(last)"
      )
    }
    var validated = self
    validated.ridesUsed += 1
    if kind == .pass {
      validated.activeUntil = nil
    } else {
      // A station ticket's ride lasts at least until the last train of its way arrives: a
      // journey with long changes may take longer than the fare table's minutes.
      let wayEnd = ways.dropFirst(ridesUsed).first?.last?.arrival
      validated.activeUntil = max(now.addingTimeInterval(TimeInterval(rideMinutes * 60)), wayEnd ?? .distantPast)
    }
    return validated
  }

  /// Whether the ticket may travel at `now` without using a ride, and if not why.
  public func mayTravel(at now: Date) -> (Bool, String) {
    do {
      try checkDates(at: now)
    } catch {
      return (false, error.description)
    }
    if kind == .pass { return (true, "") }
    if let activeUntil, now < activeUntil { return (true, "") }
    return (false, ridesUsed == 0 ? "not validated yet" : "its ride ended at \(activeUntil?.ISO8601Format() ?? "-")")
  }

  private func checkDates(at now: Date) throws(ServiceError) {
    if refundedAt != nil { throw .failedPrecondition("this ticket was refunded") }
    if now < validFrom { throw .failedPrecondition("this ticket is valid from \(validFrom.ISO8601Format())") }
    if now >= validUntil { throw .failedPrecondition("this ticket expired at \(validUntil.ISO8601Format())") }
  }
}

/// A ticket's live state: its journeys' runs as scheduling shows them now.
public struct TicketWithLiveState: Sendable, Hashable {
  public var ticket: Ticket
  /// At the boarding stop of the outbound and return runs; `nil` when scheduling could not say.
  public var outboundLive: TimetableRun.Stop?
  public var returnLive: TimetableRun.Stop?
  /// At the boarding stops of the connections, in the order of the ticket's connections.
  public var outboundConnectionsLive: [TimetableRun.Stop?]
  public var returnConnectionsLive: [TimetableRun.Stop?]
  public var refundable: Bool
  public var validations: [TicketValidation]

  public init(
    ticket: Ticket,
    outboundLive: TimetableRun.Stop?,
    returnLive: TimetableRun.Stop?,
    outboundConnectionsLive: [TimetableRun.Stop?] = [],
    returnConnectionsLive: [TimetableRun.Stop?] = [],
    refundable: Bool,
    validations: [TicketValidation] = []
  ) {
    self.ticket = ticket
    self.outboundLive = outboundLive
    self.returnLive = returnLive
    self.outboundConnectionsLive = outboundConnectionsLive
    self.returnConnectionsLive = returnConnectionsLive
    self.refundable = refundable
    self.validations = validations
  }

  /// Whether any train of the ticket is cancelled where its holder boards it.
  public var anyTrainCancelled: Bool {
    ([outboundLive, returnLive] + outboundConnectionsLive + returnConnectionsLive).contains { $0?.cancelled == true }
  }
}

/// A ride an inspector validated.
public struct TicketValidation: Sendable, Hashable {
  public var ticketID: String
  public var ride: Int
  public var validatedAt: Date
  public var activeUntil: Date?
  public var inspectorID: String

  public init(ticketID: String, ride: Int, validatedAt: Date, activeUntil: Date?, inspectorID: String) {
    self.ticketID = ticketID
    self.ride = ride
    self.validatedAt = validatedAt
    self.activeUntil = activeUntil
    self.inspectorID = inspectorID
  }
}

/// What a validation code says, once its signature is checked.
public struct TicketCodeClaims: Sendable, Hashable {
  public var ticketID: String
  public var holderID: String
  public var kind: Ticket.Kind
  public var validFrom: Date
  public var validUntil: Date

  public init(ticketID: String, holderID: String, kind: Ticket.Kind, validFrom: Date, validUntil: Date) {
    self.ticketID = ticketID
    self.holderID = holderID
    self.kind = kind
    self.validFrom = validFrom
    self.validUntil = validUntil
  }
}

/// Makes and checks tickets' validation codes (signed with ticketing's key).
public protocol TicketCodes: Sendable {
  func code(for claims: TicketCodeClaims) -> String
  /// - Throws: ``BinarioDomain/ServiceError/invalid(_:)`` for a malformed, forged or altered code.
  func verify(_ code: String) throws -> TicketCodeClaims
}
