import BinarioDomain
import Foundation

extension SchedulingDomain {
  /// Delays the run from a stop on (`fromSequence` 0: the first stop) by `minutes` (0 clears
  /// it; negative: early), or, with `newDeparture` (`HH:MM`), to that departure time from the
  /// stop. Early is at most ``earliestMove`` minutes, and never before the train reaches the
  /// stop.
  public func delay(
    adminID: String,
    tripID: String,
    date: String,
    fromSequence: Int,
    minutes: Int,
    newDeparture: String = "",
    reason: String,
    idempotencyKey: String = ""
  ) async throws -> LiveRun {
    if !(-Self.earliestMove ... 1440).contains(minutes) {
      throw ServiceError.invalid("minutes", "from -\(Self.earliestMove) (early) to 1440; 0 is on time")
    }
    let newTime = newDeparture.isEmpty ? nil : ServiceTime(clock: newDeparture)
    if !newDeparture.isEmpty {
      if newTime == nil { throw ServiceError.invalid("new_departure", "a time as HH:MM (past 24:00 after midnight)") }
      if minutes != 0 { throw ServiceError.invalid("new_departure", "set minutes or new_departure, not both") }
    }
    return try await change(adminID: adminID, tripID: tripID, date: date, reason: reason, idempotencyKey: idempotencyKey) { run in
      let from = try Self.stopSequence(fromSequence, of: run, field: "from_sequence", zeroMeansFirst: true)
      try Self.checkCalls(run, at: from, for: "delayed" as PersonText)
      guard let stop = run.stop(from) else { return .delay(fromSequence: from, minutes: minutes) }
      let scheduled = stop.planned.departure.secondsSinceServiceDayStart
      var late = minutes
      if let newTime {
        let seconds = newTime.secondsSinceServiceDayStart - scheduled
        guard (-Self.earliestMove * 60 ... 1440 * 60).contains(seconds) else {
          throw ServiceError.invalid(
            "new_departure",
            "must be from \(Self.earliestMove) minutes before the scheduled departure \(Self.clock(stop.planned.departure)) to a day after it"
          )
        }
        // Whole minutes, rounded away from the plan: never earlier than asked.
        late = seconds >= 0 ? (seconds + 59) / 60 : seconds / 60
      }
      // A train cannot leave a stop before it reaches it (nor the first before its day starts).
      let reached = run.state.stops.first?.planned.sequence == from ? 0 : stop.expectedArrival.secondsSinceServiceDayStart
      if scheduled + late * 60 < reached {
        let station = PersonText(verbatim: run.stations[stop.planned.stationID]?.name ?? "stop \(from)")
        throw ServiceError.invalid(
          newTime == nil ? "minutes" : "new_departure",
          "the train reaches \(station) at \(Self.clock(stop.expectedArrival)); it cannot leave before"
        )
      }
      return .delay(fromSequence: from, minutes: late)
    }
  }

  /// How many minutes earlier than planned an admin may move a departure.
  public static let earliestMove = 120

  /// Moves the run's stop `sequence` to `platform`.
  public func changePlatform(
    adminID: String,
    tripID: String,
    date: String,
    sequence: Int,
    platform rawPlatform: String,
    reason: String,
    idempotencyKey: String = ""
  ) async throws -> LiveRun {
    var check = InputValidation()
    let platform = check.requiredText(rawPlatform, field: "platform", what: "the platform", maxLength: 10)
    try check.finish()
    return try await change(adminID: adminID, tripID: tripID, date: date, reason: reason, idempotencyKey: idempotencyKey) { run in
      let at = try Self.stopSequence(sequence, of: run, field: "sequence", zeroMeansFirst: false)
      try Self.checkCalls(run, at: at, for: "moved to another platform" as PersonText)
      return .platform(sequence: at, platform: platform)
    }
  }

