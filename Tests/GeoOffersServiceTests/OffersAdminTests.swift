import BinarioDomain
import Foundation
import Testing

@testable import GeoOffersService

@Suite("Shops, deals, places and route offers")
struct OffersAdminTests {
  @Test("route offers: by station, by line, or every route; the largest discount wins")
  func routeOffers() async throws {
    let test = try await TestGeoOffers()
    func offer(_ title: String, destination: String = "", line: String = "", discount: Int) async throws -> RouteOffer {
      try await test.domain.createRouteOffer(
        RouteOffer(
          id: "",
          originStationID: "MI_GARIBALDI",
          destinationStationID: destination,
          line: line,
          title: title,
          discountPercent: discount,
          conditions: "",
          validFrom: test.clock.now(),
          validUntil: test.clock.now().addingTimeInterval(86_400)
        )
      )
    }
    let any = try await offer("Any route", discount: 5)
    let lake = try await offer("Lake Como", line: "RE80", discount: 15)
    let como = try await offer("To Como", destination: "COMO_SG", discount: 10)
    #expect(como.originStationName == "Milano Porta Garibaldi" && como.destinationStationName == "Como San Giovanni")
    #expect(try await test.domain.bestRouteOffer(from: "MI_GARIBALDI", to: "COMO_SG", line: "RE80", at: nil)?.id == lake.id)
    #expect(try await test.domain.bestRouteOffer(from: "MI_GARIBALDI", to: "COMO_SG", line: "S5", at: nil)?.id == como.id)
    #expect(try await test.domain.bestRouteOffer(from: "MI_GARIBALDI", to: "MI_CADORNA", line: "S5", at: nil)?.id == any.id)
    #expect(try await test.domain.bestRouteOffer(from: "MI_CENTRALE", to: "COMO_SG", line: "RE80", at: nil) == nil)
    #expect(
      try await test.domain.bestRouteOffer(from: "MI_GARIBALDI", to: "COMO_SG", line: "RE80", at: test.clock.now().addingTimeInterval(2 * 86_400))
        == nil
    )
    #expect(try await test.domain.routeOffers(stationID: "MI_GARIBALDI", includeInactive: false).map(\.id) == [lake.id, como.id, any.id])

