import BinarioDomain
import BinarioStorage
import Foundation
import Testing

@testable import DispatchService

/// The control room's alerts: raised with the admins' notification, open until acknowledged.
@Suite("Taxi alerts")
struct AlertsTests {
  @Test("a database migrated by v4's first form, without the alert table, gets it")
  func alertTableRepaired() async throws {
    let old = try TemporaryDatabase(migrations: DispatchMigrations.all.through("v5-passenger-profiles"))
    defer { try? old.remove() }
    try await old.pool.write { db in try db.execute(sql: "DROP TABLE alert") }
    try old.pool.close()
    let pool = try ServiceDatabase.open(at: old.path, migrations: DispatchMigrations.all)
    let count = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM alert") }
    #expect(count == 0)
  }

  @Test("a request no taxi took and a driver not answering are open alerts in the control room until an admin acknowledges them")
  func raisedAndAcknowledged() async throws {
    var settings = DispatchSettings()
    settings.searchLimit = 0
    settings.missedOffersAlert = 1
    let test = try TestDispatch(settings: settings)
    try await test.taxi("A", at: TestDispatch.duomo)
    test.passenger("pat")
    let ride = try await test.request("pat", at: TestDispatch.duomo)
    test.clock.advance(by: settings.offerTimeout)
    #expect(try await test.domain.expireDueOffers() == 1)
    let snapshot = try await test.domain.monitorSnapshot()
    #expect(Set(snapshot.alerts.map(\.kind)) == ["no_taxi", "missed_offers"])
    let noTaxi = try #require(snapshot.alerts.first { $0.kind == "no_taxi" })
    #expect(noTaxi.rideID == ride.id && noTaxi.zoneID == "C" && noTaxi.title.english == "No taxi for a request")
    let missed = try #require(snapshot.alerts.first { $0.kind == "missed_offers" })
    #expect(missed.taxiCode == "A")
    // Acknowledged: out of the open ones, among the acknowledged; twice keeps the first.
    test.clock.advance(by: 60)
    let seen = try await test.domain.acknowledgeAlert(id: noTaxi.id, by: "admin")
    #expect(seen.acknowledgedAt == test.clock.now() && seen.acknowledgedBy == "admin")
    test.clock.advance(by: 60)
    #expect(try await test.domain.acknowledgeAlert(id: noTaxi.id, by: "other").acknowledgedBy == "admin")
    let listed = try await test.domain.alerts()
    #expect(listed.open.map(\.kind) == ["missed_offers"] && listed.acknowledged.map(\.id) == [noTaxi.id])
    #expect(try await test.domain.monitorSnapshot().alerts.map(\.kind) == ["missed_offers"])
    await #expect(throws: ServiceError.notFound("no alert nope")) { try await test.domain.acknowledgeAlert(id: "nope", by: "admin") }
  }
}
