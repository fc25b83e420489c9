import BinarioDomain
import BinarioProto
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
    let lines = csv.split(whereSeparator: \.isNewline)
    #expect(lines.count == 121)
    #expect(lines[0] == "time,latitude,longitude,position_altitude,temperature,humidity,pressure,altitude,tvoc,eco2,pm0.5,pm1,pm2.5,pm4,pm10")
    #expect(lines[1].hasSuffix(",20.0,,,,,,,,,,0.0"))
  }

  @Test("a reading without a GPS fix (the flag off, or 0, 0) is stored without a position: in the series, never on the map")
  func readingsWithoutAFix() async throws {
    let (device, _) = try await registry.register(ownerUserID: "ann", name: "Indoor board")
    let time = clock.now().addingTimeInterval(-60)
    var noFix = Binario_Telemetry_V1_Reading(Reading(time: time, position: GeoPoint(latitude: 45.47, longitude: 9.19), values: [.pm10: 11]))
    noFix.gpsFix = false
    var zero = Binario_Telemetry_V1_Reading(Reading(time: time.addingTimeInterval(1), position: nil, values: [.pm10: 12]))
    zero.clearGpsFix()
    zero.latitude = 0
    zero.longitude = 0
    let fixed = Binario_Telemetry_V1_Reading(
      Reading(time: time.addingTimeInterval(2), position: GeoPoint(latitude: 45.47, longitude: 9.19), values: [.pm10: 13])
    )
    let readings = [noFix, zero, fixed].map(Reading.init)
    #expect(readings.map { $0.position == nil } == [true, true, false])
    #expect(Binario_Telemetry_V1_Reading(readings[0]).gpsFix == false && !Binario_Telemetry_V1_Reading(readings[2]).hasGpsFix)
    let outcome = try await ingest.upload(deviceID: device.id, readings)
    #expect(outcome.stored == 3)
    // Sent again as they are, they are duplicates (a NULL position equals a NULL position).
    #expect(try await ingest.upload(deviceID: device.id, readings).duplicates == 3)

    let world = GeoBox(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)
    let (points, total) = try await queries.map(userID: "ann", deviceID: device.id, measure: .pm10, within: world, in: day)
    #expect(total == 1 && points.map(\.value) == [13])
    #expect(try await queries.statistics(userID: "ann", deviceID: device.id, measure: .pm10, in: day)?.count == 3)
    let lines = try await queries.csv(userID: "ann", deviceID: device.id, in: day).split(whereSeparator: \.isNewline)
    #expect(lines[1].split(separator: ",", omittingEmptySubsequences: false)[1 ... 2] == ["", ""])
    #expect(lines[3].contains(",45.47,9.19,"))
  }

  @Test("a series marks each board's outliers per bucket: the sawtooth's drops from 29 to 0, 1 and 2")
  func seriesOutliers() async throws {
    let device = try await board("ann")
    // PM10 = minute % 30: at each drop (minutes 30, 60, 90) the window of 5 before holds 25…29
    // (median 27, MAD 1), then 26…29, 0 (27, 1), then 27…29, 0, 1 (27, 2): 0, 1 and 2 are outliers.
    let window = try OutlierWindow(size: 5, replace: false)
    let (_, points) = try await queries.series(userID: "ann", deviceID: device.id, measure: .pm10, in: day, maximumPoints: 48, outliers: window)
    #expect(points.map(\.outliers).reduce(0, +) == 9)
    let (_, plain) = try await queries.series(userID: "ann", deviceID: device.id, measure: .pm10, in: day, maximumPoints: 48)
    #expect(plain.map(\.outliers).reduce(0, +) == 0 && plain.map(\.mean) == points.map(\.mean))
    let (_, replaced) = try await queries.series(
      userID: "ann",
      deviceID: device.id,
      measure: .pm10,
      in: day,
      maximumPoints: 48,
      outliers: try OutlierWindow(size: 5, replace: true)
    )
    // Each outlier (0, 1, 2 after a run up to 29) counts as its window's mean, in the 20s.
    #expect(replaced.map(\.mean).reduce(0, +) > plain.map(\.mean).reduce(0, +))
    #expect(replaced.map(\.count) == plain.map(\.count))
  }

  @Test("readings stored before positions became optional are all there after the table is rebuilt")
  func migrationKeepsReadings() async throws {
    let old = try TemporaryDatabase(migrations: TelemetryMigrations.all.through("v3-telemetry-account-events"))
    defer { try? old.remove() }
    try await old.pool.write { db in
      try db.execute(sql: "INSERT INTO device (seq, id, owner_user_id, name, created_at) VALUES (1, 'dev_1', 'ann', 'Board', 0)")
      for second in 0 ..< 50 {
        try db.execute(
          sql: "INSERT INTO reading (device_seq, time_ms, latitude, longitude, pm10) VALUES (1, ?, 45.47, 9.19, ?)",
          arguments: [second * 1000, Double(second)]
        )
      }
    }
    try old.pool.close()
    let store = TelemetryStore(pool: try ServiceDatabase.open(at: old.path, migrations: TelemetryMigrations.all))
    let values = try await store.values(deviceSeqs: [1], measure: .pm10, in: Date(timeIntervalSince1970: 0) ..< Date(timeIntervalSince1970: 60))
    #expect(values.map(\.1) == (0 ..< 50).map(Double.init))
    #expect(
      try await store.readings(deviceSeq: 1, in: Date(timeIntervalSince1970: 0) ..< Date(timeIntervalSince1970: 1)).first?.position
        == GeoPoint(latitude: 45.47, longitude: 9.19)
    )
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
