import BinarioDomain
import Foundation

/// One reading of a board: when and where, and any subset of the measures. A reading taken
/// without a GPS fix has no position (it counts in series and statistics, never on a map).
public struct Reading: Sendable, Hashable {
  public var time: Date
  public var position: GeoPoint?
  public var altitude: Double?
  public var values: MeasureValues

  public init(time: Date, position: GeoPoint?, altitude: Double? = nil, values: MeasureValues) {
    self.time = time
    self.position = position
    self.altitude = altitude
    self.values = values
  }

  /// Readings are kept to the millisecond: two readings of a device in the same millisecond are
  /// the same reading.
  public var timeMilliseconds: Int64 { Int64((time.timeIntervalSince1970 * 1000).rounded()) }

  /// Why the reading cannot be stored, or `nil`: a position off the globe, a time far in the
  /// future (more than `allowedSkew` after `now`), a value outside its measure's range, or no
  /// value at all.
  public func problem(now: Date, allowedSkew: TimeInterval) -> String? {
    guard time.timeIntervalSince1970.isFinite, time <= now.addingTimeInterval(allowedSkew) else {
      return "its time \(time) is in the future"
    }
    if let position,
      !(position.latitude.isFinite && (-90 ... 90).contains(position.latitude) && position.longitude.isFinite
        && (-180 ... 180).contains(position.longitude))
    {
      return "its position \(position.latitude), \(position.longitude) is not on the globe"
    }
    if let altitude, !altitude.isFinite || !(-500 ... 9_000).contains(altitude) { return "its altitude \(altitude) m is not possible" }
    guard !values.isEmpty else { return "it has no measure" }
    for measure in Measure.allCases {
      if let value = values[measure], let problem = measure.problem(with: value) { return problem }
    }
    return nil
  }
}

/// What a batch upload did, reading by reading.
public struct IngestOutcome: Sendable, Hashable {
  /// Newly stored.
  public var stored = 0
  /// Already stored with the same values (a resend): not stored twice.
  public var duplicates = 0
  /// Refused, with the reading's index in the batch and the reason.
  public var rejected: [(index: Int, reason: String)] = []
  /// The batch indexes of the readings newly stored (what live mode shows), in batch order.
  public var storedIndexes: [Int] = []

  public var accepted: Int { stored + duplicates }

  public static func == (lhs: IngestOutcome, rhs: IngestOutcome) -> Bool {
    lhs.stored == rhs.stored && lhs.duplicates == rhs.duplicates && lhs.rejected.map(\.index) == rhs.rejected.map(\.index)
      && lhs.rejected.map(\.reason) == rhs.rejected.map(\.reason)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(stored)
    hasher.combine(duplicates)
    hasher.combine(rejected.map(\.index))
  }
}
