import BinarioDomain
import BinarioStorage
import BinarioTestSupport
import Foundation
import Synchronization

@testable import GeoOffersService

/// A user's station tickets as ticketing would answer, set by hand.
final class FakeTickets: TicketLookup {
  let held = Mutex<[String: [DepartingTicket]]>([:])
  let calls = Atomic<Int>(0)

  func departingTickets(userID: String, stationID: String, in window: Range<Date>) async throws -> [DepartingTicket] {
    calls.add(1, ordering: .relaxed)
    return held.withLock { $0[userID] ?? [] }.filter { $0.fromStationID == stationID && window.contains($0.scheduledDeparture) }
  }
}

/// Live departures as scheduling would answer, set by hand.
final class FakeLiveTimetable: LiveTimetable {
  let departures = Mutex<[RunReference: LiveDeparture]>([:])

  let timetableStations = Mutex<[GeoStation]>([])

  func departure(of run: RunReference, from stationID: String) async throws -> LiveDeparture? {
    departures.withLock { $0[run] }.flatMap { $0.stationID == stationID ? $0 : nil }
  }

  func stations() async throws -> [GeoStation] {
    timetableStations.withLock { $0 }
  }
}

/// Geo-offers' domain on a temporary database, a manual clock and fake peers, with the demo
/// network's Milan stations.
struct TestGeoOffers {
  let database: TemporaryDatabase
  let store: GeoOffersStore
  let clock: ManualClock
  let tickets = FakeTickets()
  let timetable = FakeLiveTimetable()
  let notifier = RecordingNotificationSender()
  let domain: GeoOffersDomain

  static let centrale = GeoStation(id: "MI_CENTRALE", name: "Milano Centrale", position: GeoPoint(latitude: 45.48606, longitude: 9.20448))
  static let garibaldi = GeoStation(id: "MI_GARIBALDI", name: "Milano Porta Garibaldi", position: GeoPoint(latitude: 45.48456, longitude: 9.18735))
  static let cadorna = GeoStation(id: "MI_CADORNA", name: "Milano Cadorna", position: GeoPoint(latitude: 45.46802, longitude: 9.17550))
  static let como = GeoStation(id: "COMO_SG", name: "Como San Giovanni", position: GeoPoint(latitude: 45.80880, longitude: 9.07260))

  init(settings: GeoOffersSettings = GeoOffersSettings()) async throws {
    database = try TemporaryDatabase(migrations: GeoOffersMigrations.all)
    store = GeoOffersStore(pool: database.pool)
    clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    domain = GeoOffersDomain(
      store: store,
      clock: clock,
      tickets: tickets,
      timetable: timetable,
      notifier: notifier,
      settings: settings
    )
    try await domain.syncStations([Self.centrale, Self.garibaldi, Self.cadorna, Self.como])
  }

  /// A shop at `position` with one deal active for a month from now.
  @discardableResult
  func shopWithDeal(_ name: String, at position: GeoPoint, discount: Int = 20) async throws -> Deal {
    let shop = try await domain.createShop(Shop(id: "", name: name, description: "", position: position, stationID: ""))
    return try await domain.createDeal(
      DealDraft(shopID: shop.id, description: "\(discount)% off", discountPercent: discount, validFrom: nil, validUntil: nil)
    )
  }
}

/// A point `metres` north and `east` metres east of `point` (flat-Earth: for short hops).
func offset(_ point: GeoPoint, north: Double, east: Double = 0) -> GeoPoint {
  let metresPerDegree = GeoPoint.earthRadiusMetres * Double.pi / 180
  return GeoPoint(
    latitude: point.latitude + north / metresPerDegree,
    longitude: point.longitude + east / (metresPerDegree * cos(point.latitude * Double.pi / 180))
  )
}
