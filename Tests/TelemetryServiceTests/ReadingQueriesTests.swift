import BinarioDomain
import BinarioStorage
import Foundation
import Testing

@testable import TelemetryService

@Suite("The map, the chart and the dispersion table")
struct ReadingQueriesTests {
  let database: TemporaryDatabase
  let store: TelemetryStore
  let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
  let registry: DeviceRegistry
  let queries: ReadingQueries
  let ingest: ReadingIngest

  init() throws {
    database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    store = TelemetryStore(pool: database.pool)
    registry = DeviceRegistry(store: store, clock: clock)
    queries = ReadingQueries(store: store, registry: registry)
    ingest = ReadingIngest(store: store, clock: clock)
  }

  var day: Range<Date> { clock.now().addingTimeInterval(-86_400) ..< clock.now().addingTimeInterval(1) }

  /// A board of `owner`'s with a reading every minute of the last `minutes`, PM10 = minute % 30,
  /// walking north from the Duomo.
  func board(_ owner: String, minutes: Int = 120) async throws -> Device {
    let (device, _) = try await registry.register(ownerUserID: owner, name: "\(owner)'s board")
    let readings = (0 ..< minutes).map { minute in
      Reading(
        time: clock.now().addingTimeInterval(Double(minute - minutes) * 60),
        position: GeoPoint(latitude: 45.4642 + Double(minute) * 0.0001, longitude: 9.19),
        values: [.pm10: Double(minute % 30), .temperature: 20]
      )
    }
    _ = try await ingest.upload(deviceID: device.id, readings)
    return device
  }

  @Test("a series in at most N buckets; statistics; the latest values; another user's device is invisible")
  func seriesStatisticsLatest() async throws {
    let device = try await board("ann")
    let (buckets, points) = try await queries.series(
      userID: "ann",
      deviceID: device.id,
      measure: .pm10,
      in: clock.now().addingTimeInterval(-7200) ..< clock.now(),
      maximumPoints: 4
    )
    #expect(buckets.width == 1800 && points.count == 4)
    #expect(points.allSatisfy { $0.count == 30 && $0.minimum == 0 && $0.maximum == 29 && $0.mean == 14.5 })
    let summary = try #require(try await queries.statistics(userID: "ann", deviceID: nil, measure: .pm10, in: day))
    #expect(summary.count == 120 && summary.median == 14.5 && summary.firstQuartile == 7 && summary.thirdQuartile == 22)
    #expect(try await queries.statistics(userID: "ann", deviceID: nil, measure: .humidity, in: day) == nil)
    let latest = try await queries.latest(userID: "ann", deviceID: device.id)
    #expect(latest[.pm10]?.value == 29 && latest[.temperature]?.value == 20 && latest[.humidity] == nil)

    _ = try await board("bob")
    await #expect(throws: ServiceError.notFound("no device \(device.id)")) {
      try await queries.series(userID: "bob", deviceID: device.id, measure: .pm10, in: day, maximumPoints: 10)
    }
    // Bob's own statistics hold his board's readings only.
    #expect(try await queries.statistics(userID: "bob", deviceID: nil, measure: .pm10, in: day)?.count == 120)
    await #expect(throws: ServiceError.self) {
      try await queries.series(userID: "ann", deviceID: nil, measure: .pm10, in: day, maximumPoints: 5_000)
    }
  }

  @Test("the map: readings in the box, sampled evenly beyond its limit; the interpolated grid; the CSV export")
  func mapGridExport() async throws {
    let device = try await board("ann")
    let box = GeoBox(minLatitude: 45.4642, maxLatitude: 45.46995, minLongitude: 9.18, maxLongitude: 9.20)
    let (points, total) = try await queries.map(userID: "ann", deviceID: device.id, measure: .pm10, within: box, in: day)
    #expect(total == 58 && points.count == 58, "\(total)")  // 45.4642 + 0.0001·m ≤ 45.46995 for m = 0…57
    #expect(ReadingQueries.sample(Array(0 ..< 10), limit: 4) == [0, 2, 5, 7])

    let grid = try await queries.grid(userID: "ann", deviceID: device.id, measure: .pm10, within: box, in: day, rows: 10, columns: 4)
    #expect(grid.values.count == 40)
    #expect(grid.values.compactMap { $0 }.allSatisfy { (0 ... 29).contains($0) })
    // A single reading: every cell in reach has its value.
    let single = InterpolatedGrid(points: [(GeoPoint(latitude: 45.465, longitude: 9.19), 42)], box: box, rows: 3, columns: 3)
    #expect(single.value(row: 1, column: 1) == 42)
    await #expect(throws: ServiceError.self) {
      try await queries.grid(userID: "ann", deviceID: nil, measure: .pm10, within: box, in: day, rows: 200, columns: 200)
    }

    let csv = try await queries.csv(userID: "ann", deviceID: device.id, in: day)
    let lines = csv.split(separator: "\n")
    #expect(lines.count == 121)
    #expect(lines[0] == "time,latitude,longitude,position_altitude,temperature,humidity,pressure,altitude,tvoc,eco2,pm0.5,pm1,pm2.5,pm4,pm10")
    #expect(lines[1].hasSuffix(",20.0,,,,,,,,,,0.0"))
  }

  @Test("the public map: only boards in public campaigns; without a range, the day up to the latest public reading")
  func publicMap() async throws {
    let box = GeoBox(minLatitude: 45, maxLatitude: 46, minLongitude: 9, maxLongitude: 10)
    #expect(try await queries.publicMap(measure: .pm10, within: box, in: nil).points.isEmpty)
    let shared = try await board("ann")
    _ = try await board("bob")  // in no campaign: private
    let closed = try await board("cat")
    let walks = try await registry.createCampaign(ownerUserID: "ann", name: "Walks in Milan", isPublic: true)
    try await registry.setCampaign(ownerUserID: "ann", deviceID: shared.id, campaignID: walks.id)
    let course = try await registry.createCampaign(ownerUserID: "cat", name: "A course", isPublic: false)
    try await registry.setCampaign(ownerUserID: "cat", deviceID: closed.id, campaignID: course.id)

    // Weeks later, the map still shows the public readings' last day.
    clock.advance(by: 30 * 86_400)
    let shown = try await queries.publicMap(measure: .pm10, within: box, in: nil)
    #expect(shown.total == 120 && shown.points.count == 120, "\(shown.total)")
    #expect(shown.campaigns == ["Walks in Milan"])
    let range = try #require(shown.range)
    #expect(range.upperBound > shown.points.last!.time && range.lowerBound < shown.points.first!.time)
    // A range asked for is the range shown: nothing public in the last day.
    let today = try await queries.publicMap(measure: .pm10, within: box, in: day)
    #expect(today.total == 0 && today.range == day)
  }
}
