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
    let comparison = try await reference.compare(userID: "ann", deviceID: device.id, measure: .pm10, sensorID: "5504", in: day, maximumPoints: 24)
    let compared = comparison.points
    #expect(compared.count == 24 && comparison.pairs.count == 24 && comparison.averaging == .minutes(60))
    #expect(compared.allSatisfy { $0.mine == 2 * ($0.reference ?? -1) + 1 })
    #expect(abs(try #require(comparison.correlation) - 1) < 1e-9)
    let inverse = try await queries.correlate(userID: "ann", deviceID: device.id, .pm10, .humidity, in: day, maximumPoints: 24)
    #expect(inverse.buckets == 24 && abs((inverse.r ?? 0) + 1) < 1e-9)
    await #expect(throws: ServiceError.notFound("no reference sensor 0")) {
      try await reference.compare(userID: "ann", deviceID: device.id, measure: .pm10, sensorID: "0", in: day, maximumPoints: 24)
    }
  }

  @Test("a station's daily PM means are compared day by day, its running means over the 24 hours before, validated before provisional")
  func dailyAndRunningMeans() async throws {
    let database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    let store = TelemetryStore(pool: database.pool)
    let clock = ManualClock(Date(timeIntervalSince1970: 1_796_079_600))  // 2026-11-30 23:00 UTC
    let registry = DeviceRegistry(store: store, clock: clock)
    let queries = ReadingQueries(store: store, registry: registry)
    let reference = ReferenceData(store: store, queries: queries)
    _ = try await reference.importCatalogue(try ArpaImportTests.fixture("stazioni-aria.json"), network: .airQuality)

    // Three days of validated daily PM10 (stamped at midnight, standard time): 30, 40, 50.
    let midnight = Date(timeIntervalSince1970: 1_795_820_400)  // 2026-11-28 00:00 at UTC+1
    let days = (0 ..< 3).map { day in
      #"{"idsensore":"5504","data":"2026-11-\#(28 + day)T00:00:00.000","valore":"\#(30 + 10 * day)","stato":"VA","idoperatore":"1"}"#
    }
    #expect(try await reference.importMeasurements(Data("[\(days.joined(separator: ","))]".utf8)).added == 3)

    // A board whose hourly readings swing through the day around the day's mean plus 5: compared
    // as hourly instants it would look unrelated; compared day by day it follows the station.
    let (device, _) = try await registry.register(ownerUserID: "ann", name: "Board")
    let readings = (0 ..< 72).map { hour -> Reading in
      let dayMean = 30 + 10 * Double(hour / 24) + 5
      return Reading(
        time: midnight.addingTimeInterval(Double(hour) * 3600),
        position: GeoPoint(latitude: 45.4705, longitude: 9.1975),
        values: [.pm10: dayMean + (hour % 2 == 0 ? 20 : -20)]
      )
    }
    _ = try await ReadingIngest(store: store, clock: clock).upload(deviceID: device.id, readings)
    let range = midnight ..< midnight.addingTimeInterval(3 * 86_400)
    let comparison = try await reference.compare(userID: "ann", deviceID: device.id, measure: .pm10, sensorID: "5504", in: range, maximumPoints: 72)
    #expect(comparison.averaging == .day)
    #expect(comparison.pairs.map(\.reference) == [30, 40, 50])
    #expect(comparison.pairs.map(\.mine) == [35, 45, 55])
    #expect(abs(try #require(comparison.correlation) - 1) < 1e-9)
    // On the chart, each day's mean stands on each of its hours.
    #expect(comparison.points.count == 72)
    #expect(
      comparison.points.allSatisfy { point in
        point.reference == 30 + 10 * Double(Int(point.start.timeIntervalSince(midnight)) / 86_400)
      }
    )

    // The near-real-time feed's running means for the day after: provisional, and counted only
    // after the last validated day; a value stamped 10:00 is the mean of the 24 hours before.
    let nrt =
      #"[{"idsensore":"5504","data":"2026-12-01T10:00:00.000","valore":"58","idoperatore":"1","stato":"VA"},"#
      + #"{"idsensore":"5504","data":"2026-11-30T10:00:00.000","valore":"99","idoperatore":"1"}]"#
    _ = try await reference.importMeasurements(Data(nrt.utf8), nearRealTime: true)
    let values = try await reference.preferredValues(sensorID: "5504", overlapping: range.lowerBound ..< range.upperBound.addingTimeInterval(86_400))
    #expect(values.map(\.value) == [30, 40, 50, 58])
    #expect(values.last?.validity == .provisional && values.last?.averaging == .running(hours: 24))
    #expect(values.last?.window.upperBound == Date(timeIntervalSince1970: 1_796_115_600))  // 2026-12-01 10:00 at UTC+1
    // A provisional value never replaces a validated one.
    let late = #"[{"idsensore":"5504","data":"2026-11-28T00:00:00.000","valore":"1","idoperatore":"1"}]"#
    _ = try await reference.importMeasurements(Data(late.utf8))
    #expect(try await store.referenceValues(sensorID: "5504", overlapping: range).first?.value == 30)

    // The map's station mean weighs each value by how much of its span is in the range.
    let box = GeoBox(minLatitude: 45, maxLatitude: 46, minLongitude: 9, maxLongitude: 10)
    let half = midnight.addingTimeInterval(43_200) ..< midnight.addingTimeInterval(86_400 + 43_200)
    let means = try await reference.stationMeans(measure: .pm10, within: box, in: half)
    #expect(means.map(\.mean) == [35])
  }
}
