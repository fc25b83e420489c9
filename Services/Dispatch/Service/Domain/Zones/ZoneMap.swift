import BinarioDomain
import Foundation

/// One of the city's predetermined taxi zones: a simple polygon (no holes, not
/// self-intersecting), its vertices in order, the last joined to the first.
public struct Zone: Sendable, Hashable, Codable {
  public var id: String
  public var name: String
  public var polygon: [GeoPoint]

  public init(id: String, name: String, polygon: [GeoPoint]) {
    self.id = id
    self.name = name
    self.polygon = polygon
  }

  /// The mean of the vertices: where "nearest" zones are measured from.
  public var centre: GeoPoint {
    GeoPoint(
      latitude: polygon.map(\.latitude).reduce(0, +) / Double(polygon.count),
      longitude: polygon.map(\.longitude).reduce(0, +) / Double(polygon.count)
    )
  }

  /// Whether `point` is inside (or on the border of) the polygon: an even-odd ray cast in the
  /// latitude/longitude plane, exact enough for zones of a city (no zone crosses the
  /// antimeridian or holds a pole).
  public func contains(_ point: GeoPoint) -> Bool {
    var inside = false
    var previous = polygon[polygon.count - 1]
    for vertex in polygon {
      if Self.onSegment(point, previous, vertex) { return true }
      if (vertex.latitude > point.latitude) != (previous.latitude > point.latitude) {
        let crossing =
          vertex.longitude
          + (point.latitude - vertex.latitude) / (previous.latitude - vertex.latitude) * (previous.longitude - vertex.longitude)
        if point.longitude < crossing { inside.toggle() }
      }
      previous = vertex
    }
    return inside
  }

  static func onSegment(_ p: GeoPoint, _ a: GeoPoint, _ b: GeoPoint) -> Bool {
    let cross = (b.longitude - a.longitude) * (p.latitude - a.latitude) - (b.latitude - a.latitude) * (p.longitude - a.longitude)
    guard abs(cross) < 1e-12 else { return false }
    return (min(a.longitude, b.longitude) - 1e-12 ... max(a.longitude, b.longitude) + 1e-12).contains(p.longitude)
      && (min(a.latitude, b.latitude) - 1e-12 ... max(a.latitude, b.latitude) + 1e-12).contains(p.latitude)
  }

  /// The least distance in metres between the two polygons' borders (0 where they touch),
  /// measured in a local plane: what decides whether two zones are neighbours.
  func borderDistance(to other: Zone) -> Double {
    var best = Double.infinity
    for (a1, a2) in edges {
      for (b1, b2) in other.edges {
        best = min(best, Self.segmentDistance(a1, a2, b1, b2, around: centre))
        if best == 0 { return 0 }
      }
    }
    return best
  }

  /// The least distance in metres from `point` to the polygon's border (inside or out).
  public func borderDistance(to point: GeoPoint) -> Double {
    edges.map { Self.segmentDistance($0.0, $0.1, point, point, around: point) }.min() ?? .infinity
  }

  var edges: [(GeoPoint, GeoPoint)] {
    polygon.indices.map { (polygon[$0], polygon[($0 + 1) % polygon.count]) }
  }

  /// Metres east and north of `origin` (an equirectangular projection: exact enough within a city).
  static func plane(_ point: GeoPoint, around origin: GeoPoint) -> (x: Double, y: Double) {
    let metresPerDegree = GeoPoint.earthRadiusMetres * Double.pi / 180
    return (
      (point.longitude - origin.longitude) * metresPerDegree * cos(origin.latitude * Double.pi / 180),
      (point.latitude - origin.latitude) * metresPerDegree
    )
  }

  static func segmentDistance(_ a1: GeoPoint, _ a2: GeoPoint, _ b1: GeoPoint, _ b2: GeoPoint, around origin: GeoPoint) -> Double {
    let (p1, p2, q1, q2) = (plane(a1, around: origin), plane(a2, around: origin), plane(b1, around: origin), plane(b2, around: origin))
    func orientation(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double)) -> Double {
      (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }
    let d1 = orientation(q1, q2, p1)
    let d2 = orientation(q1, q2, p2)
    let d3 = orientation(p1, p2, q1)
    let d4 = orientation(p1, p2, q2)
    if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return 0 }
    func pointToSegment(_ p: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
      let (dx, dy) = (b.x - a.x, b.y - a.y)
      let length = dx * dx + dy * dy
      let t = length == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
      let (cx, cy) = (a.x + t * dx - p.x, a.y + t * dy - p.y)
      return (cx * cx + cy * cy).squareRoot()
    }
    return min(pointToSegment(p1, q1, q2), pointToSegment(p2, q1, q2), pointToSegment(q1, p1, p2), pointToSegment(q2, p1, p2))
  }
}

