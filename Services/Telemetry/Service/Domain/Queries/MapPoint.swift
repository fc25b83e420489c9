import BinarioDomain
import Foundation

/// A reading's position and one measure's value, for the map.
public struct MapPoint: Sendable, Hashable {
  public var deviceID: String
  public var time: Date
  public var position: GeoPoint
  public var value: Double
}