  /// Cancels the run, whole (`fromSequence` 0) or from a stop on.
  public func cancel(
    adminID: String,
    tripID: String,
    date: String,
    fromSequence: Int,
    reason: String,
    idempotencyKey: String = ""
  ) async throws -> LiveRun {
    try await change(adminID: adminID, tripID: tripID, date: date, reason: reason, idempotencyKey: idempotencyKey) { run in
      let from = try Self.stopSequence(fromSequence, of: run, field: "from_sequence", zeroMeansFirst: true)
      if run.stop(from)?.cancelled == true {
        if run.state.isCancelled { throw ServiceError.failedPrecondition("the run is already cancelled; nobody was told again") }
        throw ServiceError.failedPrecondition(
          "the run is already cancelled from \(Self.stationName(of: from, on: run)) on; nobody was told again"
        )
      }
      return .cancellation(fromSequence: from)
    }
  }

  /// Every change made to the run, oldest first.
  public func changes(tripID rawTrip: String, date rawDate: String) throws -> [RecordedRunChange] {
    let (tripID, date) = try Self.runRef(tripID: rawTrip, date: rawDate)
    _ = try liveRun(tripID: tripID, on: date)
    return try store.changes(tripID: tripID, on: date)
  }

  /// Records a change to a run and tells its followers, in one transaction. A change its admin
  /// already made with `idempotencyKey` is not made again: the answer is that run as it is now.
  private func change(
    adminID: String,
    tripID rawTrip: String,
    date rawDate: String,
    reason rawReason: String,
    idempotencyKey rawKey: String,
    _ kind: (LiveRun) throws -> RunChangeKind
  ) async throws -> LiveRun {
    let (tripID, date) = try Self.runRef(tripID: rawTrip, date: rawDate)
    var check = InputValidation()
    let reason = check.requiredText(rawReason, field: "reason", what: "a reason", maxLength: 500)
    let key = check.optionalText(rawKey, field: "idempotency_key", what: "an idempotency key", maxLength: 100)
    try check.finish()
    // A retry is answered before the change is worked out again: the run may have changed
    // since, so that the change would no longer apply.
    if !key.isEmpty, let earlier = try store.change(by: adminID, idempotencyKey: key) {
      return try liveRun(tripID: earlier.tripID, on: earlier.serviceDate)
    }
    let before = try liveRun(tripID: tripID, on: date)
    let change = RecordedRunChange(
      id: UUID().uuidString.lowercased(),
      tripID: tripID,
      serviceDate: date,
      kind: try kind(before),
      reason: reason,
      changedBy: adminID,
      changedAt: clock.now()
    )
    let after = try liveRun(before.state.run, adding: change.kind)
    let earlier = try await store.record(
      change,
      idempotencyKey: key.isEmpty ? nil : key,
      notifying: { part in Self.notice(of: change, on: after, for: part) },
      onCommitted: notifications.onCommitted
    )
    if let earlier {
      // The same key raced this call in: that one's change stands.
      return try liveRun(tripID: earlier.tripID, on: earlier.serviceDate)
    }
    return after
  }

  private func liveRun(_ run: PlannedRun, adding change: RunChangeKind) throws -> LiveRun {
    let changes = try store.changes(tripID: run.tripID, on: run.serviceDate).map(\.kind) + [change]
    let live = try liveRun(run)
    return LiveRun(state: RunLiveState(run: run, changes: changes), line: live.line, stations: live.stations, zone: zone)
  }

  /// The stop `sequence` of `run`, or `INVALID_ARGUMENT` naming `field`.
  static func stopSequence(_ sequence: Int, of run: LiveRun, field: String, zeroMeansFirst: Bool) throws -> Int {
    if sequence == 0, zeroMeansFirst, let first = run.state.stops.first { return first.planned.sequence }
    guard run.stop(sequence) != nil else {
      let known = run.state.stops.map { String($0.planned.sequence) }.joined(separator: ", ")
      throw ServiceError.invalid(field, "the run has no stop \(sequence) (its stops: \(known))")
    }
    return sequence
  }

