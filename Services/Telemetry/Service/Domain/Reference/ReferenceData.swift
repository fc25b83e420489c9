import BinarioDomain
import Foundation

/// A series of the user's beside a reference sensor's, on the same time buckets (MOQA's blue line
/// against the red one): a bucket where only one has values holds `nil` for the other.
public struct ComparedPoint: Sendable, Hashable {
  public var start: Date
  public var mine: Double?
  /// The reference values whose spans overlap the bucket, weighted by the overlap: a daily mean
  /// is the same on each of its day's buckets, hourly values in a 6-hour bucket are averaged.
  public var reference: Double?
}

/// A board beside a reference sensor: the chart's points, and each reference value paired with
/// the board's mean over the same span (a daily mean against the board's day, a 24-hour running
/// mean against the board's 24 hours before it), on which the correlation is computed.
public struct Comparison: Sendable, Hashable {
  public var points: [ComparedPoint]
  public var pairs: [Pair]
  /// How the reference values are averaged (the newest's, when they differ).
  public var averaging: Averaging?

  public struct Pair: Sendable, Hashable {
    public var window: Range<Date>
    public var mine: Double
    public var reference: Double
  }

  /// Pearson's r on the pairs; `nil` below two.
  public var correlation: Double? { pearsonCorrelation(pairs.map { ($0.mine, $0.reference) }) }
}

/// The regional monitoring stations: imports, nearby sensors, comparison and correlation.
public struct ReferenceData: Sendable {
  let store: TelemetryStore
  let queries: ReadingQueries

  public init(store: TelemetryStore, queries: ReadingQueries) {
    self.store = store
    self.queries = queries
  }

  /// What an import did.
  public struct ImportOutcome: Sendable, Hashable {
    public var read: Int
    public var added: Int
    public var skipped: Int
    public var problems: [String]
    /// Of `added`, the values a near-real-time fetch filled its gap with from another source.
    public var gapFilled = 0

    public init(read: Int, added: Int, skipped: Int, problems: [String]) {
      (self.read, self.added, self.skipped, self.problems) = (read, added, skipped, problems)
    }

    /// Counts another page's import in.
    mutating func add(_ other: ImportOutcome) {
      read += other.read
      added += other.added
      skipped += other.skipped
      problems += other.problems.prefix(max(0, 10 - problems.count))
    }
  }

  /// Imports a station catalogue file (the portal's JSON, CSV or GeoJSON).
  public func importCatalogue(_ data: Data, network: ReferenceSensor.Network) async throws -> ImportOutcome {
    let outcome = try ArpaImport.sensors(data, network: network)
    let added = try await store.upsert(outcome.items)
    return ImportOutcome(read: outcome.items.count, added: added, skipped: outcome.skipped, problems: outcome.problems)
  }

  /// Imports a measurements file (the portal's JSON or CSV; `nearRealTime` for the feed of
  /// today's values, whose PM means run over the 24 hours before).
  public func importMeasurements(_ data: Data, nearRealTime: Bool = false) async throws -> ImportOutcome {
    try await importMeasurements(try ArpaImport.measurements(data).outcome, nearRealTime: nearRealTime)
  }

  /// Imports measurements already read, each given the span the portal averages its sensor's
  /// values over (from the catalogue; an unknown sensor's values are hourly), moving `source`'s
  /// cursors with them when a fetch brought them.
  func importMeasurements(
    _ outcome: ArpaImport.Outcome<ReferenceMeasurement>,
    nearRealTime: Bool,
    cursorOf source: String? = nil
  ) async throws -> ImportOutcome {
    let sensors = try await store.referenceSensors(ids: Set(outcome.items.map(\.sensorID)))
    var items = outcome.items
    // Sensors with a value stamped other than at midnight (the portal's standard time).
    let offMidnight = Set(items.filter { Int64($0.time.timeIntervalSince1970 + 3600) % 86_400 != 0 }.map(\.sensorID))
    for index in items.indices {
      // The portal says the feed is not validated, whatever a row's stato.
      if nearRealTime { items[index].validity = .provisional }
      guard let sensor = sensors[items[index].sensorID] else { continue }
      items[index].averaging = Averaging.of(
        typeName: sensor.typeName,
        network: sensor.network,
        nearRealTime: nearRealTime,
        onlyMidnights: !offMidnight.contains(sensor.sensorID)
      )
    }
    let added = try await store.upsert(items, advancingCursorOf: source)
    return ImportOutcome(read: items.count, added: added, skipped: outcome.skipped, problems: outcome.problems)
  }

