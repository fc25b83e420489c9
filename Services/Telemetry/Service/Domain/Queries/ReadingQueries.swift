import BinarioDomain
import Foundation

/// What the map, the chart and the dispersion table ask of a user's readings: one device the user
/// may see, or all of the user's own devices.
public struct ReadingQueries: Sendable {
  let store: TelemetryStore
  let registry: DeviceRegistry

  /// The most points a map answer holds; beyond, the readings are sampled evenly in time.
  public static let mapLimit = 5_000
  /// The most points a chart asks for.
  public static let maximumSeriesPoints = 2_000
  /// The most cells of an interpolated grid.
  public static let maximumGridCells = 10_000

  public init(store: TelemetryStore, registry: DeviceRegistry) {
    self.store = store
    self.registry = registry
  }

  /// The devices asked about: `deviceID`, which `userID` must be able to see, or the user's own.
  func devices(userID: String, deviceID: String?) async throws -> [Int64] {
    guard let deviceID, !deviceID.isEmpty else { return try await store.deviceSeqs(ownerUserID: userID) }
    try await registry.checkVisible(userID: userID, deviceID: deviceID)
    return [try await store.deviceSeq(id: deviceID)].compactMap { $0 }
  }

  static func checked(_ range: Range<Date>) throws -> Range<Date> {
    guard range.lowerBound < range.upperBound else { throw ServiceError.invalid("to", "the range must end after it starts") }
    return range
  }

  /// One measure over a range, downsampled to at most `maximumPoints` time buckets; with
  /// `outliers`, each board's outliers counted per bucket (and replaced when the window says so).
  public func series(
    userID: String,
    deviceID: String?,
    measure: Measure,
    in range: Range<Date>,
    maximumPoints: Int,
    outliers: OutlierWindow? = nil
  ) async throws
    -> (buckets: TimeBuckets, points: [BucketPoint])
  {
    let range = try Self.checked(range)
    let points = maximumPoints == 0 ? 500 : maximumPoints
    guard (1 ... Self.maximumSeriesPoints).contains(points) else {
      throw ServiceError.invalid("max_points", "a series has 1 to \(Self.maximumSeriesPoints) points")
    }
    let buckets = TimeBuckets(range: range, maximumPoints: points)
    let seqs = try await devices(userID: userID, deviceID: deviceID)
    guard let outliers else {
      return (buckets, buckets.points(try await store.values(deviceSeqs: seqs, measure: measure, in: range)))
    }
    // Each board's window runs over its own readings only.
    var values: [(Date, Double)] = []
    var marked: [Int: Int] = [:]
    for seq in seqs {
      let applied = outliers.apply(try await store.values(deviceSeqs: [seq], measure: measure, in: range))
      values += applied.values
      for instant in applied.outliers { if let index = buckets.index(of: instant) { marked[index, default: 0] += 1 } }
    }
    let bucketed = buckets.points(values).map { point in
      var point = point
      if let index = buckets.index(of: point.start) { point.outliers = marked[index] ?? 0 }
      return point
    }
    return (buckets, bucketed)
  }

  /// Count, extremes, mean and quartiles of a measure over a range; `nil` when there are no values.
  public func statistics(userID: String, deviceID: String?, measure: Measure, in range: Range<Date>) async throws -> Summary? {
    let range = try Self.checked(range)
    return Summary(try await store.measureValues(deviceSeqs: try await devices(userID: userID, deviceID: deviceID), measure: measure, in: range))
  }

  /// Readings of a measure in a box and a range: all of them up to ``mapLimit``, else that many
  /// sampled evenly in time; and whether they were sampled.
  public func map(
    userID: String,
    deviceID: String?,
    measure: Measure,
    within box: GeoBox,
    in range: Range<Date>
  ) async throws
    -> (points: [MapPoint], total: Int)
  {
    let range = try Self.checked(range)
    let points = try await store.mapPoints(
      deviceSeqs: try await devices(userID: userID, deviceID: deviceID),
      measure: measure,
      within: box,
      in: range
    ).sorted { $0.time < $1.time }
    return (Self.sample(points, limit: Self.mapLimit), points.count)
  }

