import BinarioDomain
import Foundation

/// What tickets cost: the fare table, data loaded from a JSON file (the demo one is
/// `Services/Ticketing/DemoFares/fares.json`) and kept in the database. Amounts are minor units
/// of ``currency``.
///
/// - Station tickets and station passes are priced by **distance band**: the distance along the
///   run between the two stations, rounded up to whole kilometres, falls in the first band whose
///   `upToKm` it does not exceed.
/// - Zone tickets, carnets and zone passes cover a contiguous range of **zones** (Milan's STIBM:
///   `Mi1`...`Mi9`). A range that includes the first zone covers at least the first
///   ``coreZones`` (`Mi1-Mi3`) and has its own price; a range outside it is priced by how many
///   zones it covers.
public struct FareTable: Sendable, Hashable, Codable {
  public struct DistanceBand: Sendable, Hashable, Codable {
    public var upToKm: Int
    public var secondClass: Int64
    public var firstClass: Int64
    public var monthlyPass: Int64
    public var yearlyPass: Int64
  }

  /// The price of one zone range (`zones`, e.g. `Mi1-Mi4`) or of any range of `zoneCount` zones
  /// outside the first.
  public struct ZoneFare: Sendable, Hashable, Codable {
    public var zones: String?
    public var zoneCount: Int?
    public var single: Int64
    public var monthlyPass: Int64
    public var yearlyPass: Int64
  }

  public struct CarnetFare: Sendable, Hashable, Codable {
    public var zones: String
    public var rides: Int
    public var price: Int64
  }

  public var currency: String
  /// How long a validated station ride lasts.
  public var stationRideMinutes: Int
  public var distanceBands: [DistanceBand]
  /// Every zone, inner first.
  public var zones: [String]
  public var coreZones: Int
  /// How long a validated zone ride (a zone ticket's, a carnet's) lasts.
  public var zoneRideMinutes: Int
  /// How long an unused zone ticket or carnet stays valid after purchase.
  public var zoneTicketValidDays: Int
  public var zoneFares: [ZoneFare]
  public var carnets: [CarnetFare]

  /// Reads and checks a fare table.
  /// - Throws: ``ServiceError/invalid(_:)`` naming what is wrong (`distanceBands[2].upToKm`).
  public static func decode(_ data: Data) throws -> FareTable {
    let table: FareTable
    do {
      table = try JSONDecoder().decode(FareTable.self, from: data)
    } catch let error as DecodingError {
      throw ServiceError.invalid("fare_table", "not a fare table: \(Self.describe(error))")
    }
    try table.check()
    return table
  }

  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(self)) ?? Data()
  }

  func check() throws(ServiceError) {
    var check = InputValidation()
    if !Money.isCurrencyCode(currency) { check.fail("currency", "an ISO 4217 code such as EUR") }
    if stationRideMinutes <= 0 { check.fail("stationRideMinutes", "must be positive") }
    if zoneRideMinutes <= 0 { check.fail("zoneRideMinutes", "must be positive") }
    if zoneTicketValidDays <= 0 { check.fail("zoneTicketValidDays", "must be positive") }
    if distanceBands.isEmpty { check.fail("distanceBands", "at least one band") }
    for (index, band) in distanceBands.enumerated() {
      if band.upToKm <= (index == 0 ? 0 : distanceBands[index - 1].upToKm) {
        check.fail("distanceBands[\(index)].upToKm", "bands go up in distance")
      }
      if [band.secondClass, band.firstClass, band.monthlyPass, band.yearlyPass].contains(where: { $0 < 0 }) {
        check.fail("distanceBands[\(index)]", "prices must not be negative")
      }
    }
    if zones.isEmpty || Set(zones.map { $0.lowercased() }).count != zones.count {
      check.fail("zones", "at least one zone, each named once")
    }
    if !(1 ... max(1, zones.count)).contains(coreZones) { check.fail("coreZones", "between 1 and the number of zones") }
    for (index, fare) in zoneFares.enumerated() {
      switch (fare.zones, fare.zoneCount) {
      case (let zones?, nil):
        if let range = ZoneRange(parsing: zones, in: self), range.lower == 0 { break }
        check.fail("zoneFares[\(index)].zones", "a range from the first zone, e.g. \(self.zones.first ?? "Mi1")-\(self.zones.last ?? "Mi9")")
      case (nil, let count?) where (1 ... zones.count).contains(count):
        break
      default:
        check.fail("zoneFares[\(index)]", "either zones (a range from the first zone) or zoneCount")
      }
      if [fare.single, fare.monthlyPass, fare.yearlyPass].contains(where: { $0 < 0 }) {
        check.fail("zoneFares[\(index)]", "prices must not be negative")
      }
    }
    for (index, carnet) in carnets.enumerated() {
      if ZoneRange(parsing: carnet.zones, in: self) == nil { check.fail("carnets[\(index)].zones", "not a zone range") }
      if carnet.rides < 2 || carnet.price < 0 { check.fail("carnets[\(index)]", "at least 2 rides, a price not negative") }
    }
    try check.finish()
  }

  // MARK: - Pricing

  /// The band a distance falls in, or `nil` beyond the last.
  public func band(forMetres metres: Int) -> DistanceBand? {
    let km = (metres + 999) / 1000
    return distanceBands.first { km <= $0.upToKm }
  }

  /// The fare of a zone range, or why there is none.
  public func zoneFare(_ range: ZoneRange) throws(ServiceError) -> ZoneFare {
    if range.lower == 0 {
      guard range.upper >= coreZones - 1 else {
        throw .invalid("zones", "a range with \(zones[0]) covers \(range.name(in: self, upper: coreZones - 1)) at least")
      }
      if let fare = zoneFares.first(where: { $0.zones.flatMap { ZoneRange(parsing: $0, in: self) } == range }) {
        return fare
      }
    } else if let fare = zoneFares.first(where: { $0.zoneCount == range.count }) {
      return fare
    }
    throw .invalid("zones", "the fare table has no price for \(range.name(in: self))")
  }

  private static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      return "\((context.codingPath + [key]).map(\.stringValue).joined(separator: ".")) is missing"
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}

/// A contiguous range of a fare table's zones, by index (`Mi1-Mi3` is 0...2).
public struct ZoneRange: Sendable, Hashable {
  public var lower: Int
  public var upper: Int

  public var count: Int { upper - lower + 1 }

  /// `Mi1-Mi3`, `mi3-mi5`, or one zone `Mi4`; `nil` when a zone is unknown or the range runs
  /// backwards.
  public init?(parsing text: String, in table: FareTable) {
    let names = table.zones.map { $0.lowercased() }
    let parts = text.lowercased().split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
    guard (1 ... 2).contains(parts.count), let lower = names.firstIndex(of: parts[0]),
      let upper = names.firstIndex(of: parts[parts.count - 1]), lower <= upper
    else { return nil }
    self.lower = lower
    self.upper = upper
  }

  public func name(in table: FareTable, upper: Int? = nil) -> String {
    let last = upper ?? self.upper
    return lower == last ? table.zones[lower] : "\(table.zones[lower])-\(table.zones[last])"
  }
}
