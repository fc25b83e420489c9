import BinarioDomain
import Foundation

extension SchedulingDomain {
  /// Every station by name, or those whose name or code contains `query` (any case).
  public func stations(matching rawQuery: String) -> [Station] {
    let query = rawQuery.trimmingCharacters(in: .whitespaces)
    let all = stationsByID.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    guard !query.isEmpty else { return all }
    return all.filter {
      $0.name.localizedCaseInsensitiveContains(query) || $0.code.localizedCaseInsensitiveContains(query)
    }
  }

  public func lines() -> [Line] {
    catalog.withLock { Array($0.lines.values) }.sorted { ($0.shortName, $0.id) < ($1.shortName, $1.id) }
  }

  /// One run, live.
  public func run(tripID rawTrip: String, date rawDate: String) throws -> LiveRun {
    let (tripID, date) = try Self.runRef(tripID: rawTrip, date: rawDate)
    return try liveRun(tripID: tripID, on: date)
  }

  /// A station's next departures at or after `after` (default now), live; a cancelled stop
  /// stays on the board, marked.
  public func departures(stationID rawID: String, after: Date?, limit rawLimit: Int) throws -> DepartureBoard {
    var check = InputValidation()
    let stationID = check.requiredText(rawID, field: "station_id", what: "a station id", maxLength: 100)
    if !(0 ... 50).contains(rawLimit) { check.fail("limit", "at most 50") }
    try check.finish()
    guard let station = stationsByID[stationID] else { throw ServiceError.notFound("no station \(stationID)") }
    let instant = after ?? clock.now()
    let limit = rawLimit == 0 ? 10 : rawLimit
    let key = DepartureBoardCache.Key(stationID: stationID, limit: limit)
    let version = store.timetableVersion
    if let board = boards.board(for: key, at: instant, version: version) { return board }
    let (date, time) = zone.serviceTime(at: instant)
    let catalog = catalog.withLock { $0 }
    var departures: [LiveDeparture] = []
    var firstDeparture = Date.distantFuture
    for (departure, planned, changes) in try store.departureRuns(from: stationID, on: date, after: time, limit: limit) {
      let run = liveRun(planned, changes: changes, catalog: catalog)
      guard let stop = run.state.stops.first(where: { $0.planned.stationID == stationID && $0.planned.departure == departure.departure })
      else { continue }
      departures.append(LiveDeparture(run: run, sequence: stop.planned.sequence))
      firstDeparture = min(firstDeparture, run.instant(departure.departure))
    }
    // The notices not over yet for the station or a line leaving it: announced ahead, shown
    // until they end (when the board is computed again).
    let lines = Set(departures.map(\.run.line.id))
    let notices = try store.notices(endingAfter: instant).filter { $0.concerns(stationID: stationID, lineIDs: lines) }
    let board = DepartureBoard(station: station, departures: departures, notices: notices, edition: boards.nextEdition())
    // A board with fewer trains than asked looked as far ahead as it does; later it would look
    // further, so only a full one is kept.
    let noticeEnds = notices.map(\.endsAt).min() ?? .distantFuture
    boards.keep(
      board,
      for: key,
      at: instant,
      version: version,
      validUntil: departures.count == limit ? min(firstDeparture, noticeEnds) : instant
    )
    return board
  }

