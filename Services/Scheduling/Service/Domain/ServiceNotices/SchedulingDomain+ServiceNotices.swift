import BinarioDomain
import Foundation

/// A service notice as an admin writes it (``SchedulingDomain/createNotice(adminID:_:idempotencyKey:)``).
public struct ServiceNoticeDraft: Sendable {
  public struct Text: Sendable {
    public var language: String
    public var title: String
    public var description: String

    public init(language: String, title: String, description: String) {
      self.language = language
      self.title = title
      self.description = description
    }
  }

  public var texts: [Text]
  public var lineIDs: [String]
  public var stationIDs: [String]
  /// `nil`: now.
  public var startsAt: Date?
  public var endsAt: Date?
  public var cause: ServiceNotice.Cause
  public var effect: ServiceNotice.Effect

  public init(
    texts: [Text],
    lineIDs: [String] = [],
    stationIDs: [String] = [],
    startsAt: Date? = nil,
    endsAt: Date?,
    cause: ServiceNotice.Cause = .other,
    effect: ServiceNotice.Effect = .other
  ) {
    self.texts = texts
    self.lineIDs = lineIDs
    self.stationIDs = stationIDs
    self.startsAt = startsAt
    self.endsAt = endsAt
    self.cause = cause
    self.effect = effect
  }
}

extension SchedulingDomain {
  /// How far ahead a notice may end.
  public static let noticeHorizonDays = 90

  /// Publishes a notice and, in the same transaction, pushes it once to each follower of a run
  /// it concerns: a run in force during the notice, of one of its lines or calling at one of its
  /// stations where the follower rides (every run, for a network-wide notice). The same admin's
  /// `idempotencyKey` again publishes nothing and answers with the notice it made.
  public func createNotice(adminID: String, _ draft: ServiceNoticeDraft, idempotencyKey rawKey: String = "") async throws -> ServiceNotice {
    let now = clock.now()
    var check = InputValidation()
    let key = check.optionalText(rawKey, field: "idempotency_key", what: "an idempotency key", maxLength: 100)
    var texts: [ServiceNotice.Text] = []
    if draft.texts.isEmpty { check.fail("texts", "a title in Italian or English") }
    for (index, text) in draft.texts.enumerated() {
      let field = "texts[\(index)]"
      guard let language = Language(tag: text.language) else {
        check.fail("\(field).language", "\"it\" or \"en\"")
        continue
      }
      if texts.contains(where: { $0.language == language }) { check.fail("\(field).language", "one text per language") }
      let title = check.requiredText(text.title, field: "\(field).title", what: "a title", maxLength: 140)
      let description = check.optionalText(text.description, field: "\(field).description", what: "the description", maxLength: 2000)
      texts.append(ServiceNotice.Text(language: language, title: title, description: description))
    }
    let catalog = catalog.withLock { $0 }
    let lineIDs = Self.uniqueTrimmed(draft.lineIDs)
    for (index, id) in lineIDs.enumerated() where catalog.lines[id] == nil {
      check.fail("line_ids[\(index)]", "no line \(id)")
    }
    let stationIDs = Self.uniqueTrimmed(draft.stationIDs)
    for (index, id) in stationIDs.enumerated() where catalog.stations[id] == nil {
      check.fail("station_ids[\(index)]", "no station \(id)")
    }
    let startsAt = draft.startsAt ?? now
    if let endsAt = draft.endsAt {
      if endsAt <= startsAt { check.fail("ends_at", "after the start") }
      if endsAt <= now { check.fail("ends_at", "in the future") }
      if endsAt > now.addingTimeInterval(Double(Self.noticeHorizonDays) * 86_400) {
        check.fail("ends_at", "within \(Self.noticeHorizonDays) days")
      }
    } else {
      check.fail("ends_at", "when the notice ends")
    }
    try check.finish()
    if !key.isEmpty, let earlier = try store.notice(by: adminID, idempotencyKey: key) { return earlier }
    var notice = ServiceNotice(
      id: UUID().uuidString.lowercased(),
      texts: texts,
      lineIDs: lineIDs,
      stationIDs: stationIDs,
      startsAt: startsAt,
      endsAt: draft.endsAt!,
      cause: draft.cause,
      effect: draft.effect,
      createdBy: adminID,
      createdAt: now
    )
    let told = try followersConcerned(by: notice, catalog: catalog)
    notice.followersTold = told.count
    let words = notice.notification
    let content = NotificationContent(kind: .serviceNotice, title: words.title, body: words.body, data: ["notice_id": notice.id])
    if let earlier = try await store.insert(
      notice,
      idempotencyKey: key.isEmpty ? nil : key,
      notifying: told,
      with: content,
      onCommitted: notifications.onCommitted
    ) {
      return earlier
    }
    return notice
  }

