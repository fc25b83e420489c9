import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioStorage
import BinarioTestSupport
import Foundation
import GRPCCore
import Synchronization
import Testing

@testable import TelemetryService

@Suite("Air alerts: thresholds crossed and boards gone silent, notified once")
struct AirAlertsTests {
  let clock = ManualClock(Date(timeIntervalSince1970: 1_796_079_600))  // 2026-11-30 23:00 UTC
  let store: TelemetryStore
  let registry: DeviceRegistry
  let ingest: ReadingIngest
  let database: TemporaryDatabase

  init() throws {
    database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    store = TelemetryStore(pool: database.pool)
    registry = DeviceRegistry(store: store, clock: clock)
    ingest = ReadingIngest(store: store, clock: clock)
  }

  func alerts(_ notifier: any NotificationSender) -> AirAlerts {
    AirAlerts(store: store, registry: registry, clock: clock, notifier: notifier, logger: .init(label: "test"))
  }

  func upload(
    _ deviceID: String,
    minutesAfter start: Date,
    _ values: [(Double, Double)],
    at position: GeoPoint = GeoPoint(latitude: 45.47, longitude: 9.19)
  ) async throws {
    _ = try await ingest.upload(
      deviceID: deviceID,
      values.map { minutes, value in Reading(time: start.addingTimeInterval(minutes * 60), position: position, values: [.pm2_5: value]) }
    )
  }