  /// The sensors within `radiusMetres` of a point, nearest first (optionally of one measure).
  public func sensors(near point: GeoPoint, radiusMetres: Double, measure: Measure?) async throws -> [(sensor: ReferenceSensor, distance: Double)] {
    var found: [(sensor: ReferenceSensor, distance: Double)] = []
    for box in point.boundingBoxes(radiusMetres: radiusMetres) {
      for sensor in try await store.referenceSensors(within: box, measure: measure) {
        let distance = point.distance(to: sensor.position)
        if distance <= radiusMetres, !found.contains(where: { $0.sensor.sensorID == sensor.sensorID }) { found.append((sensor, distance)) }
      }
    }
    return found.sorted { ($0.distance, $0.sensor.sensorID) < ($1.distance, $1.sensor.sensorID) }
  }

  /// The user's series of `measure` (a device or their own) beside a reference sensor's mean
  /// values, on the same buckets, and paired span by span.
  public func compare(
    userID: String,
    deviceID: String?,
    measure: Measure,
    sensorID: String,
    in range: Range<Date>,
    maximumPoints: Int
  ) async throws -> Comparison {
    guard try await store.referenceSensor(id: sensorID) != nil else { throw ServiceError.notFound("no reference sensor \(sensorID)") }
    let (buckets, mine) = try await queries.series(userID: userID, deviceID: deviceID, measure: measure, in: range, maximumPoints: maximumPoints)
    let reference = try await preferredValues(sensorID: sensorID, overlapping: range)
    var byStart: [Date: ComparedPoint] = [:]
    for point in mine { byStart[point.start, default: ComparedPoint(start: point.start)].mine = point.mean }
    var start = range.lowerBound
    while start < range.upperBound {
      let bucket = start ..< min(start.addingTimeInterval(buckets.width), range.upperBound)
      if let mean = Self.overlapMean(reference, over: bucket) { byStart[start, default: ComparedPoint(start: start)].reference = mean }
      start = bucket.upperBound
    }
    // Each reference span beside the board's mean over it, clipped to the range.
    var values = try await store.values(deviceSeqs: try await queries.devices(userID: userID, deviceID: deviceID), measure: measure, in: range)
    values.sort { $0.0 < $1.0 }
    var sums = [0.0]
    for (_, value) in values { sums.append(sums[sums.count - 1] + value) }
    var pairs: [Comparison.Pair] = []
    for measurement in reference {
      let window = measurement.window.clamped(to: range)
      let first = Self.firstIndex(in: values, atOrAfter: window.lowerBound)
      let end = Self.firstIndex(in: values, atOrAfter: window.upperBound)
      guard end > first else { continue }
      pairs.append(.init(window: measurement.window, mine: (sums[end] - sums[first]) / Double(end - first), reference: measurement.value))
    }
    return Comparison(points: byStart.values.sorted { $0.start < $1.start }, pairs: pairs, averaging: reference.last?.averaging)
  }

  /// A sensor's mean values overlapping `range`, where provisional ones (the near-real-time
  /// feed's running means, not yet followed by the day's validated mean) count only after the
  /// sensor's last validated value.
  func preferredValues(sensorID: String, overlapping range: Range<Date>) async throws -> [ReferenceMeasurement] {
    let values = try await store.referenceValues(sensorID: sensorID, overlapping: range)
    guard values.contains(where: { $0.validity == .provisional }),
      let validatedEnd = try await store.newestValidatedEnd(sensorID: sensorID)
    else { return values }
    return values.filter { $0.validity == .validated || $0.window.upperBound > validatedEnd }
  }

  /// The first of the time-ordered `values` at or after `instant` (a binary search).
  static func firstIndex(in values: [(Date, Double)], atOrAfter instant: Date) -> Int {
    var (low, high) = (0, values.count)
    while low < high {
      let middle = (low + high) / 2
      if values[middle].0 < instant { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The mean of the values whose spans overlap `span`, each weighted by how much; `nil` when none.
  static func overlapMean(_ values: [ReferenceMeasurement], over span: Range<Date>) -> Double? {
    var (weighted, total) = (0.0, 0.0)
    for value in values where value.window.overlaps(span) {
      let overlap = value.window.clamped(to: span)
      let weight = overlap.upperBound.timeIntervalSince(overlap.lowerBound)
      weighted += weight * value.value
      total += weight
    }
    return total > 0 ? weighted / total : nil
  }

  /// Each reference sensor of `measure` in the box with its mean over the range, each value
  /// weighted by how much of its span falls in the range (the map's red circles beside the
  /// board's); sensors without a value in the range are left out.
  public func stationMeans(
    measure: Measure,
    within box: GeoBox,
    in range: Range<Date>
  ) async throws
    -> [(sensor: ReferenceSensor, mean: Double, count: Int)]
  {
    var means: [(sensor: ReferenceSensor, mean: Double, count: Int)] = []
    for sensor in try await store.referenceSensors(within: box, measure: measure) {
      let values = try await preferredValues(sensorID: sensor.sensorID, overlapping: range)
      guard let mean = Self.overlapMean(values, over: range) else { continue }
      means.append((sensor, mean, values.count))
    }
    return means
  }
}

extension ComparedPoint {
  init(start: Date) {
    self.init(start: start, mine: nil, reference: nil)
  }
}