  /// The readings anyone may see: those of the boards in public campaigns, in `box` and
  /// `range`; without a range, the 24 hours up to the latest public reading. Returns the range
  /// shown and the campaigns' names beside the points.
  public func publicMap(
    measure: Measure,
    within box: GeoBox,
    in asked: Range<Date>?
  ) async throws -> (points: [MapPoint], total: Int, range: Range<Date>?, campaigns: [String]) {
    let (seqs, campaigns) = try await store.publicDevices()
    let range: Range<Date>
    if let asked {
      range = try Self.checked(asked)
    } else if let latest = try await store.latestReadingTime(deviceSeqs: seqs) {
      let end = latest.addingTimeInterval(1)
      range = end.addingTimeInterval(-86_400) ..< end
    } else {
      return ([], 0, nil, campaigns)
    }
    let points = try await store.mapPoints(deviceSeqs: seqs, measure: measure, within: box, in: range).sorted { $0.time < $1.time }
    return (Self.sample(points, limit: Self.mapLimit), points.count, range, campaigns)
  }

  /// At most `limit` of `items`, evenly spread.
  static func sample<Item>(_ items: [Item], limit: Int) -> [Item] {
    guard items.count > limit else { return items }
    return (0 ..< limit).map { items[$0 * items.count / limit] }
  }

  /// The measure interpolated over the box (inverse distance weighting of the readings in the
  /// box and range), `rows` × `columns` cells (at most ``maximumGridCells``).
  public func grid(
    userID: String,
    deviceID: String?,
    measure: Measure,
    within box: GeoBox,
    in range: Range<Date>,
    rows: Int,
    columns: Int
  ) async throws -> InterpolatedGrid {
    guard rows >= 1, columns >= 1, rows * columns <= Self.maximumGridCells else {
      throw ServiceError.invalid("rows", "a grid has 1 to \(Self.maximumGridCells) cells (rows × columns)")
    }
    let points = try await map(userID: userID, deviceID: deviceID, measure: measure, within: box, in: range).points
    return InterpolatedGrid(points: points.map { ($0.position, $0.value) }, box: box, rows: rows, columns: columns)
  }

  /// Pearson's r of two measures of the same readings (a device, or the user's own) on shared
  /// time buckets; `nil` below two shared buckets or without variation.
  public func correlate(
    userID: String,
    deviceID: String?,
    _ first: Measure,
    _ second: Measure,
    in range: Range<Date>,
    maximumPoints: Int
  ) async throws -> (r: Double?, buckets: Int) {
    let (_, a) = try await series(userID: userID, deviceID: deviceID, measure: first, in: range, maximumPoints: maximumPoints)
    let (_, b) = try await series(userID: userID, deviceID: deviceID, measure: second, in: range, maximumPoints: maximumPoints)
    let means = Dictionary(uniqueKeysWithValues: b.map { ($0.start, $0.mean) })
    let pairs = a.compactMap { point in means[point.start].map { (point.mean, $0) } }
    return (pearsonCorrelation(pairs), pairs.count)
  }

  /// Each measure's latest value of a device the user may see.
  public func latest(userID: String, deviceID: String) async throws -> [Measure: (time: Date, value: Double)] {
    guard let seq = try await devices(userID: userID, deviceID: deviceID).first else { throw ServiceError.notFound("no device \(deviceID)") }
    return try await store.latest(deviceSeq: seq)
  }

  /// A device's readings in a range as CSV (``ReadingCSV``).
  public func csv(userID: String, deviceID: String, in range: Range<Date>) async throws -> String {
    guard let seq = try await devices(userID: userID, deviceID: deviceID).first else { throw ServiceError.notFound("no device \(deviceID)") }
    let readings = try await store.readings(deviceSeq: seq, in: try Self.checked(range))
    return readings.reduce(into: ReadingCSV.header()) { $0 += ReadingCSV.line($1) }
  }
}
