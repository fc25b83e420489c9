import BinarioDomain
import Foundation
import Logging

/// People's air alerts: kept per person, and checked by the alerts job on the injected clock.
///
/// Exactly once in effect across restarts: a pass works out each alert's notifications for each
/// board from the state saved by the last pass, sends them with keys made of the alert, the
/// board and the reading's time (or the silence's start), and then saves the new state; a pass
/// cut short after sending sends the same keys again, which the notification centre drops.
public struct AirAlerts: Sendable {
  let store: TelemetryStore
  let registry: DeviceRegistry
  let clock: any DomainClock
  let notifier: any NotificationSender
  let logger: Logger
  /// A wake-up at each ``wake()``: the alerts job's cue to run a pass now.
  public let wakeUps = WakeUps()

  public init(store: TelemetryStore, registry: DeviceRegistry, clock: any DomainClock, notifier: any NotificationSender, logger: Logger) {
    self.store = store
    self.registry = registry
    self.clock = clock
    self.notifier = notifier
    self.logger = logger
  }

  /// Asks for a pass soon (readings were stored: one may cross a threshold).
  public func wake() {
    wakeUps.wake()
  }

  /// The readings one pass takes of one board for one alert; the rest wait for the next pass.
  static let readingsPerPass = 10_000

  // MARK: - A person's alerts

  public func alerts(of userID: String) async throws -> [AirAlert] {
    try await store.airAlerts(userID: userID)
  }

  /// A new alert; the same `idempotencyKey` again answers the alert it made.
  public func create(
    userID: String,
    name rawName: String,
    condition: AirAlert.Condition,
    scope: AirAlert.Scope,
    idempotencyKey: String
  ) async throws -> AirAlert {
    var check = InputValidation()
    let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
    if !AirAlert.nameLength.contains(name.count) { check.fail("name", "give the alert a name of 1 to 60 characters") }
    if idempotencyKey.isEmpty || idempotencyKey.count > 100 { check.fail("idempotency_key", "must be 1 to 100 characters") }
    switch condition {
    case .above(let measure, let threshold):
      if !measure.validRange.contains(threshold) || !threshold.isFinite {
        check.fail("threshold", "must be a value \(measure.rawValue) can take, in \(measure.unit)")
      }
    case .silence(let minutes):
      if !AirAlert.silentMinutes.contains(minutes) { check.fail("silent_minutes", "must be 10 minutes to 7 days (10,080 minutes)") }
      if case .area = scope { check.fail("area", "a silence alert watches your boards or one board, not an area") }
    }
    if case .area(let centre, let radius) = scope {
      if !((-90 ... 90).contains(centre.latitude) && (-180 ... 180).contains(centre.longitude)) {
        check.fail("area", "the centre must be a latitude of -90 to 90 and a longitude of -180 to 180")
      }
      if !AirAlert.areaRadius.contains(radius) || !radius.isFinite { check.fail("area", "the radius must be 100 to 50,000 metres") }
    }
    try check.finish()
    if let made = try await store.airAlert(userID: userID, idempotencyKey: idempotencyKey) { return made }
    if case .board(let deviceID) = scope { try await registry.checkVisible(userID: userID, deviceID: deviceID) }
    let alert = AirAlert(
      id: "alr_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20),
      userID: userID,
      name: name,
      condition: condition,
      scope: scope,
      createdAt: clock.now()
    )
    return try await store.insertAirAlert(alert, idempotencyKey: idempotencyKey, limit: AirAlert.perPerson)
  }

  public func delete(userID: String, alertID: String) async throws {
    guard try await store.deleteAirAlert(userID: userID, id: alertID) else { throw ServiceError.notFound("you have no alert \(alertID)") }
  }

  // MARK: - The job

  /// One pass over every alert. Returns how many notifications were sent; an alert whose
  /// sending fails keeps its state, to be tried again at the next pass.
  @discardableResult
  public func runOnce() async throws -> Int {
    let now = clock.now()
    var sent = 0
    for alert in try await store.allAirAlerts() {
      for (seq, device) in try await watchedBoards(of: alert) {
        let before = try await store.airAlertState(alertID: alert.id, deviceSeq: seq) ?? AirAlertState(newest: alert.createdAt)
        let (after, notifications) = try await check(alert, board: device, seq: seq, state: before, now: now)
        guard after != before else { continue }
        do {
          for notification in notifications { try await notifier.send(notification) }
        } catch {
          logger.warning("an air alert could not be sent; trying again at the next pass", metadata: ["alert_id": "\(alert.id)", "error": "\(error)"])
          continue
        }
        try await store.saveAirAlertState(after, alertID: alert.id, deviceSeq: seq)
        sent += notifications.count
      }
    }
    return sent
  }

