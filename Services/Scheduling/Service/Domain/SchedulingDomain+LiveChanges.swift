import BinarioDomain
import Foundation

extension SchedulingDomain {
  /// Delays the run from a stop on (`fromSequence` 0: the first stop) by `minutes` (0 clears
  /// it), or, with `newDeparture` (`HH:MM`), to that departure time from the stop.
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
    if !(0 ... 1440).contains(minutes) { throw ServiceError.invalid("minutes", "from 0 (on time) to 1440") }
    let newTime = newDeparture.isEmpty ? nil : ServiceTime(clock: newDeparture)
    if !newDeparture.isEmpty {
      if newTime == nil { throw ServiceError.invalid("new_departure", "a time as HH:MM (past 24:00 after midnight)") }
      if minutes != 0 { throw ServiceError.invalid("new_departure", "set minutes or new_departure, not both") }
    }
    return try await change(adminID: adminID, tripID: tripID, date: date, reason: reason, idempotencyKey: idempotencyKey) { run in
      let from = try Self.stopSequence(fromSequence, of: run, field: "from_sequence", zeroMeansFirst: true)
      guard let newTime, let scheduled = run.stop(from)?.planned.departure else {
        return .delay(fromSequence: from, minutes: minutes)
      }
      let late = newTime.secondsSinceServiceDayStart - scheduled.secondsSinceServiceDayStart
      guard (0 ... 1440 * 60).contains(late) else {
        throw ServiceError.invalid(
          "new_departure",
          "must be from the scheduled departure \(String(scheduled.description.prefix(5))) to a day later"
        )
      }
      return .delay(fromSequence: from, minutes: (late + 59) / 60)
    }
  }

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
      .platform(sequence: try Self.stopSequence(sequence, of: run, field: "sequence", zeroMeansFirst: false), platform: platform)
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
      .cancellation(fromSequence: try Self.stopSequence(fromSequence, of: run, field: "from_sequence", zeroMeansFirst: true))
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
      notifyingFollowersWith: Self.notice(of: change, on: after),
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

  /// What a run's followers are told about a change, in every language.
  static func notice(of change: RecordedRunChange, on run: LiveRun) -> NotificationContent {
    let train: PersonText = "\(run.line.shortName) \(run.state.run.trainNumber) to \(run.headsign)"
    let data = ["trip_id": run.tripID, "service_date": run.serviceDate.description, "change_id": change.id]
    func station(_ sequence: Int) -> PersonText {
      if let name = run.stop(sequence).flatMap({ run.stations[$0.planned.stationID]?.name }) { return PersonText(verbatim: name) }
      return "stop \(sequence)"
    }
    func clock(_ time: ServiceTime) -> String { String(time.description.prefix(5)) }
    // The reason is the admin's words, as they wrote them.
    let reason = PersonText(verbatim: change.reason)
    switch change.kind {
    case .delay(let from, let minutes):
      let title: PersonText = minutes == 0 ? "\(train) is back on time" : "\(train) is \(minutes) minutes late"
      guard minutes != 0, let stop = run.stop(from) else {
        return NotificationContent(kind: .tripDelay, title: TranslatedText(title), body: TranslatedText("\(reason)."), data: data)
      }
      let expected = clock(stop.expectedDeparture)
      let planned = clock(stop.planned.departure)
      let body: PersonText = "\(reason). Leaves \(station(from)) at \(expected) instead of \(planned)."
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
      let title: PersonText = from == first ? "\(train) is cancelled" : "\(train) ends at \(station(from))"
      return NotificationContent(kind: .cancellation, title: TranslatedText(title), body: TranslatedText("\(reason)."), data: data)
    }
  }
}
