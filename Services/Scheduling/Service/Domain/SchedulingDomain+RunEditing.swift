import BinarioDomain
import Foundation

/// A stop of a run as an admin writes it: times as typed (`HH:MM[:SS]`, past 24:00 after
/// midnight), either may be empty (then it is the other).
public struct RunStopInput: Sendable, Hashable {
  public var stationID: String
  public var platform: String
  public var arrival: String
  public var departure: String

  public init(stationID: String, platform: String, arrival: String, departure: String) {
    self.stationID = stationID
    self.platform = platform
    self.arrival = arrival
    self.departure = departure
  }
}

extension SchedulingDomain {
  /// Adds a run on `date`: a trip of its own with these stops.
  public func createRun(
    tripID rawTripID: String,
    date rawDate: String,
    lineID rawLine: String,
    trainNumber rawNumber: String,
    headsign rawHeadsign: String,
    stops rawStops: [RunStopInput]
  ) async throws -> LiveRun {
    var check = InputValidation()
    let date = ServiceDate(iso: rawDate)
    if date == nil { check.fail("service_date", "a date as YYYY-MM-DD, not \"\(rawDate)\"") }
    let lineID = check.requiredText(rawLine, field: "line_id", what: "a line", maxLength: 100)
    if !lineID.isEmpty && catalog.withLock({ $0.lines[lineID] }) == nil {
      check.fail("line_id", "no line \(lineID) (see the admin lines list)")
    }
    let trainNumber = check.requiredText(rawNumber, field: "train_number", what: "a train number", maxLength: 20)
    let headsign = check.optionalText(rawHeadsign, field: "headsign", what: "the headsign")
    let tripID = check.optionalText(rawTripID, field: "trip_id", what: "the trip id", maxLength: 100)
    let stops = checkedStops(rawStops, field: "stops", &check)
    try check.finish()
    let id = tripID.isEmpty ? "\(trainNumber)-\(date!.description)-\(UUID().uuidString.prefix(8).lowercased())" : tripID
    do {
      try await store.insertRun(tripID: id, lineID: lineID, trainNumber: trainNumber, headsign: headsign, on: date!, stops: stops, at: clock.now())
    } catch StoreConflict.duplicate {
      throw ServiceError.alreadyExists("there is already a trip \(id)")
    }
    return try liveRun(tripID: id, on: date!)
  }

  /// Rewrites a run's train number, headsign and stops on its date. A trip that runs on other
  /// dates too keeps them; this date's run becomes a trip of its own (`<trip>@<date>`), taking
  /// its followers and live changes along.
  public func updateRun(
    tripID rawTrip: String,
    date rawDate: String,
    trainNumber rawNumber: String,
    headsign rawHeadsign: String,
    stops rawStops: [RunStopInput]
  ) async throws -> LiveRun {
    let (tripID, date) = try Self.runRef(tripID: rawTrip, date: rawDate)
    let current = try liveRun(tripID: tripID, on: date)
    var check = InputValidation()
    let number = check.optionalText(rawNumber, field: "train_number", what: "the train number", maxLength: 20)
    let headsign = check.optionalText(rawHeadsign, field: "headsign", what: "the headsign")
    let stops = rawStops.isEmpty ? nil : checkedStops(rawStops, field: "stops", &check)
    try check.finish()
    let planned = current.state.run
    let trainNumber = number.isEmpty ? planned.trainNumber : number
    let newHeadsign = headsign.isEmpty ? planned.headsign : headsign
    // Followers hear of new stops or times (not of a new number or headsign alone).
    let notice = stops.map { stops in
      NotificationContent(
        kind: .tripDelay,
        title: "\(current.line.shortName) \(trainNumber) to \(newHeadsign) on \(date): new times",
        body: TranslatedText(Self.timesSummary(stops, stations: stationsByID)),
        data: ["trip_id": tripID, "service_date": date.description]
      )
    }
    if try store.serviceDayCount(tripID: tripID) <= 1 {
      try await store.rewriteRun(
        tripID: tripID,
        on: date,
        trainNumber: trainNumber,
        headsign: newHeadsign,
        stops: stops,
        notice: notice,
        at: clock.now(),
        onCommitted: notifications.onCommitted
      )
      return try liveRun(tripID: tripID, on: date)
    }
    let newTripID = "\(tripID)@\(date.description)"
    let keptStops =
      stops
      ?? planned.stops.map {
        RunStopDraft(stationID: $0.stationID, platform: $0.platform, arrival: $0.arrival, departure: $0.departure)
      }
    do {
      try await store.splitRun(
        tripID: tripID,
        on: date,
        into: newTripID,
        lineID: planned.lineID,
        trainNumber: trainNumber,
        headsign: newHeadsign,
        stops: keptStops,
        stopsChanged: stops != nil,
        notice: notice.map { notice in
          var moved = notice
          moved.data["trip_id"] = newTripID
          return moved
        },
        at: clock.now(),
        onCommitted: notifications.onCommitted
      )
    } catch StoreConflict.duplicate {
      throw ServiceError.alreadyExists("there is already a trip \(newTripID)")
    }
    return try liveRun(tripID: newTripID, on: date)
  }

