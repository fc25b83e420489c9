import BinarioDomain
import Foundation

/// The areas open data is listed by: a position's area is the province of the reference station
/// nearest it (Open Data Lombardia's stations carry their province's code), or ``other`` beyond
/// ``reach`` of every station. The stations are those imported now, so an area follows the
/// catalogues as they are.
public struct OpenDataAreas: Sendable {
  /// A station's position and its province's code ("MI").
  public struct Station: Sendable, Hashable {
    public var position: GeoPoint
    public var province: String

    public init(position: GeoPoint, province: String) {
      self.position = position
      self.province = province
    }
  }

  /// The area of a position farther than ``reach`` from every station.
  public static let other = "other"
  /// How far a station's province reaches, in metres.
  public static let reach: Double = 50_000

  let stations: [Station]

  public init(stations: [Station]) {
    self.stations = stations.filter { !$0.province.isEmpty }
  }

  /// The province of the station nearest `position`, or ``other``.
  public func area(of position: GeoPoint) -> String {
    var nearest: (distance: Double, province: String)?
    for station in stations {
      let distance = position.distance(to: station.position)
      if distance <= Self.reach, distance < nearest?.distance ?? .infinity { nearest = (distance, station.province) }
    }
    return nearest?.province ?? Self.other
  }

  /// Every area a position can fall in: the stations' provinces, alphabetically, then ``other``.
  public var codes: [String] { Set(stations.map(\.province)).sorted() + [Self.other] }

  /// An area's name for people: Lombardy's provinces by their names, ``other`` said, any other
  /// code as it is.
  public static func name(of area: String) -> PersonText {
    if area == other { return "More than 50 km from a station" }
    return PersonText(verbatim: provinces[area] ?? area)
  }

  /// Lombardy's twelve provinces by the codes the regional catalogues use.
  static let provinces = [
    "BG": "Bergamo", "BS": "Brescia", "CO": "Como", "CR": "Cremona", "LC": "Lecco", "LO": "Lodi",
    "MB": "Monza e Brianza", "MI": "Milano", "MN": "Mantova", "PV": "Pavia", "SO": "Sondrio", "VA": "Varese",
  ]
}
