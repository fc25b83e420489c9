import BinarioDomain
import BinarioStorage
import Foundation
import Testing

@testable import TelemetryService

@Suite("Open data: public boards' readings by day (Europe/Rome) and area (the nearest station's province)")
struct OpenDataTests {
  let store: TelemetryStore
  let registry: DeviceRegistry
  let ingest: ReadingIngest
  let openData: OpenData
  let database: TemporaryDatabase

  init() throws {
    database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    store = TelemetryStore(pool: database.pool)
    let clock = ManualClock(Date(timeIntervalSince1970: 1_796_079_600))  // 2026-11-30 23:00 UTC
    registry = DeviceRegistry(store: store, clock: clock)
    ingest = ReadingIngest(store: store, clock: clock)
    openData = OpenData(store: store)
  }

  static let milano = GeoPoint(latitude: 45.4705, longitude: 9.1975)
  static let bergamo = GeoPoint(latitude: 45.6983, longitude: 9.6773)
  /// 2026-11-28 00:00 in Europe/Rome (UTC+1).
  static let midnight = Date(timeIntervalSince1970: 1_795_820_400)

  func stations() async throws {
    func sensor(_ id: String, station: String, province: String, at position: GeoPoint) -> ReferenceSensor {
      ReferenceSensor(
        sensorID: id,
        typeName: "PM10 (SM2005)",
        unit: "µg/m³",
        stationID: station,
        stationName: station,
        elevation: nil,
        province: province,
        municipality: station,
        historical: false,
        startDate: nil,
        stopDate: nil,
        position: position,
        network: .airQuality
      )
    }
    _ = try await store.upsert([
      sensor("1", station: "Milano", province: "MI", at: Self.milano),
      sensor("2", station: "Milano", province: "MI", at: Self.milano),
      sensor("3", station: "Bergamo", province: "BG", at: Self.bergamo),
    ])
  }

  @Test("areas: the nearest station's province within 50 km, beyond it \"other\"")
  func areas() async throws {
    try await stations()
    let areas = try await openData.areas()
    #expect(areas.codes == ["BG", "MI", "other"])
    #expect(areas.area(of: GeoPoint(latitude: 45.50, longitude: 9.25)) == "MI")
    // Treviglio lies between them, nearer Bergamo's station.
    #expect(areas.area(of: GeoPoint(latitude: 45.52, longitude: 9.59)) == "BG")
    #expect(areas.area(of: GeoPoint(latitude: 44.49, longitude: 11.34)) == "other")  // Bologna
    #expect(OpenDataAreas.name(of: "MI").rendered(in: .english) == "Milano")
    #expect(OpenDataAreas.name(of: "other").rendered(in: .italian) == "Oltre 50 km da una stazione")
  }

  @Test(
    "the listing counts a public board's readings per Rome day and area, the CSV holds exactly those rows; private boards and readings without a position stay out"
  )
  func listingAndDownload() async throws {
    try await stations()
    let campaign = try await registry.createCampaign(ownerUserID: "ann", name: "Walks, Milan", isPublic: true)
    let (walker, _) = try await registry.register(ownerUserID: "ann", name: "Walker")
    try await registry.setCampaign(ownerUserID: "ann", deviceID: walker.id, campaignID: campaign.id)
    let (rider, _) = try await registry.register(ownerUserID: "bob", name: "Rider")
    try await registry.setCampaign(ownerUserID: "bob", deviceID: rider.id, campaignID: nil)
    let (hidden, _) = try await registry.register(ownerUserID: "cat", name: "Private")

    // The walker: 23:30 and 23:50 on the 27th Rome time (22:30, 22:50 UTC, the 27th), then every
    // 10 minutes from midnight to 01:50 in Milan, then 4 readings in Bergamo, one without a fix.
    var walk = [
      Reading(time: Self.midnight.addingTimeInterval(-1800), position: Self.milano, values: [.pm10: 30]),
      Reading(time: Self.midnight.addingTimeInterval(-600), position: Self.milano, values: [.pm10: 31]),
    ]
    walk += (0 ..< 12).map {
      Reading(time: Self.midnight.addingTimeInterval(Double($0) * 600), position: Self.milano, values: [.pm10: 20 + Double($0)])
    }
    walk += (0 ..< 4).map {
      Reading(time: Self.midnight.addingTimeInterval(7200 + Double($0) * 600), position: Self.bergamo, values: [.pm10: 40, .humidity: 60])
    }
    walk.append(Reading(time: Self.midnight.addingTimeInterval(9600), position: nil, values: [.pm10: 50]))
    let outcome = try await ingest.upload(deviceID: walker.id, walk)
    #expect(outcome.stored == 19, "\(outcome.rejected)")
    _ = try await ingest.upload(deviceID: hidden.id, [Reading(time: Self.midnight.addingTimeInterval(60), position: Self.milano, values: [.pm10: 9])])
    _ = try await ingest.upload(deviceID: rider.id, [Reading(time: Self.midnight.addingTimeInterval(120), position: Self.milano, values: [.pm10: 9])])

    // Without a range: the 31 days up to the latest public reading's day (the 28th).
    let listing = try await openData.list(from: nil, to: nil, area: nil)
    let day28 = try #require(CalendarDate(iso: "2026-11-28"))
    let day27 = try #require(CalendarDate(iso: "2026-11-27"))
    #expect(listing.days == day28.adding(days: -30) ... day28)
    #expect(
      listing.files == [
        OpenData.File(day: day28, area: "BG", readings: 4, boards: 1),
        OpenData.File(day: day28, area: "MI", readings: 12, boards: 1),
        OpenData.File(day: day27, area: "MI", readings: 2, boards: 1),
      ]
    )
    #expect(listing.earlier == nil && listing.areas == ["BG", "MI", "other"])

    // One area; a range ending before the 28th says the 27th is earlier.
    #expect(try await openData.list(from: nil, to: nil, area: "BG").files.map(\.area) == ["BG"])
    let before = try await openData.list(from: day28, to: day28, area: nil)
    #expect(before.files.count == 2 && before.earlier == day27)

    let (csv, rows) = try await openData.csv(day: day28, area: "MI")
    let lines = csv.split(whereSeparator: \.isNewline)
    #expect(rows == 12 && lines.count == 13)
    #expect(lines[0].hasPrefix("board,campaign,time,latitude,longitude,position_altitude,temperature,"))
    #expect(lines[1] == "\(walker.id),\"Walks, Milan\",2026-11-27T23:00:00.000Z,45.4705,9.1975,,,,,,,,,,,,20.0")
    #expect(lines.allSatisfy { !$0.contains(hidden.id) && !$0.contains(rider.id) })
    #expect(try await openData.csv(day: day28, area: "BG").rows == 4)
    #expect(try await openData.csv(day: day27, area: "MI").rows == 2)

    // Nothing there; a range backwards or too long.
    await #expect(throws: ServiceError.notFound("no public readings on 2026-11-28 in the area “More than 50 km from a station”")) {
      try await openData.csv(day: day28, area: "other")
    }
    await #expect(throws: ServiceError.self) { try await openData.list(from: day28, to: day27, area: nil) }
    await #expect(throws: ServiceError.self) { try await openData.list(from: day28.adding(days: -92), to: day28, area: nil) }

    // The board leaves its public campaign: its readings are no longer published.
    try await registry.setCampaign(ownerUserID: "ann", deviceID: walker.id, campaignID: nil)
    #expect(try await openData.list(from: nil, to: nil, area: nil).days == nil)
  }
}
