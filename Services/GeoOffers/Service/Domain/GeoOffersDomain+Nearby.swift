import BinarioDomain
import Foundation

extension GeoOffersDomain {
  /// The `count` stations nearest a point (0: 3; at most 20), nearest first.
  public func nearestStations(latitude: Double, longitude: Double, count: Int) async throws -> [NearestStation] {
    var check = InputValidation()
    let point = check.position(latitude: latitude, longitude: longitude)
    if !(0 ... 20).contains(count) { check.fail("count", "\(count) stations: ask for 1 to 20 (0: 3)") }
    try check.finish()
    return try await store.nearestStations(to: point, count: count == 0 ? 3 : count).map { NearestStation($0, from: point) }
  }

  /// The deals active now within `radius` metres of a point (0: the deal radius), nearest first.
  public func nearbyDeals(latitude: Double, longitude: Double, radius: Double) async throws -> [Nearby<Deal>] {
    var check = InputValidation()
    let point = check.position(latitude: latitude, longitude: longitude)
    let radius = check.radius(
      radius,
      field: "radius_metres",
      default: settings.dealRadiusMetres,
      maximum: Self.maximumRadiusMetres
    )
    try check.finish()
    return try await store.activeDeals(within: radius, of: point, at: clock.now(), limit: Self.nearbyLimit)
  }

  /// Places to visit within `radius` metres of a point (0: the places radius), nearest first.
  public func nearbyPlaces(
    latitude: Double,
    longitude: Double,
    radius: Double,
    category: Place.Category?
  ) async throws
    -> [Nearby<Place>]
  {
    var check = InputValidation()
    let point = check.position(latitude: latitude, longitude: longitude)
    let radius = check.radius(
      radius,
      field: "radius_metres",
      default: settings.placesRadiusMetres,
      maximum: Self.maximumRadiusMetres
    )
    try check.finish()
    return try await store.places(within: radius, of: point, category: category, limit: Self.nearbyLimit)
  }

  /// Route offers from a station (empty: every station), active now unless `includeInactive`.
  public func routeOffers(stationID: String, includeInactive: Bool) async throws -> [RouteOffer] {
    try await store.routeOffers(from: stationID.isEmpty ? nil : stationID, activeAt: includeInactive ? nil : clock.now())
  }

  /// The largest-discount route offer active at `instant` (now when `nil`) covering a journey
  /// from one station to another on `line`; `nil` when none does.
  public func bestRouteOffer(from: String, to: String, line: String, at instant: Date?) async throws -> RouteOffer? {
    var check = InputValidation()
    check.requiredText(from, field: "from_station_id", what: "the departure station")
    check.requiredText(to, field: "to_station_id", what: "the destination station")
    try check.finish()
    // Offers come largest discount first.
    return try await store.routeOffers(from: from, activeAt: instant ?? clock.now()).first { $0.covers(from: from, to: to, line: line) }
  }
}
