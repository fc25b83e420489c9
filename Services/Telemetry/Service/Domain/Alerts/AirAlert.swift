import BinarioDomain
import Foundation

/// A person's air alert (beyond MOQA: what Sensor.Community's and PurpleAir's users set): told
/// through the notification centre when a watched board's reading goes above a threshold, or
/// when a watched board stops sending.
public struct AirAlert: Sendable, Hashable {
  public var id: String
  public var userID: String
  /// The person's words for it ("Home", "School run").
  public var name: String
  public var condition: Condition
  public var scope: Scope
  public var createdAt: Date
  /// The newest reading (or silence) it notified of; `nil`: never yet.
  public var lastTriggeredAt: Date?

  public enum Condition: Sendable, Hashable {
    /// A reading of `measure` above `threshold` (in the measure's unit).
    case above(Measure, threshold: Double)
    /// Nothing received from a board for `minutes`.
    case silence(minutes: Int)
  }

  public enum Scope: Sendable, Hashable {
    /// The person's own boards, as they are at each pass (a board added later is watched).
    case myBoards
    /// One board the person sees, by id.
    case board(String)
    /// The public boards within `radiusMetres` of `centre` (threshold alerts only).
    case area(centre: GeoPoint, radiusMetres: Double)
  }

  public static let nameLength = 1 ... 60
  public static let silentMinutes = 10 ... 10_080
  public static let areaRadius = 100.0 ... 50_000.0
  /// The most alerts a person keeps.
  public static let perPerson = 20
  /// The shortest time between two notifications of one alert about one board: a value hovering
  /// around the threshold is not a stream of messages.
  public static let renotifyAfter: TimeInterval = 3_600
}

/// What a pass of the alerts job remembers of one alert and one board, saved with the pass.
public struct AirAlertState: Sendable, Hashable {
  /// The newest reading time looked at: readings are taken after it.
  public var newest: Date
  /// Whether the last reading looked at was above the threshold (the crossing is notified once).
  public var above = false
  /// The reading time of the last notification.
  public var notified: Date?
  /// The last-seen time the board was reported silent after (once per silence).
  public var silentAfter: Date?

  public init(newest: Date, above: Bool = false, notified: Date? = nil, silentAfter: Date? = nil) {
    (self.newest, self.above, self.notified, self.silentAfter) = (newest, above, notified, silentAfter)
  }
}

extension Measure {
  /// The measure's name for a person, in notifications.
  var personName: PersonText {
    switch self {
    case .temperature: "temperature"
    case .humidity: "humidity"
    case .pressure: "pressure"
    case .altitude: "altitude"
    case .tvoc: "TVOC"
    case .eco2: "eCO2"
    case .pm0_5: "PM0.5"
    case .pm1: "PM1"
    case .pm2_5: "PM2.5"
    case .pm4: "PM4"
    case .pm10: "PM10"
    }
  }
}
