import BinarioDomain
import BinarioStorage
import Foundation
import Testing

@testable import TelemetryService

@Suite("Devices, their tokens and who sees them")
struct DeviceRegistryTests {
  let database: TemporaryDatabase
  let store: TelemetryStore
  let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
  let registry: DeviceRegistry

  init() throws {
    database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    store = TelemetryStore(pool: database.pool)
    registry = DeviceRegistry(store: store, clock: clock)
  }

  @Test("a token is shown once, stored hashed, good for its device only; rotated or revoked it stops working")
  func tokens() async throws {
    let (device, token) = try await registry.register(ownerUserID: "prof", name: "Board 1")
    #expect(DeviceToken.looksValid(token) && device.hasToken)
    #expect(try await registry.device(forToken: token).device.id == device.id)
    // Only the hash is kept.
    let stored = try await database.pool.read { db in try Data.fetchOne(db, sql: "SELECT token_hash FROM device") }
    #expect(stored == DeviceToken.hash(token) && stored != Data(token.utf8))
    let (other, otherToken) = try await registry.register(ownerUserID: "prof", name: "Board 2")
    #expect(try await registry.device(forToken: otherToken).device.id == other.id)

    let rotated = try await registry.rotateToken(ownerUserID: "prof", deviceID: device.id)
    await #expect(throws: ServiceError.self) { try await registry.device(forToken: token) }
    #expect(try await registry.device(forToken: rotated).device.id == device.id)
    try await registry.revokeToken(ownerUserID: "prof", deviceID: device.id)
    await #expect(throws: ServiceError.self) { try await registry.device(forToken: rotated) }
    await #expect(throws: ServiceError.self) { try await registry.device(forToken: "bdt_short") }
    // Only the owner manages a device.
    await #expect(throws: ServiceError.notFound("no device \(other.id) of yours")) {
      try await registry.rotateToken(ownerUserID: "student", deviceID: other.id)
    }
    await #expect(throws: ServiceError.invalid("name", "a device name is required")) {
      try await registry.register(ownerUserID: "prof", name: "  ")
    }
  }

  @Test("a user sees their own devices, their campaigns' and public campaigns', nothing else")
  func visibility() async throws {
    let (mine, _) = try await registry.register(ownerUserID: "ann", name: "Ann's board")
    let (theirs, _) = try await registry.register(ownerUserID: "bob", name: "Bob's board")
    #expect(try await registry.devices(visibleTo: "ann").map(\.id) == [mine.id])
    await #expect(throws: ServiceError.notFound("no device \(theirs.id)")) { try await registry.checkVisible(userID: "ann", deviceID: theirs.id) }

    let course = try await registry.createCampaign(ownerUserID: "bob", name: "Course 2026", isPublic: false)
    try await registry.setCampaign(ownerUserID: "bob", deviceID: theirs.id, campaignID: course.id)
    #expect(try await registry.devices(visibleTo: "ann").map(\.id) == [mine.id])
    try await registry.addMember(ownerUserID: "bob", campaignID: course.id, userID: "ann")
    #expect(Set(try await registry.devices(visibleTo: "ann").map(\.id)) == [mine.id, theirs.id])
    // Ann may not put her board in a campaign she is not in, nor add members to Bob's.
    let open = try await registry.createCampaign(ownerUserID: "cat", name: "Open air", isPublic: true)
    await #expect(throws: ServiceError.self) { try await registry.setCampaign(ownerUserID: "ann", deviceID: mine.id, campaignID: open.id) }
    await #expect(throws: ServiceError.self) { try await registry.addMember(ownerUserID: "ann", campaignID: course.id, userID: "dan") }
    let (cats, _) = try await registry.register(ownerUserID: "cat", name: "Cat's board")
    try await registry.setCampaign(ownerUserID: "cat", deviceID: cats.id, campaignID: open.id)
    #expect(try await registry.devices(visibleTo: "dan").map(\.id) == [cats.id])
  }

  @Test("deleting a device deletes its readings, and only its owner may")
  func deletion() async throws {
    let (device, token) = try await registry.register(ownerUserID: "ann", name: "Board")
    let ingest = ReadingIngest(store: store, clock: clock)
    let outcome = try await ingest.upload(
      deviceID: device.id,
      [Reading(time: clock.now(), position: GeoPoint(latitude: 45.47, longitude: 9.19), values: [.pm10: 12])]
    )
    #expect(outcome.stored == 1)
    let seq = try await registry.device(forToken: token).seq
    await #expect(throws: ServiceError.self) { try await registry.delete(ownerUserID: "bob", deviceID: device.id) }
    try await registry.delete(ownerUserID: "ann", deviceID: device.id)
    #expect(try await store.readingCount(deviceSeq: seq) == 0)
    #expect(try await registry.devices(visibleTo: "ann").isEmpty)
  }
}