    let unknown = await #expect(throws: ServiceError.self) {
      _ = try await test.domain.createRouteOffer(
        RouteOffer(
          id: "",
          originStationID: "NOWHERE",
          destinationStationID: "",
          line: "",
          title: "x",
          discountPercent: 0,
          conditions: "",
          validFrom: test.clock.now(),
          validUntil: test.clock.now()
        )
      )
    }
    guard case .invalid(let problems) = unknown else {
      Issue.record("expected invalid")
      return
    }
    #expect(Set(problems.map(\.field)) == ["offer.origin_station_id", "offer.discount_percent", "offer.valid_until"])
  }

  @Test("a create sent again with its idempotency key answers what the first made, and makes nothing")
  func keyedCreates() async throws {
    let test = try await TestGeoOffers()
    let key = try IdempotencyKey(caller: "admin-1", key: "7b0e")
    let draft = Shop(id: "", name: "Bar Centrale", description: "", position: GeoPoint(latitude: 45.4862, longitude: 9.2050), stationID: "")
    let shop = try await test.domain.createShop(draft, key: key)
    #expect(try await test.domain.createShop(draft, key: key).id == shop.id)
    // Another admin's same key is another write.
    let other = try await test.domain.createShop(draft, key: try IdempotencyKey(caller: "admin-2", key: "7b0e"))
    #expect(other.id != shop.id)
    #expect(try await test.domain.shops(pageSize: 10, pageToken: "").items.count == 2)

    let dealDraft = DealDraft(shopID: shop.id, description: "Coffee", discountPercent: 20, validFrom: nil, validUntil: nil)
    let deal = try await test.domain.createDeal(dealDraft, key: key)
    #expect(try await test.domain.createDeal(dealDraft, key: key) == deal)
    #expect(try await test.domain.deals(shopID: shop.id, pageSize: 10, pageToken: "").items.map(\.id) == [deal.id])

    let placeDraft = Place(id: "", name: "Duomo", description: "", category: .monument, position: GeoPoint(latitude: 45.4641, longitude: 9.1919))
    let place = try await test.domain.createPlace(placeDraft, key: key)
    #expect(try await test.domain.createPlace(placeDraft, key: key).id == place.id)
    #expect(try await test.domain.places(pageSize: 10, pageToken: "").items.count == 1)

    let offerDraft = RouteOffer(
      id: "",
      originStationID: "MI_GARIBALDI",
      destinationStationID: "COMO_SG",
      line: "",
      title: "To Como",
      discountPercent: 10,
      conditions: "",
      validFrom: test.clock.now(),
      validUntil: test.clock.now().addingTimeInterval(86_400)
    )
    let offer = try await test.domain.createRouteOffer(offerDraft, key: key)
    #expect(try await test.domain.createRouteOffer(offerDraft, key: key) == offer)
    // Without a key, each create is a new one.
    #expect(try await test.domain.createPlace(placeDraft).id != place.id)
  }

  @Test("a shop, deal or place with bad fields names each")
  func validation() async throws {
    let test = try await TestGeoOffers()
    let shop = await #expect(throws: ServiceError.self) {
      _ = try await test.domain.createShop(
        Shop(id: "", name: " ", description: "", position: GeoPoint(latitude: -91, longitude: 181), stationID: "NOPE")
      )
    }
    guard case .invalid(let problems) = shop else {
      Issue.record("expected invalid")
      return
    }
    #expect(problems.map(\.field) == ["shop.name", "shop.latitude", "shop.longitude", "shop.station_id"])
    let deal = await #expect(throws: ServiceError.self) {
      _ = try await test.domain.createDeal(DealDraft(shopID: "sh_none", description: "x", discountPercent: 20, validFrom: nil, validUntil: nil))
    }
    #expect(deal == .invalid("deal.shop_id", "there is no shop sh_none"))
    await #expect(throws: ServiceError.notFound("there is no place pl_none")) { try await test.domain.deletePlace(id: "pl_none") }
  }

  @Test("listings page by name")
  func paging() async throws {
    let test = try await TestGeoOffers()
    for name in ["Duomo", "Brera", "Castello", "Navigli", "Arco"] {
      _ = try await test.domain.createPlace(
        Place(id: "", name: name, description: "", category: .monument, position: GeoPoint(latitude: 45.46, longitude: 9.19))
      )
    }
    var names: [String] = []
    var token = ""
    repeat {
      let page = try await test.domain.places(pageSize: 2, pageToken: token)
      names += page.items.map(\.name)
      token = page.nextPageToken
    } while !token.isEmpty
    #expect(names == ["Arco", "Brera", "Castello", "Duomo", "Navigli"])
  }

  @Test("demo data loads once, while the service has none of its own")
  func demoData() async throws {
    let test = try await TestGeoOffers()
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Services/GeoOffers/DemoData/offers.json")
    let data = try Data(contentsOf: file)
    #expect(try await test.domain.loadDemoDataIfEmpty(data, source: "offers.json"))
    #expect(try await !test.domain.loadDemoDataIfEmpty(data, source: "offers.json"))
    let centrale = TestGeoOffers.centrale.position
    let deals = try await test.domain.nearbyDeals(latitude: centrale.latitude, longitude: centrale.longitude, radius: 0)
    #expect(deals.count == 3 && deals.allSatisfy { $0.distanceMetres <= 300 })
    let places = try await test.domain.nearbyPlaces(latitude: 45.4642, longitude: 9.1900, radius: 500, category: nil)
    #expect(places.first?.item.name == "Duomo di Milano")
    #expect(try await test.domain.bestRouteOffer(from: "MI_CENTRALE", to: "BERGAMO", line: "R4", at: nil)?.discountPercent == 20)
  }
}