  /// Ends a notice now; a notice already over is answered as it is.
  public func endNotice(id rawID: String) async throws -> ServiceNotice {
    var check = InputValidation()
    let id = check.requiredText(rawID, field: "notice_id", what: "a notice id", maxLength: 100)
    try check.finish()
    guard let ended = try await store.endNotice(id: id, at: clock.now()) else { throw ServiceError.notFound("no service notice \(id)") }
    return ended
  }

  /// The notices not over yet, soonest first; with a station or a line, those concerning it.
  public func notices(stationID rawStation: String = "", lineID rawLine: String = "") throws -> [ServiceNotice] {
    let stationID = rawStation.trimmingCharacters(in: .whitespaces)
    let lineID = rawLine.trimmingCharacters(in: .whitespaces)
    let catalog = catalog.withLock { $0 }
    if !stationID.isEmpty && catalog.stations[stationID] == nil { throw ServiceError.notFound("no station \(stationID)") }
    if !lineID.isEmpty && catalog.lines[lineID] == nil { throw ServiceError.notFound("no line \(lineID)") }
    return try store.notices(endingAfter: clock.now()).filter { notice in
      (stationID.isEmpty || notice.concerns(stationID: stationID, lineIDs: []))
        && (lineID.isEmpty || notice.concerns(lineID: lineID, stationIDs: []))
    }
  }

  /// Every notice, ended ones too, newest first.
  public func allNotices() throws -> [ServiceNotice] { try store.allNotices() }

  /// The notices in force while `run` runs, on its line or at one of its stations.
  public func notices(for run: LiveRun) throws -> [ServiceNotice] {
    guard let first = run.state.stops.first, let last = run.state.stops.last else { return [] }
    let (start, end) = (run.instant(first.expectedDeparture), run.instant(last.expectedArrival).addingTimeInterval(60))
    return try store.notices(endingAfter: start).filter {
      $0.overlaps(start, end) && $0.concerns(lineID: run.line.id, stationIDs: run.state.stops.map(\.planned.stationID))
    }
  }

  /// The followers a new notice concerns, each once, in the order they began following.
  private func followersConcerned(by notice: ServiceNotice, catalog: TimetableCatalog) throws -> [String] {
    let (firstDate, _) = zone.serviceTime(at: notice.startsAt)
    let (lastDate, _) = zone.serviceTime(at: notice.endsAt)
    // A run past midnight belongs to the day before.
    let followed = try store.followedRuns(fromDay: firstDate.adding(days: -1), throughDay: lastDate)
    var plans: [String: PlannedRun] = [:]
    var told: [String] = []
    var seen = Set<String>()
    for (tripID, date, follower) in followed where !seen.contains(follower.userID) {
      let key = "\(tripID)\u{0}\(date)"
      if plans[key] == nil { plans[key] = try store.plannedRun(tripID: tripID, on: date) }
      guard let run = plans[key], let (board, alight) = follower.part.stops(on: run) else { continue }
      let dayStart = zone.start(of: date)
      let ridden = run.stops.filter { $0.sequence >= board && $0.sequence <= alight }
      guard let from = ridden.first, let to = ridden.last else { continue }
      let start = dayStart.addingTimeInterval(Double(from.departure.secondsSinceServiceDayStart))
      let end = dayStart.addingTimeInterval(Double(to.arrival.secondsSinceServiceDayStart + 60))
      guard notice.overlaps(start, end), notice.concerns(lineID: run.lineID, stationIDs: ridden.map(\.stationID)) else { continue }
      seen.insert(follower.userID)
      told.append(follower.userID)
    }
    return told
  }

  /// The lines' short names and the stations' names, in the order of the ids (an id the
  /// timetable no longer has stands for itself).
  public func names(lineIDs: [String], stationIDs: [String]) -> (lines: [String], stations: [String]) {
    let catalog = catalog.withLock { $0 }
    return (lineIDs.map { catalog.lines[$0]?.shortName ?? $0 }, stationIDs.map { catalog.stations[$0]?.name ?? $0 })
  }

  private static func uniqueTrimmed(_ ids: [String]) -> [String] {
    var seen = Set<String>()
    return ids.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && seen.insert($0).inserted }
  }
}
