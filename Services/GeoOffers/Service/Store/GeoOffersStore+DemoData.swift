import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension GeoOffersStore {
  /// Whether demo data (or any shop, place or route offer) was ever loaded.
  public func hasOwnData() async throws -> Bool {
    try await pool.read { db in
      try Bool.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT EXISTS (SELECT 1 FROM demo_data) OR EXISTS (SELECT 1 FROM shop) OR EXISTS (SELECT 1 FROM place)
              OR EXISTS (SELECT 1 FROM route_offer)
            """
        )
      ) ?? false
    }
  }

  /// Adds shops, their deals, places and route offers in one transaction (the demo data, or a
  /// bulk import); with `demoSource`, also records that the demo data was loaded from it.
  public func insertAll(
    shops: [Shop],
    deals: [(id: String, draft: DealDraft, from: Date, until: Date)],
    places: [Place] = [],
    routeOffers: [RouteOffer] = [],
    demoSource: String? = nil,
    at instant: Date
  ) async throws {
    try await pool.write { db in
      for shop in shops { try Self.insertShop(db, shop) }
      for deal in deals { _ = try Self.insertDeal(db, id: deal.id, deal.draft, validFrom: deal.from, validUntil: deal.until) }
      for place in places { try Self.insertPlace(db, place) }
      for offer in routeOffers { try Self.insertRouteOffer(db, offer) }
      if let demoSource {
        try db.execute(
          sql: "INSERT OR REPLACE INTO demo_data (id, source, loaded_at) VALUES (1, ?, ?)",
          arguments: [demoSource, Self.instant(instant)]
        )
      }
    }
  }
}
