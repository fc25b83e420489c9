import BinarioDomain
import Foundation
import Logging

/// How far geo-offers looks, and for how long it remembers.
public struct GeoOffersSettings: Sendable {
  /// Deals within this distance of a reported position are offered.
  public var dealRadiusMetres: Double = 300
  /// A deal offered to someone is not offered to them again within this period.
  public var noRepeatPeriod: TimeInterval = 24 * 3600
  /// A reported position this close to a station (and no vaguer than this) is at the station.
  public var stationRadiusMetres: Double = 200
  /// Places to visit within this distance of a reported position are suggested.
  public var placesRadiusMetres: Double = 1_000
  /// A ticket's train leaving within this long is welcomed.
  public var welcomeWindow: TimeInterval = 3600
  /// The zone a welcome's clock times are in.
  public var zone: TimeZone = TimeZone(identifier: "Europe/Rome")!

  public init() {}
}

/// Geo-offers' logic: stations, shops and their deals, route offers and places to visit, found
/// by distance; location reports with their no-repeat bookkeeping and welcomes at the station.
/// Pure Swift: ticketing and scheduling are reached through the ports in
/// `GeoOffersPorts.swift`, the database through ``GeoOffersStore``.
///
/// The operations live in extensions: `+Nearby` (public queries), `+LocationReports`,
/// `+Admin`, `+DemoData`.
public final class GeoOffersDomain: Sendable {
  let store: GeoOffersStore
  let clock: any DomainClock
  let tickets: any TicketLookup
  let timetable: any LiveTimetable
  let notifier: any NotificationSender
  public let settings: GeoOffersSettings
  /// Where a lookup or notification that failed without failing the report is told.
  let logger: Logger

  /// The most deals one report offers (the nearest).
  public static let dealsPerReport = 20
  /// The most results of a public radius query.
  public static let nearbyLimit = 100
  /// The widest radius a query may ask for.
  public static let maximumRadiusMetres = 50_000.0

  public init(
    store: GeoOffersStore,
    clock: any DomainClock,
    tickets: any TicketLookup,
    timetable: any LiveTimetable,
    notifier: any NotificationSender,
    settings: GeoOffersSettings = GeoOffersSettings(),
    logger: Logger = Logger(label: "geo-offers")
  ) {
    self.store = store
    self.clock = clock
    self.tickets = tickets
    self.timetable = timetable
    self.notifier = notifier
    self.settings = settings
    self.logger = logger
  }

  /// Replaces the copy of scheduling's stations. Returns whether it changed.
  @discardableResult
  public func syncStations(_ stations: [GeoStation]) async throws -> Bool {
    try await store.replaceStations(stations)
  }

  /// Scheduling imported a timetable (its `TimetableReplaced` event): the copy of its stations
  /// becomes the new timetable's, with the event's position. Returns whether it changed.
  @discardableResult
  public func timetableReplaced(position: EventPosition) async throws -> Bool {
    try await store.replaceStations(try await timetable.stations(), position: position, at: clock.now())
  }

  /// Fills an empty copy of scheduling's stations (a new database, before any event of an
  /// import is at hand). Returns how many stations the copy holds.
  @discardableResult
  public func fillStationsIfEmpty() async throws -> Int {
    let held = try await store.stations().count
    guard held == 0 else { return held }
    let stations = try await timetable.stations()
    try await store.replaceStations(stations)
    return stations.count
  }

  static func newID(_ prefix: String) -> String {
    prefix + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
  }
}

/// A station near a point, with the way there on foot.
public struct NearestStation: Sendable, Hashable {
  public var station: GeoStation
  public var distanceMetres: Double
  /// At 5 km/h, rounded up.
  public var walkingMinutes: Int
  /// Google Maps' walking directions from the point to the station.
  public var directionsURL: String

  init(_ nearby: Nearby<GeoStation>, from origin: GeoPoint) {
    self.station = nearby.item
    self.distanceMetres = nearby.distanceMetres
    self.walkingMinutes = Int((nearby.distanceMetres / (5_000.0 / 60)).rounded(.up))
    let destination = nearby.item.position
    self.directionsURL =
      "https://www.google.com/maps/dir/?api=1&origin=\(Self.coordinates(origin))"
      + "&destination=\(Self.coordinates(destination))&travelmode=walking"
  }

  /// `latitude,longitude` with 6 decimals (about 10 cm), URL-safe as it stands but for the comma,
  /// which Google's URLs take encoded.
  static func coordinates(_ point: GeoPoint) -> String {
    String(format: "%.6f%%2C%.6f", point.latitude, point.longitude)
  }
}