  /// The boards an alert watches now: a board no longer visible to its person is not.
  func watchedBoards(of alert: AirAlert) async throws -> [(seq: Int64, device: Device)] {
    switch alert.scope {
    case .myBoards:
      return try await store.devices(seqs: try await store.deviceSeqs(ownerUserID: alert.userID))
    case .board(let deviceID):
      guard try await store.canSee(userID: alert.userID, deviceID: deviceID), let seq = try await store.deviceSeq(id: deviceID) else { return [] }
      return try await store.devices(seqs: [seq])
    case .area:
      return try await store.devices(seqs: try await store.publicDevices().seqs)
    }
  }

  /// The state after looking at a board's news for an alert, and what to tell its person.
  func check(_ alert: AirAlert, board: Device, seq: Int64, state: AirAlertState, now: Date) async throws -> (AirAlertState, [PeerNotification]) {
    var state = state
    var notifications: [PeerNotification] = []
    switch alert.condition {
    case .above(let measure, let threshold):
      for reading in try await store.alertReadings(deviceSeq: seq, measure: measure, after: state.newest, limit: Self.readingsPerPass) {
        state.newest = reading.time
        if case .area(let centre, let radius) = alert.scope {
          guard let position = reading.position, position.distance(to: centre) <= radius else { continue }
        }
        guard reading.value > threshold else {
          state.above = false
          continue
        }
        defer { state.above = true }
        guard !state.above, state.notified.map({ reading.time.timeIntervalSince($0) >= AirAlert.renotifyAfter }) ?? true else { continue }
        state.notified = reading.time
        notifications.append(aboveNotification(alert, measure: measure, threshold: threshold, board: board, value: reading.value, at: reading.time))
      }
    case .silence(let minutes):
      guard let lastSeen = board.lastSeenAt else { break }
      if now.timeIntervalSince(lastSeen) >= Double(minutes) * 60 {
        guard state.silentAfter != lastSeen else { break }
        state.silentAfter = lastSeen
        state.notified = lastSeen
        notifications.append(
          PeerNotification(
            userIDs: [alert.userID],
            kind: .airAlert,
            title: "\(PersonText(verbatim: alert.name)): \(PersonText(verbatim: board.name)) has gone silent",
            body: "Nothing has come from it for \(minutes) minutes.",
            data: ["alert_id": alert.id, "device_id": board.id],
            dedupeKey: "telemetry:silence:\(alert.id):\(board.id):\(Int64(lastSeen.timeIntervalSince1970 * 1000))"
          )
        )
      }
    }
    return (state, notifications)
  }

  func aboveNotification(_ alert: AirAlert, measure: Measure, threshold: Double, board: Device, value: Double, at time: Date) -> PeerNotification {
    // At most one decimal, written as the reader's language writes it (12.5, 12,5).
    let (reading, limit) = (PersonText.number(value), PersonText.number(threshold))
    let body: PersonText =
      if case .area = alert.scope {
        "A public board in the area read \(reading) \(measure.unit)."
      } else {
        "\(PersonText(verbatim: board.name)) read \(reading) \(measure.unit)."
      }
    return PeerNotification(
      userIDs: [alert.userID],
      kind: .airAlert,
      title: "\(PersonText(verbatim: alert.name)): \(measure.personName) above \(limit) \(measure.unit)",
      body: TranslatedText(body),
      data: ["alert_id": alert.id, "device_id": alert.scope == .myBoards || alert.scope.isBoard ? board.id : "", "measure": measure.rawValue],
      dedupeKey: "telemetry:alert:\(alert.id):\(board.id):\(Int64(time.timeIntervalSince1970 * 1000))"
    )
  }
}

extension AirAlert.Scope {
  var isBoard: Bool {
    if case .board = self { return true }
    return false
  }
}
