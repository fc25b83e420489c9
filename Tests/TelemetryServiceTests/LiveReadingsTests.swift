import BinarioDomain
import BinarioStorage
import BinarioTestSupport
import Foundation
import Testing

@testable import TelemetryService

@Suite("Live mode: a person's boards as readings are committed, online and offline")
struct LiveReadingsTests {
  let database: TemporaryDatabase
  let store: TelemetryStore
  let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
  let timer = StepTimer()
  let domain: TelemetryDomain

  init() throws {
    database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    store = TelemetryStore(pool: database.pool)
    domain = TelemetryDomain(
      store: store,
      clock: clock,
      downloader: HTTPReferenceDownloader(),
      sources: [],
      notifier: RecordingNotificationSender(),
      liveTimer: timer
    )
  }

  func reading(secondsAgo: Double, pm25: Double) -> Reading {
    Reading(time: clock.now().addingTimeInterval(-secondsAgo), position: GeoPoint(latitude: 45.4642, longitude: 9.19), values: [.pm2_5: pm25])
  }

  @Test("the first message has each board's presence; an upload sends the board online, then its new readings only")
  func uploadsArrive() async throws {
    let (board, _) = try await domain.registry.register(ownerUserID: "ann", name: "balcony")
    let (other, _) = try await domain.registry.register(ownerUserID: "bob", name: "bob's")
    let watch = try await domain.live.watch(userID: "ann", deviceID: nil)
    defer { watch.end() }
    #expect(watch.presence == [BoardPresence(deviceID: board.id, lastSeen: nil, now: clock.now())])
    #expect(watch.presence[0].isOnline == false)
    var updates = watch.updates.makeAsyncIterator()

    let first = [reading(secondsAgo: 2, pm25: 12), reading(secondsAgo: 1, pm25: 14)]
    let outcome = try await domain.ingest.upload(deviceID: board.id, first)
    #expect(outcome.stored == 2 && outcome.storedIndexes == [0, 1])
    #expect(await updates.next() == .presence([BoardPresence(deviceID: board.id, lastSeen: clock.now(), now: clock.now())]))
    #expect(await updates.next() == .readings(deviceID: board.id, first))

    // Another person's board says nothing here; a resend stores nothing new and sends nothing;
    // the next new reading comes alone (the board is still online: no presence message).
    _ = try await domain.ingest.upload(deviceID: other.id, [reading(secondsAgo: 1, pm25: 50)])
    clock.advance(by: 10)
    _ = try await domain.ingest.upload(deviceID: board.id, first)
    let next = reading(secondsAgo: 0, pm25: 16)
    _ = try await domain.ingest.upload(deviceID: board.id, first + [next])
    #expect(await updates.next() == .readings(deviceID: board.id, [next]))

    let seen = try #require(try await store.device(id: board.id)?.lastSeenAt)
    #expect(seen == clock.now())
    #expect(try await domain.registry.devices(visibleTo: "ann").map(\.lastSeenAt) == [clock.now()])
  }

  @Test("five minutes without an upload: offline since the last one; the next upload brings it back")
  func offlineAfterSilence() async throws {
    let (board, _) = try await domain.registry.register(ownerUserID: "ann", name: "walk")
    _ = try await domain.ingest.upload(deviceID: board.id, [reading(secondsAgo: 1, pm25: 8)])
    let seen = clock.now()
    clock.advance(by: 60)
    let watch = try await domain.live.watch(userID: "ann", deviceID: board.id)
    defer { watch.end() }
    #expect(watch.presence.map(\.isOnline) == [true] && watch.presence.map(\.lastSeen) == [seen])
    var updates = watch.updates.makeAsyncIterator()
    var sleeps = timer.requests.makeAsyncIterator()

    // The timer waits exactly until five minutes after the last upload.
    #expect(await sleeps.next() == .seconds(240))
    clock.advance(by: 240)
    timer.fire()
    let offline = BoardPresence(deviceID: board.id, lastSeen: seen, now: clock.now())
    #expect(!offline.isOnline)
    #expect(await updates.next() == .presence([offline]))

    // Back: online with the new last-seen, and its reading; the timer has a deadline again.
    _ = try await domain.ingest.upload(deviceID: board.id, [reading(secondsAgo: 0, pm25: 9)])
    #expect(await updates.next() == .presence([BoardPresence(deviceID: board.id, lastSeen: clock.now(), now: clock.now())]))
    #expect(await sleeps.next() == .seconds(300))
  }

  @Test("an upload whose readings are all refused still marks the board seen")
  func refusedUploadIsSeen() async throws {
    let (board, _) = try await domain.registry.register(ownerUserID: "ann", name: "walk")
    let outcome = try await domain.ingest.upload(
      deviceID: board.id,
      [Reading(time: clock.now(), position: nil, values: [.pm2_5: -4])]
    )
    #expect(outcome.stored == 0 && outcome.rejected.count == 1)
    #expect(try await store.device(id: board.id)?.lastSeenAt == clock.now())
    #expect(domain.live.presence(of: try #require(try await store.device(id: board.id))).isOnline)
  }

  @Test("someone else's private board cannot be watched; shutdown ends the stream")
  func visibilityAndShutdown() async throws {
    let (board, _) = try await domain.registry.register(ownerUserID: "bob", name: "bob's")
    await #expect(throws: ServiceError.self) { try await domain.live.watch(userID: "ann", deviceID: board.id) }
    let watch = try await domain.live.watch(userID: "bob", deviceID: board.id)
    #expect(domain.live.uploads.subscriberCount(1) == 1)
    domain.live.uploads.close()
    var updates = watch.updates.makeAsyncIterator()
    #expect(await updates.next() == nil)
  }
}
