import BinarioDomain
import Foundation

/// Open data: the public boards' readings (those of boards in public campaigns) by day and area,
/// each day and area a CSV file anyone may download, as Sensor.Community publishes its daily
/// archive. A day is a calendar day in ``zone``; an area is ``OpenDataAreas``'s, of the reading's
/// position to 0.01° (about a kilometre: what a listing counts and what a download holds agree
/// to the row). Readings without a position have no area and are not published.
public struct OpenData: Sendable {
  /// One downloadable file: a day's public readings in an area.
  public struct File: Sendable, Hashable {
    public var day: CalendarDate
    public var area: String
    public var readings: Int
    public var boards: Int
  }

  /// What ``list(from:to:area:)`` answers.
  public struct Listing: Sendable {
    /// Newest day first, then by area.
    public var files: [File]
    /// The days listed; `nil` when nothing is public yet and no range was asked.
    public var days: ClosedRange<CalendarDate>?
    /// The latest day before the range with public readings, if any.
    public var earlier: CalendarDate?
    /// Every area a reading can fall in.
    public var areas: [String]
  }

  /// A listing without a range: the 31 days up to the latest public reading's.
  public static let defaultDays = 31
  public static let maximumDays = 92

  let store: TelemetryStore
  public let zone: TimeZone

  public init(store: TelemetryStore, zone: TimeZone = TimeZone(identifier: "Europe/Rome")!) {
    self.store = store
    self.zone = zone
  }

  /// The files of the days from `from` to `to` (included), of one area or all.
  public func list(from: CalendarDate?, to: CalendarDate?, area: String?) async throws -> Listing {
    let areas = try await self.areas()
    var last = to
    if last == nil, let latest = try await store.latestPublicReadingTime(before: nil) { last = CalendarDate(latest, in: zone) }
    guard let last else { return Listing(files: [], days: nil, earlier: nil, areas: areas.codes) }
    let first = from ?? last.adding(days: -(Self.defaultDays - 1))
    var check = InputValidation()
    if first > last { check.fail("from_day", "must not be after to_day (\(last))") }
    if first.days(until: last) >= Self.maximumDays { check.fail("to_day", "a listing spans at most \(Self.maximumDays) days") }
    try check.finish()

    var files: [Key: (readings: Int, boards: Set<Int64>)] = [:]
    var memo: [GeoPoint: String] = [:]
    for count in try await store.openDataCounts(in: instants(first ... last)) {
      let place = memo[count.position] ?? areas.area(of: count.position)
      memo[count.position] = place
      guard area == nil || area == place else { continue }
      // Europe/Rome is a whole number of hours from UTC, so an hour's readings share one day.
      let key = Key(day: CalendarDate(count.hour, in: zone), area: place)
      files[key, default: (0, [])].readings += count.readings
      files[key, default: (0, [])].boards.insert(count.deviceSeq)
    }
    let earlier = try await store.latestPublicReadingTime(before: start(of: first)).map { CalendarDate($0, in: zone) }
    return Listing(
      files: files.map { File(day: $0.key.day, area: $0.key.area, readings: $0.value.readings, boards: $0.value.boards.count) }
        .sorted { ($1.day, $0.area) < ($0.day, $1.area) },
      days: first ... last,
      earlier: earlier,
      areas: areas.codes
    )
  }

  /// The day's public readings in `area` as CSV: board, campaign, time (UTC, ISO 8601), latitude,
  /// longitude, position_altitude, then one column per measure; in time order.
  public func csv(day: CalendarDate, area: String) async throws -> (csv: String, rows: Int) {
    let areas = try await self.areas()
    var memo: [GeoPoint: String] = [:]
    var csv = ReadingCSV.header(leading: ["board", "campaign"])
    var rows = 0
    for row in try await store.openDataReadings(in: instants(day ... day)) {
      let place = memo[row.area] ?? areas.area(of: row.area)
      memo[row.area] = place
      guard place == area else { continue }
      csv += ReadingCSV.line(row.reading, leading: [row.deviceID, row.campaign])
      rows += 1
    }
    guard rows > 0 else {
      throw ServiceError.notFound("no public readings on \(day.description) in the area “\(OpenDataAreas.name(of: area))”")
    }
    return (csv, rows)
  }

  func areas() async throws -> OpenDataAreas {
    OpenDataAreas(stations: try await store.stationProvinces())
  }

  /// The instants of `days` in ``zone``: from the first's midnight to the midnight after the last.
  func instants(_ days: ClosedRange<CalendarDate>) -> Range<Date> {
    start(of: days.lowerBound) ..< start(of: days.upperBound.adding(days: 1))
  }

  /// Midnight of `day` in ``zone`` (Europe/Rome changes its clocks at night, never at midnight).
  func start(of day: CalendarDate) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!
  }

  struct Key: Hashable {
    var day: CalendarDate
    var area: String
  }
}

/// Public readings counted by board, hour and position to 0.01° (what a listing adds up).
public struct OpenDataCount: Sendable {
  public var deviceSeq: Int64
  /// The hour's start.
  public var hour: Date
  public var position: GeoPoint
  public var readings: Int

  public init(deviceSeq: Int64, hour: Date, position: GeoPoint, readings: Int) {
    self.deviceSeq = deviceSeq
    self.hour = hour
    self.position = position
    self.readings = readings
  }
}

/// A public reading as open data publishes it: its board, the board's campaign, and its position
/// to 0.01° for its area.
public struct OpenDataReading: Sendable {
  public var deviceID: String
  public var campaign: String
  public var area: GeoPoint
  public var reading: Reading

  public init(deviceID: String, campaign: String, area: GeoPoint, reading: Reading) {
    self.deviceID = deviceID
    self.campaign = campaign
    self.area = area
    self.reading = reading
  }
}
