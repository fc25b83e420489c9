import BinarioDomain
import BinarioStorage
import Foundation
import Testing

@testable import TelemetryService

@Suite("Reference stations: import, nearby, compare, correlate")
struct ReferenceDataTests {
  @Test("imported catalogues and measurements; sensors near a point; a board's series beside a station's; Pearson's r")
  func referenceFlow() async throws {
    let database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    let store = TelemetryStore(pool: database.pool)
    let clock = ManualClock(Date(timeIntervalSince1970: 1_672_617_600))  // 2023-01-02 00:00 UTC
    let registry = DeviceRegistry(store: store, clock: clock)
    let queries = ReadingQueries(store: store, registry: registry)
    let reference = ReferenceData(store: store, queries: queries)

    let catalogue = try await reference.importCatalogue(Data(ArpaImportTests.catalogueJSON.utf8), network: .airQuality)
    #expect(catalogue.read == 2 && catalogue.added == 2 && catalogue.skipped == 1)
    #expect(try await reference.importCatalogue(Data(ArpaImportTests.catalogueJSON.utf8), network: .airQuality).added == 0)
    // Hourly PM10 at Milano v.Senato on 1 January 2023 (standard time): 10, 11, ... 33.
    let rows = (0 ..< 24).map { hour in
      "{\"idsensore\":\"5504\",\"data\":\"2023-01-01T\(String(format: "%02d", hour)):00:00.000\",\"valore\":\"\(10 + hour)\",\"stato\":\"VA\"}"
    }
    let measurements = try await reference.importMeasurements(Data(("[" + rows.joined(separator: ",") + "]").utf8))
    #expect(measurements.added == 24)
    #expect(try await reference.importMeasurements(Data(("[" + rows.joined(separator: ",") + "]").utf8)).added == 0)
    #expect(try await store.newestMeasurement(sensorID: "5504") == Date(timeIntervalSince1970: 1_672_527_600 + 23 * 3600))

    let near = try await reference.sensors(near: GeoPoint(latitude: 45.4642, longitude: 9.19), radiusMetres: 2_000, measure: .pm10)
    #expect(near.map(\.sensor.sensorID) == ["5504"] && near[0].distance > 500 && near[0].distance < 1_500)
    #expect(try await reference.sensors(near: GeoPoint(latitude: 45.4642, longitude: 9.19), radiusMetres: 2_000, measure: nil).count == 2)

    // A board beside the station: twice the station's value plus one, every 10 minutes.
    let (device, _) = try await registry.register(ownerUserID: "ann", name: "Board")
    let start = Date(timeIntervalSince1970: 1_672_527_600)
    let readings = (0 ..< (24 * 6)).map { (step: Int) -> Reading in
      let hour = Double(step / 6)
      let pm10: Double = 2 * (10 + hour) + 1
      let humidity: Double = 80 - hour
      return Reading(
        time: start.addingTimeInterval(Double(step) * 600),
        position: GeoPoint(latitude: 45.4705, longitude: 9.1975),
        values: [.pm10: pm10, .humidity: humidity]
      )
    }
    _ = try await ReadingIngest(store: store, clock: clock).upload(deviceID: device.id, readings)
    let day = start ..< start.addingTimeInterval(86_400)
    let compared = try await reference.compare(userID: "ann", deviceID: device.id, measure: .pm10, sensorID: "5504", in: day, maximumPoints: 24)
    #expect(compared.count == 24)
    #expect(compared.allSatisfy { $0.mine == 2 * ($0.reference ?? -1) + 1 })
    #expect(abs(try #require(ReferenceData.correlation(compared)) - 1) < 1e-9)
    let inverse = try await queries.correlate(userID: "ann", deviceID: device.id, .pm10, .humidity, in: day, maximumPoints: 24)
    #expect(inverse.buckets == 24 && abs((inverse.r ?? 0) + 1) < 1e-9)
    await #expect(throws: ServiceError.notFound("no reference sensor 0")) {
      try await reference.compare(userID: "ann", deviceID: device.id, measure: .pm10, sensorID: "0", in: day, maximumPoints: 24)
    }
  }
}
