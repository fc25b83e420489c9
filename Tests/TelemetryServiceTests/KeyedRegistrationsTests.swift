import BinarioDomain
import BinarioStorage
import Foundation
import Testing

@testable import TelemetryService

/// A board registered again, or a campaign created again, with the same idempotency key: the
/// same device (with a new token, the first answer's being maybe lost) and the same campaign.
@Suite("Boards and campaigns made again with their idempotency key")
struct KeyedRegistrationsTests {
  @Test func aBoardRegisteredAgainIsTheSameBoardWithANewToken() async throws {
    let database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    let store = TelemetryStore(pool: database.pool)
    let registry = DeviceRegistry(store: store, clock: ManualClock(Date(timeIntervalSince1970: 1_796_079_600)))
    let key = try IdempotencyKey(caller: "ann", key: "bike-board")
    let (board, firstToken) = try await registry.register(ownerUserID: "ann", name: "Bike", key: key)
    let (again, secondToken) = try await registry.register(ownerUserID: "ann", name: "Bike", key: key)
    #expect(again.id == board.id && secondToken != firstToken)
    #expect(try await registry.devices(visibleTo: "ann").map(\.id) == [board.id])
    // Only the newest token uploads.
    #expect(try await registry.device(forToken: secondToken).device.id == board.id)
    await #expect(throws: ServiceError.self) { _ = try await registry.device(forToken: firstToken) }

    let campaignKey = try IdempotencyKey(caller: "ann", key: "navigli")
    let campaign = try await registry.createCampaign(ownerUserID: "ann", name: "Navigli", isPublic: true, key: campaignKey)
    #expect(try await registry.createCampaign(ownerUserID: "ann", name: "Navigli", isPublic: true, key: campaignKey).id == campaign.id)
    #expect(try await registry.campaigns(visibleTo: "ann").filter { $0.name == "Navigli" }.count == 1)
  }
}