/// The city's taxi zones (loaded from configuration): which zone a position is in, and each
/// zone's neighbours, nearest first, where a request goes when its own zone has no taxi.
public struct ZoneMap: Sendable {
  public let zones: [Zone]
  /// Zone id → its neighbours' ids, nearest (by centre) first.
  public let neighbours: [String: [String]]

  /// Borders closer than this are shared: two zones drawn by hand rarely meet to the metre.
  public static let touchingMetres = 25.0

  /// - Throws: ``BinarioDomain/ServiceError/invalid(_:)`` naming each zone at fault: no zones,
  ///   an id used twice, fewer than three vertices, a vertex that is not a position.
  public init(zones: [Zone]) throws(ServiceError) {
    var check = InputValidation()
    if zones.isEmpty { check.fail("zones", "at least one zone is required") }
    var seen: Set<String> = []
    for (index, zone) in zones.enumerated() {
      let field = "zones[\(index)]"
      if zone.id.isEmpty { check.fail("\(field).id", "a zone id is required") }
      if !seen.insert(zone.id).inserted { check.fail("\(field).id", "zone id \(zone.id) is used twice") }
      if zone.polygon.count < 3 { check.fail("\(field).polygon", "a zone needs at least 3 vertices, \(zone.id) has \(zone.polygon.count)") }
      for (vertexIndex, vertex) in zone.polygon.enumerated() {
        check.position(latitude: vertex.latitude, longitude: vertex.longitude, field: "\(field).polygon[\(vertexIndex)]")
      }
    }
    try check.finish()
    self.zones = zones
    var neighbours: [String: [String]] = [:]
    for zone in zones {
      neighbours[zone.id] =
        zones
        .filter { $0.id != zone.id && zone.borderDistance(to: $0) <= Self.touchingMetres }
        .sorted { (zone.centre.distance(to: $0.centre), $0.id) < (zone.centre.distance(to: $1.centre), $1.id) }
        .map(\.id)
    }
    self.neighbours = neighbours
  }

  /// Reads zones from JSON: `{"zones": [{"id", "name", "polygon": [[latitude, longitude], ...]}]}`.
  public static func decode(_ data: Data) throws -> ZoneMap {
    struct File: Decodable {
      struct Entry: Decodable {
        var id: String
        var name: String
        var polygon: [[Double]]
      }
      var zones: [Entry]
    }
    let file: File
    do {
      file = try JSONDecoder().decode(File.self, from: data)
    } catch {
      throw ServiceError.invalid("zones", "not a zone file: \(error)")
    }
    var check = InputValidation()
    for (index, entry) in file.zones.enumerated() where entry.polygon.contains(where: { $0.count != 2 }) {
      check.fail("zones[\(index)].polygon", "each vertex is [latitude, longitude]")
    }
    try check.finish()
    return try ZoneMap(
      zones: file.zones.map { entry in
        Zone(id: entry.id, name: entry.name, polygon: entry.polygon.map { GeoPoint(latitude: $0[0], longitude: $0[1]) })
      }
    )
  }

  /// The zone a position is in; `nil` outside every zone. Where zones overlap, the first listed.
  public func zone(containing point: GeoPoint) -> Zone? {
    zones.first { $0.contains(point) }
  }

  public func zone(id: String) -> Zone? {
    zones.first { $0.id == id }
  }

  /// The zone a taxi at `point` counts as in, given the one it was in: it stays in `current`
  /// while within `hysteresis` metres outside its border, so GPS jitter along a border does not
  /// move it from queue to queue (it joins another zone once clearly inside it).
  public func zone(for point: GeoPoint, current: String?, hysteresis: Double) -> Zone? {
    if let current, let zone = zone(id: current), zone.contains(point) || zone.borderDistance(to: point) <= hysteresis {
      return zone
    }
    return zone(containing: point)
  }

  /// The zones a request from `zoneID` asks in round `round`: the zone and its neighbours in
  /// round 1, then one more ring of neighbours each round; each ring nearest (by centre) first.
  public func reach(from zoneID: String, round: Int) -> [String] {
    guard let origin = zone(id: zoneID) else { return [] }
    var seen: Set<String> = [zoneID]
    var order = [zoneID]
    var ring = [zoneID]
    for _ in 0 ..< max(1, round) {
      let next = ring.flatMap { neighbours[$0] ?? [] }.filter { seen.insert($0).inserted }
      if next.isEmpty { break }
      let sorted = next.sorted { a, b in
        let (za, zb) = (zone(id: a)!, zone(id: b)!)
        return (origin.centre.distance(to: za.centre), a) < (origin.centre.distance(to: zb.centre), b)
      }
      order += sorted
      ring = sorted
    }
    return order
  }
}