  /// `FAILED_PRECONDITION` when the run no longer calls at stop `sequence`: a cancelled stop
  /// is neither delayed nor given a platform.
  static func checkCalls(_ run: LiveRun, at sequence: Int, for change: PersonText) throws {
    guard run.stop(sequence)?.cancelled == true else { return }
    if run.state.isCancelled { throw ServiceError.failedPrecondition("the run is cancelled: it cannot be \(change)") }
    throw ServiceError.failedPrecondition(
      "the run no longer calls at \(stationName(of: sequence, on: run)) (it was cancelled from there): it cannot be \(change) there"
    )
  }

  static func stationName(of sequence: Int, on run: LiveRun) -> PersonText {
    if let name = run.stop(sequence).flatMap({ run.stations[$0.planned.stationID]?.name }) { return PersonText(verbatim: name) }
    return "stop \(sequence)"
  }

  static func clock(_ time: ServiceTime) -> String { String(time.description.prefix(5)) }

  /// What a follower riding `part` of the run is told about a change, in every language, or
  /// `nil` when it does not concern them (``RunChangeKind/concerns(board:alight:wholeRun:)``).
  static func notice(of change: RecordedRunChange, on run: LiveRun, for part: FollowedPart) -> NotificationContent? {
    guard let (board, alight) = part.stops(on: run.state.run),
      change.kind.concerns(board: board, alight: alight, wholeRun: part.isWholeRun)
    else { return nil }
    let train: PersonText = "\(run.line.shortName) \(run.state.run.trainNumber) to \(run.headsign)"
    let data = ["trip_id": run.tripID, "service_date": run.serviceDate.description, "change_id": change.id]
    func station(_ sequence: Int) -> PersonText { stationName(of: sequence, on: run) }
    // The reason is the admin's words, as they wrote them.
    let reason = PersonText(verbatim: change.reason)
    switch change.kind {
    case .delay(let from, let minutes):
      let title: PersonText =
        switch minutes {
        case 0: "\(train) is back on time"
        case ..<0: "\(train) leaves \(-minutes) minutes early"
        default: "\(train) is \(minutes) minutes late"
        }
      // The traveller's own stop: where they board when the change reaches it, else where they
      // get off (someone following the whole run: the stop it changes from).
      let ownStop = part.isWholeRun || board >= from ? run.stop(part.isWholeRun ? from : board) : nil
      let body: PersonText =
        if minutes == 0 {
          "\(reason)."
        } else if let stop = ownStop {
          "\(reason). Leaves \(station(stop.planned.sequence)) at \(clock(stop.expectedDeparture)) instead of \(clock(stop.planned.departure))."
        } else if let stop = run.stop(alight) {
          "\(reason). Arrives at \(station(alight)) at \(clock(stop.expectedArrival)) instead of \(clock(stop.planned.arrival))."
        } else {
          "\(reason)."
        }
      return NotificationContent(kind: .tripDelay, title: TranslatedText(title), body: TranslatedText(body), data: data)
    case .platform(let sequence, let platform):
      return NotificationContent(
        kind: .platformChange,
        title: "\(train): platform \(platform) at \(station(sequence))",
        body: "Now leaving from platform \(platform). \(reason).",
        data: data
      )
    case .cancellation(let from):
      let first = run.state.stops.first?.planned.sequence
      let whole = from == first
      // Where the train now ends: the last stop before the cancelled ones.
      let lastCall = run.state.stops.last { $0.planned.sequence < from }?.planned.sequence ?? from
      let beforeBoarding = !part.isWholeRun && from <= board
      let title: PersonText =
        if whole {
          "\(train) is cancelled"
        } else if beforeBoarding {
          "\(train) does not call at \(station(board))"
        } else {
          "\(train) ends at \(station(lastCall))"
        }
      let body: PersonText =
        if whole || beforeBoarding || part.isWholeRun {
          "\(reason)."
        } else {
          "\(reason). It no longer reaches \(station(alight))."
        }
      return NotificationContent(kind: .cancellation, title: TranslatedText(title), body: TranslatedText(body), data: data)
    }
  }
}
