import BinarioDomain
import Foundation

/// A run as scheduling shows it, live changes included.
public struct TimetableRun: Sendable, Hashable {
  public struct Stop: Sendable, Hashable {
    public var stationID: String
    public var stationName: String
    public var latitude: Double
    public var longitude: Double
    public var scheduledArrival: Date?
    public var scheduledDeparture: Date?
    public var expectedDeparture: Date?
    public var platform: String
    public var platformChanged: Bool
    public var delayMinutes: Int
    /// The run does not call here.
    public var cancelled: Bool

    public init(
      stationID: String,
      stationName: String,
      latitude: Double,
      longitude: Double,
      scheduledArrival: Date?,
      scheduledDeparture: Date?,
      expectedDeparture: Date?,
      platform: String,
      platformChanged: Bool,
      delayMinutes: Int,
      cancelled: Bool
    ) {
      self.stationID = stationID
      self.stationName = stationName
      self.latitude = latitude
      self.longitude = longitude
      self.scheduledArrival = scheduledArrival
      self.scheduledDeparture = scheduledDeparture
      self.expectedDeparture = expectedDeparture
      self.platform = platform
      self.platformChanged = platformChanged
      self.delayMinutes = delayMinutes
      self.cancelled = cancelled
    }
  }

  public var run: RunReference
  public var trainNumber: String
  /// The line's short name, e.g. "RE80".
  public var line: String
  public var cancelled: Bool
  public var stops: [Stop]

  public init(run: RunReference, trainNumber: String, line: String = "", cancelled: Bool, stops: [Stop]) {
    self.run = run
    self.trainNumber = trainNumber
    self.line = line
    self.cancelled = cancelled
    self.stops = stops
  }
}

/// A station of the timetable.
public struct TimetableStation: Sendable, Hashable {
  public var id: String
  public var name: String
  public var latitude: Double
  public var longitude: Double

  public init(id: String, name: String, latitude: Double, longitude: Double) {
    self.id = id
    self.name = name
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// What ticketing asks scheduling (its public `GetRun` and `ListStations`, its internal
/// `GetRuns`, `FollowRunFor` and `UnfollowRunFor`).
public protocol TimetableLookup: Sendable {
  /// Many runs in one call; those the timetable does not have are left out.
  func runs(_ runs: [RunReference]) async throws -> [TimetableRun]
  /// - Throws: ``BinarioDomain/ServiceError/notFound(_:)`` for a station the timetable does not have.
  func station(id: String) async throws -> TimetableStation
  /// - Throws: ``BinarioDomain/ServiceError/notFound(_:)`` for a run the timetable does not have.
  func run(_ run: RunReference) async throws -> TimetableRun
  /// Makes the change's user follow (or stop following) its run, between its stations.
  /// - Throws: ``BinarioDomain/ServiceError/notFound(_:)`` when the run is no longer in the timetable.
  func setFollowing(_ change: RunFollowChange) async throws
}

/// A route offer that applies to a journey (geo-offers' Trenord offers).
public struct RouteOfferMatch: Sendable, Hashable, Codable {
  public var offerID: String
  public var title: String
  public var discountPercent: Int

  public init(offerID: String, title: String, discountPercent: Int) {
    self.offerID = offerID
    self.title = title
    self.discountPercent = discountPercent
  }
}

/// What geo-offers is asked (its internal `FindRouteOffer`).
public protocol RouteOfferLookup: Sendable {
  /// The best offer active at `instant` for a journey from one station to another on `line`;
  /// `nil` when none applies or none can be asked for (a quote is never refused for it).
  func bestOffer(from: String, to: String, line: String, at instant: Date) async -> RouteOfferMatch?
}

/// No route offers: ticketing run without geo-offers.
public struct NoRouteOffers: RouteOfferLookup {
  public init() {}

  public func bestOffer(from: String, to: String, line: String, at instant: Date) async -> RouteOfferMatch? { nil }
}