  /// Journeys from one station to another leaving at or after `after` (default now): direct
  /// runs, and journeys with one change where direct ones (within a day) do not fill `limit`,
  /// earliest arrival first. A journey whose boarding or alighting stop is cancelled is left out.
  ///
  /// Journeys with a change are looked for only when the direct ones do not fill the answer, and
  /// off the calling event loop: that search joins every run through the origin with every run
  /// to the destination, a few milliseconds that calls sharing the loop would otherwise wait.
  public func journeys(from rawFrom: String, to rawTo: String, after: Date?, limit rawLimit: Int) async throws -> [Journey] {
    var check = InputValidation()
    let from = check.requiredText(rawFrom, field: "from_station_id", what: "a station id", maxLength: 100)
    let to = check.requiredText(rawTo, field: "to_station_id", what: "a station id", maxLength: 100)
    if !(0 ... 20).contains(rawLimit) { check.fail("limit", "at most 20") }
    if !from.isEmpty && from == to { check.fail("to_station_id", "the destination is the departure station") }
    try check.finish()
    let stations = stationsByID
    if stations[from] == nil { throw ServiceError.notFound("no station \(from)") }
    if stations[to] == nil { throw ServiceError.notFound("no station \(to)") }
    let limit = rawLimit == 0 ? 5 : rawLimit
    let (date, time) = zone.serviceTime(at: after ?? clock.now())
    let earliest = time.secondsSinceServiceDayStart
    let catalog = catalog.withLock { $0 }
    var runs: [RunKey: LiveRun] = [:]
    // Every run the candidates use that is not known yet, live, in one read.
    func addRuns(_ legs: [PlannedLeg]) throws {
      var keys: [RunKey] = []
      for planned in legs {
        let key = RunKey(tripID: planned.tripID, serviceDate: planned.serviceDate)
        if runs[key] == nil, !keys.contains(key) { keys.append(key) }
      }
      guard !keys.isEmpty else { return }
      for (planned, changes) in try store.runsWithChanges(keys.map { ($0.tripID, $0.serviceDate) }) {
        runs[RunKey(tripID: planned.tripID, serviceDate: planned.serviceDate)] = liveRun(planned, changes: changes, catalog: catalog)
      }
    }
    func leg(_ planned: PlannedLeg) -> LiveLeg? {
      runs[RunKey(tripID: planned.tripID, serviceDate: planned.serviceDate)].map {
        LiveLeg(run: $0, boardSequence: planned.boardSequence, alightSequence: planned.alightSequence)
      }
    }

    let direct = try store.directLegs(from: from, to: to, on: date, after: earliest, limit: limit * 2)
    try addRuns(direct)
    var journeys: [Journey] = []
    for planned in direct {
      if let leg = leg(planned), leg.isRunning { journeys.append(Journey(legs: [leg])) }
    }
    journeys.sort { $0.arrival < $1.arrival }
    journeys = Array(journeys.prefix(limit))
    guard journeys.count < limit else { return journeys }

    // Journeys with a change only where direct runs do not fill the answer.
    let withChange = try await store.oneChangeLegs(
      from: from,
      to: to,
      on: date,
      after: earliest,
      minimumTransfer: Self.minimumTransfer,
      limit: limit
    )
    try addRuns(withChange.flatMap { [$0.0, $0.1] })
    var changing: [Journey] = []
    var seen = Set<[RunKey]>()
    for (first, second) in withChange where journeys.count + changing.count < limit {
      guard let one = leg(first), let two = leg(second), one.isRunning, two.isRunning,
        let reach = one.arrival, let leave = two.departure, leave.timeIntervalSince(reach) >= Double(Self.minimumTransfer)
      else { continue }
      // One journey per pair of runs: the earliest change between them.
      let key = [RunKey(tripID: first.tripID, serviceDate: first.serviceDate), RunKey(tripID: second.tripID, serviceDate: second.serviceDate)]
      guard seen.insert(key).inserted else { continue }
      changing.append(Journey(legs: [one, two]))
    }
    journeys += changing.prefix(limit - journeys.count)
    // Of journeys arriving at the same time, the one leaving latest.
    journeys.sort { ($0.arrival, -$0.departure.timeIntervalSince1970) < ($1.arrival, -$1.departure.timeIntervalSince1970) }
    return Array(journeys.prefix(limit))
  }
}

/// A run: a trip on a service date.
struct RunKey: Hashable {
  var tripID: String
  var serviceDate: ServiceDate
}
