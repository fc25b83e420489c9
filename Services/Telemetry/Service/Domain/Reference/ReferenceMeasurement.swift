import Foundation

/// A reference sensor's value as the portal publishes it: one row of a measurements dataset.
///
/// One sensor id carries several series, told apart by `idoperatore` (the weather network's
/// mean, maximum and cumulated values of one instrument), and a value stands for a span of time,
/// not an instant: an hour, a 10-minute step, a day, or a mean over the hours before (the
/// near-real-time feed's PM and CO). `docs/regional-data.md` says which codes are read and why.
public struct ReferenceMeasurement: Sendable, Hashable {
  /// `idoperatore`: which statistic of the sensor's samples the value is.
  public enum Operator: Int, Sendable, Hashable, CaseIterable {
    case mean = 1
    case minimum = 2
    case maximum = 3
    case cumulated = 4
  }

  /// Whether ARPA has validated the value (`stato` `VA`) or it is provisional (the near-real-time
  /// feed, which the portal says is not validated). A validated value is never replaced by a
  /// provisional one.
  public enum Validity: Int, Sendable, Hashable, Comparable {
    case provisional = 0
    case validated = 1

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  public var sensorID: String
  /// The portal's time stamp (read in its standard time, kept as a UTC instant).
  public var time: Date
  public var value: Double
  public var `operator`: Operator = .mean
  public var validity: Validity = .validated
  public var averaging: Averaging = .minutes(60)

  public init(
    sensorID: String,
    time: Date,
    value: Double,
    operator: Operator = .mean,
    validity: Validity = .validated,
    averaging: Averaging = .minutes(60)
  ) {
    self.sensorID = sensorID
    self.time = time
    self.value = value
    self.operator = `operator`
    self.validity = validity
    self.averaging = averaging
  }

  /// The span of time the value stands for.
  public var window: Range<Date> { averaging.window(stampedAt: time) }
}

/// The span a reference value stands for, from its time stamp.
public enum Averaging: Sendable, Hashable {
  /// A step of that many minutes starting at the stamp (hourly air values, 10-minute weather).
  case minutes(Int)
  /// The calendar day (the portal's standard time) starting at the stamp: the validated datasets'
  /// daily PM10 and PM2.5.
  case day
  /// The mean over that many hours before the stamp: the near-real-time feed's PM10 and PM2.5
  /// (24 h), CO (8 h) and benzene (24 h).
  case running(hours: Int)

  public func window(stampedAt time: Date) -> Range<Date> {
    switch self {
    case .minutes(let minutes): return time ..< time.addingTimeInterval(Double(minutes) * 60)
    case .day: return time ..< time.addingTimeInterval(86_400)
    case .running(let hours): return time.addingTimeInterval(-Double(hours) * 3600) ..< time
    }
  }

  /// As stored and shown: `60m`, `10m`, `day`, `running-24h`.
  public var code: String {
    switch self {
    case .minutes(let minutes): return "\(minutes)m"
    case .day: return "day"
    case .running(let hours): return "running-\(hours)h"
    }
  }

  public init?(code: String) {
    if code == "day" {
      self = .day
    } else if code.hasPrefix("running-"), code.hasSuffix("h"), let hours = Int(code.dropFirst(8).dropLast()), hours > 0 {
      self = .running(hours: hours)
    } else if code.hasSuffix("m"), let minutes = Int(code.dropLast()), minutes > 0 {
      self = .minutes(minutes)
    } else {
      return nil
    }
  }

  /// How the portal averages a sensor's values, from its type and the dataset: the validated
  /// datasets publish PM10 and PM2.5 as daily means, stamped at midnight (a PM sensor whose
  /// values come at other hours too is hourly); the near-real-time feed publishes them, and
  /// benzene, as the mean over the 24 hours before, and CO as the mean over 8; the weather
  /// network measures every 10 minutes; everything else is hourly.
  public static func of(
    typeName: String,
    network: ReferenceSensor.Network,
    nearRealTime: Bool,
    onlyMidnights: Bool = true
  ) -> Averaging {
    if network == .weather { return .minutes(10) }
    let key = typeName.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
    let particulate = ReferenceSensor.measure(forTypeName: typeName).map { [.pm10, .pm2_5].contains($0) } ?? false
    if nearRealTime {
      if particulate || key.hasPrefix("benzene") { return .running(hours: 24) }
      if key.hasPrefix("monossido di carbonio") { return .running(hours: 8) }
      return .minutes(60)
    }
    return particulate && onlyMidnights ? .day : .minutes(60)
  }
}
