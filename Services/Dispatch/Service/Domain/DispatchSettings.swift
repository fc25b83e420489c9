import BinarioDomain
import Foundation

/// How fares are made: base + per kilometre, in one currency. Loaded as data (`tariff.json`).
public struct Tariff: Sendable, Hashable, Codable {
  public var currency = "EUR"
  public var baseFareMinor: Int64 = 350
  public var perKilometreMinor: Int64 = 120
  /// Streets are longer than the great circle: an estimate multiplies by this.
  public var detourFactor = 1.3
  /// Held at request; taken for a cancellation after the free period, or a reservation deleted
  /// in its last minutes.
  public var cancellationFeeMinor: Int64 = 500
  public var freeCancellationSeconds: Int = 30

  public init() {}

  /// The fare for `metres` (rounded to the minor unit).
  public func fare(metres: Double) -> Int64 {
    baseFareMinor + Int64((Double(perKilometreMinor) * metres / 1000).rounded())
  }

  /// The estimate of a trip from `origin` to `destination`.
  public func estimate(from origin: GeoPoint, to destination: GeoPoint) -> Int64 {
    fare(metres: origin.distance(to: destination) * detourFactor)
  }
}

/// Dispatch's timing and limits.
public struct DispatchSettings: Sendable {
  /// How long a driver has to answer an offer.
  public var offerTimeout: TimeInterval = 20
  /// A ride is late once its estimated pickup plus this has passed without the taxi arriving.
  public var delayGrace: TimeInterval = 5 * 60
  /// Offers let expire in a row before the admins are alerted and the taxi is made unavailable.
  public var missedOffersAlert = 3
  /// An active ride whose taxi has not reported for this long alerts the admins.
  public var positionSilenceAlert: TimeInterval = 5 * 60
  /// Average speed in town, for the wait estimate.
  public var citySpeedKmh = 25.0
  /// How far ahead a reservation must be made.
  public var reservationLeadTime: TimeInterval = 2 * 3600
  /// A reservation may be edited until this long before its meeting time.
  public var reservationEditCutoff: TimeInterval = 30 * 60
  /// A reservation's taxi is allocated this long before the meeting time; deleting it later
  /// costs the cancellation fee.
  public var reservationAllocationLead: TimeInterval = 10 * 60
  /// Shared reservations are matched when their meeting times are at most this far apart.
  public var sharingWindow: TimeInterval = 15 * 60
  /// How long a request keeps looking for a taxi, round after round, before it ends with no taxi
  /// (a reservation's ride counts from its dispatch).
  public var searchLimit: TimeInterval = 10 * 60
  /// When every taxi in reach refused or ignored a request, how long before they are asked again
  /// (with one more ring of zones).
  public var searchRoundPause: TimeInterval = 30
  /// How long a driver waits at the pickup before they may mark the passenger absent.
  public var noShowWait: TimeInterval = 5 * 60
  /// Position reports: a fix less accurate than this is not used.
  public var worstAccuracyMetres = 100.0
  /// Position reports: a fix implying a faster drive from the last one is not used.
  public var fastestKmh = 150.0
  /// A taxi stays in its zone while this close outside its border (GPS jitter).
  public var zoneHysteresisMetres = 40.0
  /// A ride called now blocks the passenger's reservations within this long, and the other way.
  public var openRideHorizon: TimeInterval = 3600
  /// Admins alerted when something goes wrong (their account emails).
  public var alertEmails: [String] = []
  public var tariff = Tariff()
  /// The city's time zone: the clock times in notifications.
  public var zone = TimeZone(identifier: "Europe/Rome")!

  public init() {}
}