  @Test("an alert is checked field by field; the same key answers the same alert; twenty at most")
  func creating() async throws {
    let alerts = alerts(RecordingNotificationSender())
    await #expect(throws: ServiceError.invalid("name", "give the alert a name of 1 to 60 characters")) {
      try await alerts.create(userID: "ann", name: " ", condition: .above(.pm2_5, threshold: 25), scope: .myBoards, idempotencyKey: "k")
    }
    await #expect(throws: ServiceError.invalid("threshold", "must be a value pm2.5 can take, in µg/m³")) {
      try await alerts.create(userID: "ann", name: "Home", condition: .above(.pm2_5, threshold: -1), scope: .myBoards, idempotencyKey: "k")
    }
    await #expect(throws: ServiceError.invalid("silent_minutes", "must be 10 minutes to 7 days (10,080 minutes)")) {
      try await alerts.create(userID: "ann", name: "Home", condition: .silence(minutes: 5), scope: .myBoards, idempotencyKey: "k")
    }
    await #expect(throws: ServiceError.invalid("area", "a silence alert watches your boards or one board, not an area")) {
      try await alerts.create(
        userID: "ann",
        name: "Home",
        condition: .silence(minutes: 60),
        scope: .area(centre: GeoPoint(latitude: 45, longitude: 9), radiusMetres: 1_000),
        idempotencyKey: "k"
      )
    }
    await #expect(throws: ServiceError.invalid("area", "the radius must be 100 to 50,000 metres")) {
      try await alerts.create(
        userID: "ann",
        name: "Home",
        condition: .above(.pm10, threshold: 50),
        scope: .area(centre: GeoPoint(latitude: 45, longitude: 9), radiusMetres: .nan),
        idempotencyKey: "k"
      )
    }
    let (bobs, _) = try await registry.register(ownerUserID: "bob", name: "Bob's")
    await #expect(throws: ServiceError.self) {
      try await alerts.create(userID: "ann", name: "Spy", condition: .above(.pm10, threshold: 50), scope: .board(bobs.id), idempotencyKey: "k")
    }
    let made = try await alerts.create(userID: "ann", name: " Home ", condition: .above(.pm2_5, threshold: 25), scope: .myBoards, idempotencyKey: "k")
    #expect(made.name == "Home")
    #expect(try await alerts.create(userID: "ann", name: "Other", condition: .silence(minutes: 60), scope: .myBoards, idempotencyKey: "k") == made)
    for index in 1 ..< AirAlert.perPerson {
      _ = try await alerts.create(userID: "ann", name: "A\(index)", condition: .silence(minutes: 60), scope: .myBoards, idempotencyKey: "k\(index)")
    }
    await #expect(throws: ServiceError.failedPrecondition("you keep 20 alerts, the most a person may: delete one first")) {
      try await alerts.create(userID: "ann", name: "One more", condition: .silence(minutes: 60), scope: .myBoards, idempotencyKey: "more")
    }
    try await alerts.delete(userID: "ann", alertID: made.id)
    await #expect(throws: ServiceError.notFound("you have no alert \(made.id)")) { try await alerts.delete(userID: "ann", alertID: made.id) }
    #expect(try await alerts.alerts(of: "ann").count == AirAlert.perPerson - 1)
    // Erased with the account.
    _ = try await store.eraseAccount(userID: "ann", position: EventPosition(producer: "identity", sequence: 1), at: clock.now())
    #expect(try await alerts.alerts(of: "ann").isEmpty)
  }

  @Test("a threshold crossed is notified once per crossing, at most hourly; late readings never; a failed send is tried again under the same key")
  func threshold() async throws {
    let notifier = FailingOnce()
    let alerts = alerts(notifier)
    let (board, _) = try await registry.register(ownerUserID: "ann", name: "Bike")
    let alert = try await alerts.create(userID: "ann", name: "Home", condition: .above(.pm2_5, threshold: 25), scope: .myBoards, idempotencyKey: "k")
    let start = clock.now()
    clock.advance(by: 3 * 3600)
    // Before the alert: never. Then 10, 30 (crossed), 40, 10 (re-armed), 35 (crossed again within
    // the hour: not told), 5, and 60 two hours on (told).
    try await upload(board.id, minutesAfter: start.addingTimeInterval(-600), [(0, 99)])
    try await upload(board.id, minutesAfter: start, [(1, 10), (10, 30), (20, 40), (30, 10), (40, 35), (50, 5), (120, 60)])
    #expect(try await alerts.runOnce() == 0)  // the first send fails: nothing saved
    #expect(try await alerts.runOnce() == 2)
    #expect(try await alerts.runOnce() == 0)
    let delivered = notifier.recorded.delivered
    #expect(delivered.map(\.title.english) == ["Home: PM2.5 above 25 µg/m³", "Home: PM2.5 above 25 µg/m³"])
    #expect(delivered.map(\.body.english) == ["Bike read 30 µg/m³.", "Bike read 60 µg/m³."])
    #expect(delivered[0].title.translations["it"] == "Home: PM2.5 sopra 25 µg/m³")
    #expect(delivered.allSatisfy { $0.kind == .airAlert && $0.userIDs == ["ann"] && $0.data["device_id"] == board.id })
    // The failed pass's send came again under the same key: one delivery of it.
    #expect(notifier.recorded.sent.withLock { $0.count } == 3)
    #expect(delivered[0].dedupeKey == "telemetry:alert:\(alert.id):\(board.id):\(Int64(start.addingTimeInterval(600).timeIntervalSince1970 * 1000))")
    #expect(try await alerts.alerts(of: "ann").first?.lastTriggeredAt == start.addingTimeInterval(7_200))
    // A late reading above, older than the newest looked at: history, not an alert.
    try await upload(board.id, minutesAfter: start, [(60, 90)])
    #expect(try await alerts.runOnce() == 0)
    // Below, then above again within the hour of the last: not told; over an hour on: told.
    clock.advance(by: 3600)
    try await upload(board.id, minutesAfter: start, [(130, 20), (140, 26), (150, 20), (200, 26.04)])
    #expect(try await alerts.runOnce() == 1)
    #expect(notifier.recorded.delivered.last?.body.english == "Bike read 26 µg/m³.")
  }

  @Test("an area alert watches the public boards within its radius")
  func area() async throws {
    let notifier = RecordingNotificationSender()
    let alerts = alerts(notifier)
    let (near, _) = try await registry.register(ownerUserID: "bob", name: "Bob's balcony")
    let (far, _) = try await registry.register(ownerUserID: "bob", name: "Bob's bike")
    let (hidden, _) = try await registry.register(ownerUserID: "bob", name: "Bob's private")
    let campaign = try await registry.createCampaign(ownerUserID: "bob", name: "Milano", isPublic: true)
    try await registry.setCampaign(ownerUserID: "bob", deviceID: near.id, campaignID: campaign.id)
    try await registry.setCampaign(ownerUserID: "bob", deviceID: far.id, campaignID: campaign.id)
    let centre = GeoPoint(latitude: 45.4642, longitude: 9.19)
    _ = try await alerts.create(
      userID: "ann",
      name: "Duomo",
      condition: .above(.pm2_5, threshold: 50),
      scope: .area(centre: centre, radiusMetres: 2_000),
      idempotencyKey: "k"
    )
    let start = clock.now()
    clock.advance(by: 3600)
    try await upload(near.id, minutesAfter: start, [(5, 70)], at: GeoPoint(latitude: 45.47, longitude: 9.19))
    try await upload(far.id, minutesAfter: start, [(5, 80)], at: GeoPoint(latitude: 45.60, longitude: 9.19))
    try await upload(hidden.id, minutesAfter: start, [(5, 90)], at: GeoPoint(latitude: 45.47, longitude: 9.19))
    #expect(try await alerts.runOnce() == 1)
    #expect(notifier.delivered.map(\.body.english) == ["A public board in the area read 70 µg/m³."])
    #expect(notifier.delivered.first?.data["device_id"] == "")  // someone else's board is not named
  }

  @Test("a board gone silent is told once per silence")
  func silence() async throws {
    let notifier = RecordingNotificationSender()
    let alerts = alerts(notifier)
    let (board, _) = try await registry.register(ownerUserID: "ann", name: "Balcony")
    let (never, _) = try await registry.register(ownerUserID: "ann", name: "In a drawer")
    _ = never
    _ = try await alerts.create(userID: "ann", name: "Balcony watch", condition: .silence(minutes: 30), scope: .board(board.id), idempotencyKey: "k")
    try await upload(board.id, minutesAfter: clock.now(), [(0, 10)])
    clock.advance(by: 29 * 60)
    #expect(try await alerts.runOnce() == 0)
    clock.advance(by: 2 * 60)
    #expect(try await alerts.runOnce() == 1)
    #expect(try await alerts.runOnce() == 0)
    #expect(notifier.delivered.map(\.title.english) == ["Balcony watch: Balcony has gone silent"])
    #expect(notifier.delivered.map(\.body.english) == ["Nothing has come from it for 30 minutes."])
    // It sends again, then stops again: told again.
    try await upload(board.id, minutesAfter: clock.now(), [(0, 10)])
    #expect(try await alerts.runOnce() == 0)
    clock.advance(by: 45 * 60)
    #expect(try await alerts.runOnce() == 1)
    #expect(notifier.delivered.count == 2)
  }

  @Test("the handler refuses an alert of no kind, and one watching both a board and an area, naming the field")
  func handlerRefusals() async throws {
    let domain = TelemetryDomain(
      store: store,
      clock: clock,
      downloader: HTTPReferenceDownloader(),
      sources: [],
      notifier: RecordingNotificationSender()
    )
    let handler = TelemetryHandler(domain: domain)
    try await withServerContextRPCCancellationHandle { handle in
      let context = ServerContext(
        descriptor: Binario_Telemetry_V1_Telemetry.Method.CreateAirAlert.descriptor,
        remotePeer: "test",
        localPeer: "test",
        cancellation: handle
      )
      try await CallerIdentity.$current.withValue(CallerIdentity(userID: "ann", roles: [], sessionID: "s")) { () async throws in
        await #expect(throws: ServiceError.invalid("kind", "is AIR_ALERT_KIND_THRESHOLD or AIR_ALERT_KIND_SILENCE")) {
          try await handler.createAirAlert(
            request: .with {
              $0.name = "Home"
              $0.idempotencyKey = "k"
            },
            context: context
          )
        }
        await #expect(throws: ServiceError.invalid("area", "watch one board or an area, not both")) {
          try await handler.createAirAlert(
            request: .with {
              $0.name = "Home"
              $0.kind = .threshold
              $0.measure = .pm25
              $0.threshold = 25
              $0.deviceID = "dev_1"
              $0.area = .with {
                $0.latitude = 45.47
                $0.longitude = 9.19
                $0.radiusMetres = 1_000
              }
              $0.idempotencyKey = "k"
            },
            context: context
          )
        }
        #expect(try await domain.alerts.alerts(of: "ann").isEmpty)
      }
    }
  }
}

/// The notification centre failing the first call, as a pass cut short by a restart would.
final class FailingOnce: NotificationSender {
  let recorded = RecordingNotificationSender()
  let failed = Mutex(false)

  func send(_ notification: PeerNotification) async throws {
    recorded.sent.withLock { $0.append(notification) }
    if failed.withLock({ failed in
      defer { failed = true }
      return !failed
    }) {
      throw ServiceError.failedPrecondition("the centre is away")
    }
  }
}
