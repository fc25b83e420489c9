import BinarioDomain
import Foundation

/// A series of the user's beside a reference sensor's, on the same time buckets (MOQA's blue line
/// against the red one): a bucket where only one has values holds `nil` for the other.
public struct ComparedPoint: Sendable, Hashable {
  public var start: Date
  public var mine: Double?
  public var reference: Double?
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
  }

  /// Imports a station catalogue file (the portal's JSON, CSV or GeoJSON).
  public func importCatalogue(_ data: Data, network: ReferenceSensor.Network) async throws -> ImportOutcome {
    let outcome = try ArpaImport.sensors(data, network: network)
    let added = try await store.upsert(outcome.items)
    return ImportOutcome(read: outcome.items.count, added: added, skipped: outcome.skipped, problems: outcome.problems)
  }

  /// Imports a measurements file (the portal's JSON or CSV).
  public func importMeasurements(_ data: Data) async throws -> ImportOutcome {
    try await importMeasurements(try ArpaImport.measurements(data))
  }

  /// Imports measurements already read from a file.
  func importMeasurements(_ outcome: ArpaImport.Outcome<ReferenceMeasurement>) async throws -> ImportOutcome {
    let added = try await store.upsert(outcome.items)
    return ImportOutcome(read: outcome.items.count, added: added, skipped: outcome.skipped, problems: outcome.problems)
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

  /// The user's series of `measure` (a device or their own) beside a reference sensor's, on the
  /// same buckets (each bucket's mean).
  public func compare(
    userID: String,
    deviceID: String?,
    measure: Measure,
    sensorID: String,
    in range: Range<Date>,
    maximumPoints: Int
  ) async throws -> [ComparedPoint] {
    guard try await store.referenceSensor(id: sensorID) != nil else { throw ServiceError.notFound("no reference sensor \(sensorID)") }
    let (buckets, mine) = try await queries.series(userID: userID, deviceID: deviceID, measure: measure, in: range, maximumPoints: maximumPoints)
    let reference = buckets.points(try await store.referenceValues(sensorID: sensorID, in: range))
    var byStart: [Date: ComparedPoint] = [:]
    for point in mine { byStart[point.start, default: ComparedPoint(start: point.start)].mine = point.mean }
    for point in reference { byStart[point.start, default: ComparedPoint(start: point.start)].reference = point.mean }
    return byStart.values.sorted { $0.start < $1.start }
  }

  /// Each reference sensor of `measure` in the box with its mean over the range (the map's red
  /// circles beside the board's); sensors without a measurement in the range are left out.
  public func stationMeans(
    measure: Measure,
    within box: GeoBox,
    in range: Range<Date>
  ) async throws
    -> [(sensor: ReferenceSensor, mean: Double, count: Int)]
  {
    var means: [(sensor: ReferenceSensor, mean: Double, count: Int)] = []
    for sensor in try await store.referenceSensors(within: box, measure: measure) {
      let values = try await store.referenceValues(sensorID: sensor.sensorID, in: range)
      guard !values.isEmpty else { continue }
      means.append((sensor, values.reduce(0) { $0 + $1.1 } / Double(values.count), values.count))
    }
    return means
  }

  /// Pearson's r of two aligned series on the buckets both have; `nil` below two shared buckets.
  public static func correlation(_ points: [ComparedPoint]) -> Double? {
    pearsonCorrelation(points.compactMap { point in point.mine.flatMap { mine in point.reference.map { (mine, $0) } } })
  }
}

extension ComparedPoint {
  init(start: Date) {
    self.init(start: start, mine: nil, reference: nil)
  }
}
