import Foundation

/// A position on the Earth in WGS 84 degrees, with great-circle distances between positions.
///
/// Distances are on a sphere of the Earth's mean radius (haversine): within 0.5 % of the
/// ellipsoid's everywhere, and correct across the antimeridian and at the poles, where
/// longitudes stop meaning much.
public struct GeoPoint: Sendable, Hashable, Codable, CustomStringConvertible {
  public var latitude: Double
  public var longitude: Double

  /// The Earth's mean radius (IUGG), in metres.
  public static let earthRadiusMetres = 6_371_008.8
  /// Half the Earth's circumference: no two points are further apart.
  public static let maximumDistanceMetres = Double.pi * earthRadiusMetres

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// The great-circle distance to `other`, in metres.
  public func distance(to other: GeoPoint) -> Double {
    let radians = Double.pi / 180
    let dLat = (other.latitude - latitude) * radians
    let dLon = (other.longitude - longitude) * radians
    let h =
      sin(dLat / 2) * sin(dLat / 2)
      + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * Self.earthRadiusMetres * asin(min(1, h.squareRoot()))
  }

  /// The latitude/longitude boxes that together hold every point within `radiusMetres` of this
  /// one: one box, or two where the circle crosses the antimeridian; a band of every longitude
  /// where it reaches a pole. What a spatial index (an R*Tree) is asked before exact distances.
  public func boundingBoxes(radiusMetres: Double) -> [GeoBox] {
    let angular = radiusMetres / Self.earthRadiusMetres
    let degrees = 180 / Double.pi
    guard angular < Double.pi else { return [GeoBox.world] }
    let minLatitude = latitude - angular * degrees
    let maxLatitude = latitude + angular * degrees
    if minLatitude <= -90 || maxLatitude >= 90 {
      return [GeoBox(minLatitude: max(-90, minLatitude), maxLatitude: min(90, maxLatitude), minLongitude: -180, maxLongitude: 180)]
    }
    // The widest longitude a point at this distance can differ by (at a latitude nearer the pole
    // than the centre's).
    let ratio = sin(angular) / cos(latitude / degrees)
    guard ratio < 1 else {
      return [GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: 180)]
    }
    let spread = asin(ratio) * degrees
    let west = longitude - spread
    let east = longitude + spread
    if west < -180 {
      return [
        GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west + 360, maxLongitude: 180),
        GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: east),
      ]
    }
    if east > 180 {
      return [
        GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west, maxLongitude: 180),
        GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: east - 360),
      ]
    }
    return [GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west, maxLongitude: east)]
  }

  public var description: String {
    String(format: "%.6f,%.6f", latitude, longitude)
  }
}

/// A latitude/longitude rectangle (`minLongitude <= maxLongitude`: never across the antimeridian).
public struct GeoBox: Sendable, Hashable {
  public var minLatitude: Double
  public var maxLatitude: Double
  public var minLongitude: Double
  public var maxLongitude: Double

  public static let world = GeoBox(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)

  public init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
    self.minLatitude = minLatitude
    self.maxLatitude = maxLatitude
    self.minLongitude = minLongitude
    self.maxLongitude = maxLongitude
  }
}

extension InputValidation {
  /// A latitude −90…90 and a longitude −180…180, both finite, under `field.latitude` and
  /// `field.longitude` (or bare `latitude` and `longitude` when `field` is empty).
  @discardableResult
  public mutating func position(latitude: Double, longitude: Double, field: String = "") -> GeoPoint {
    let prefix = field.isEmpty ? "" : field + "."
    if !latitude.isFinite || !(-90 ... 90).contains(latitude) {
      fail(prefix + "latitude", "\(latitude) is not a latitude (-90 to 90 degrees)")
    }
    if !longitude.isFinite || !(-180 ... 180).contains(longitude) {
      fail(prefix + "longitude", "\(longitude) is not a longitude (-180 to 180 degrees)")
    }
    return GeoPoint(latitude: latitude, longitude: longitude)
  }

  /// A radius in metres: 0 gives `defaultMetres`; otherwise finite, positive, at most `maximumMetres`.
  public mutating func radius(_ metres: Double, field: String, default defaultMetres: Double, maximum maximumMetres: Double) -> Double {
    if metres == 0 { return defaultMetres }
    guard metres.isFinite, metres > 0, metres <= maximumMetres else {
      fail(field, "\(metres) m is not a radius (more than 0, at most \(Int(maximumMetres)) m)")
      return defaultMetres
    }
    return metres
  }
}
