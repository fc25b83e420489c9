import BinarioDomain
import Foundation

/// A measure interpolated over a box for the map's heat layer, by inverse distance weighting
/// (as openSenseMap offers): each cell's centre gets Σ wᵢvᵢ / Σ wᵢ over the readings, with
/// wᵢ = 1 / dᵢᵖ (great-circle distance, power 2 by default); a reading within a metre of a centre
/// gives its value; readings farther than `radiusMetres` do not count, and a cell with none in
/// reach is empty.
public struct InterpolatedGrid: Sendable, Hashable {
  public var box: GeoBox
  public var rows: Int
  public var columns: Int
  /// Row-major from the south-west corner; `nil` for a cell with no reading in reach.
  public var values: [Double?]

  public init(points: [(GeoPoint, Double)], box: GeoBox, rows: Int, columns: Int, power: Double = 2, radiusMetres: Double = 2_000) {
    self.box = box
    self.rows = rows
    self.columns = columns
    let cellHeight = (box.maxLatitude - box.minLatitude) / Double(rows)
    let cellWidth = (box.maxLongitude - box.minLongitude) / Double(columns)
    var values: [Double?] = []
    values.reserveCapacity(rows * columns)
    for row in 0 ..< rows {
      for column in 0 ..< columns {
        let centre = GeoPoint(
          latitude: box.minLatitude + (Double(row) + 0.5) * cellHeight,
          longitude: box.minLongitude + (Double(column) + 0.5) * cellWidth
        )
        var weighted = 0.0
        var weights = 0.0
        var exact: Double?
        for (point, value) in points {
          let distance = centre.distance(to: point)
          if distance < 1 {
            exact = value
            break
          }
          guard distance <= radiusMetres else { continue }
          let weight = 1 / pow(distance, power)
          weighted += weight * value
          weights += weight
        }
        values.append(exact ?? (weights > 0 ? weighted / weights : nil))
      }
    }
    self.values = values
  }

  /// The value of the cell at `row`, `column` (from the south-west).
  public func value(row: Int, column: Int) -> Double? {
    values[row * columns + column]
  }
}