  /// Removes a run from its date; its followers are told and stop following it.
  public func removeRun(adminID: String, tripID rawTrip: String, date rawDate: String, reason rawReason: String) async throws {
    let (tripID, date) = try Self.runRef(tripID: rawTrip, date: rawDate)
    var check = InputValidation()
    let reason = check.optionalText(rawReason, field: "reason", what: "the reason", maxLength: 500)
    try check.finish()
    let run = try liveRun(tripID: tripID, on: date)
    let notice = NotificationContent(
      kind: .cancellation,
      title: "\(run.line.shortName) \(run.state.run.trainNumber) to \(run.headsign) no longer runs on \(date)",
      body: reason.isEmpty ? "It was taken out of the timetable." : "\(PersonText(verbatim: reason)).",
      data: ["trip_id": tripID, "service_date": date.description]
    )
    try await store.removeRun(
      tripID: tripID,
      on: date,
      reason: reason,
      notifyingFollowersWith: notice,
      at: clock.now(),
      onCommitted: notifications.onCommitted
    )
  }

  /// "Leaves Milano Centrale 08:05, arrives Bergamo 08:55."
  static func timesSummary(_ stops: [RunStopDraft], stations: [String: Station]) -> PersonText {
    guard let first = stops.first, let last = stops.last else { return "Its stops changed." }
    func name(_ id: String) -> String { stations[id]?.name ?? id }
    return "Leaves \(name(first.stationID)) \(clock(first.departure)), arrives \(name(last.stationID)) \(clock(last.arrival))."
  }

  /// Stops as the store keeps them: at known stations, at least two, times never going back.
  private func checkedStops(_ stops: [RunStopInput], field: String, _ check: inout InputValidation) -> [RunStopDraft] {
    if stops.count < 2 { check.fail(field, "a run has at least two stops") }
    if stops.count > 200 { check.fail(field, "at most 200 stops") }
    let stations = stationsByID
    var drafts: [RunStopDraft] = []
    var previous = -1
    for (index, stop) in stops.enumerated() {
      let name = "\(field)[\(index)]"
      let stationID = stop.stationID.trimmingCharacters(in: .whitespaces)
      if stations[stationID] == nil { check.fail("\(name).station_id", "no station \"\(stationID)\"") }
      let arrivalText = stop.arrival.isEmpty ? stop.departure : stop.arrival
      let departureText = stop.departure.isEmpty ? stop.arrival : stop.departure
      guard let arrival = ServiceTime(clock: arrivalText), let departure = ServiceTime(clock: departureText) else {
        check.fail("\(name).departure", "times are HH:MM or HH:MM:SS (up to 47:59:59 after midnight)")
        continue
      }
      if arrival.secondsSinceServiceDayStart < previous || departure < arrival {
        check.fail("\(name).arrival", "times must not go back (\(arrivalText) after \(ServiceTime(seconds: max(previous, 0))))")
      }
      previous = departure.secondsSinceServiceDayStart
      drafts.append(
        RunStopDraft(
          stationID: stationID,
          platform: stop.platform.trimmingCharacters(in: .whitespaces),
          arrival: arrival,
          departure: departure
        )
      )
    }
    return drafts
  }
}
