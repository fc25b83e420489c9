import BinarioDomain
import Foundation

/// The demo data file (`Services/GeoOffers/DemoData/offers.json`): shops with their deals,
/// places to visit and route offers, all valid from the day it is loaded for `validDays`.
struct GeoDemoData: Decodable {
  struct DemoShop: Decodable {
    var name: String
    var description: String
    var latitude: Double
    var longitude: Double
    var stationId: String
    var deals: [DemoDeal]
  }
  struct DemoDeal: Decodable {
    var description: String
    var discountPercent: Int
  }
  struct DemoPlace: Decodable {
    var name: String
    var description: String
    var category: String
    var latitude: Double
    var longitude: Double
  }
  struct DemoRouteOffer: Decodable {
    var origin: String
    var destination: String
    var line: String
    var title: String
    var discountPercent: Int
    var conditions: String
  }

  var validDays: Int
  var shops: [DemoShop]
  var places: [DemoPlace]
  var routeOffers: [DemoRouteOffer]
}

extension GeoOffersDomain {
  /// Loads the demo data (a JSON file's bytes) unless the service already has shops, places or
  /// route offers of its own (the demo data at first start), in one transaction.
  /// - Returns: Whether it loaded.
  @discardableResult
  public func loadDemoDataIfEmpty(_ data: Data, source: String) async throws -> Bool {
    guard try await !store.hasOwnData() else { return false }
    let demo: GeoDemoData
    do {
      demo = try JSONDecoder().decode(GeoDemoData.self, from: data)
    } catch {
      throw ServiceError.invalid("demo-data", "\(source) is not geo-offers demo data: \(error)")
    }
    let now = clock.now()
    let from = now.addingTimeInterval(-86_400)
    let until = now.addingTimeInterval(TimeInterval(demo.validDays) * 86_400)
    var shops: [Shop] = []
    var deals: [(id: String, draft: DealDraft, from: Date, until: Date)] = []
    for demoShop in demo.shops {
      let shop = Shop(
        id: Self.newID("sh"),
        name: demoShop.name,
        description: demoShop.description,
        position: GeoPoint(latitude: demoShop.latitude, longitude: demoShop.longitude),
        stationID: demoShop.stationId
      )
      shops.append(shop)
      for deal in demoShop.deals {
        let draft = DealDraft(
          shopID: shop.id,
          description: deal.description,
          discountPercent: deal.discountPercent,
          validFrom: from,
          validUntil: until
        )
        deals.append((Self.newID("dl"), draft, from, until))
      }
    }
    let places = demo.places.map {
      Place(
        id: Self.newID("pl"),
        name: $0.name,
        description: $0.description,
        category: Place.Category(rawValue: $0.category) ?? .other,
        position: GeoPoint(latitude: $0.latitude, longitude: $0.longitude)
      )
    }
    let offers = demo.routeOffers.map {
      RouteOffer(
        id: Self.newID("ro"),
        originStationID: $0.origin,
        destinationStationID: $0.destination,
        line: $0.line,
        title: $0.title,
        discountPercent: $0.discountPercent,
        conditions: $0.conditions,
        validFrom: from,
        validUntil: until
      )
    }
    try await store.insertAll(shops: shops, deals: deals, places: places, routeOffers: offers, demoSource: source, at: now)
    return true
  }
}
