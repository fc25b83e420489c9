import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension GeoOffersStore {
  /// Inserts `shop` unless a shop with its id exists already (a keyed write sent again).
  public func insertShop(_ shop: Shop) async throws {
    try await pool.write { db in
      guard try !db.hasRow(in: "shop", id: shop.id) else { return }
      try Self.insertShop(db, shop)
    }
  }

  static func insertShop(_ db: Database, _ shop: Shop) throws {
    try db.executeCached(
      sql: "INSERT INTO shop (id, name, description, latitude, longitude, station_id) VALUES (?, ?, ?, ?, ?, ?)",
      arguments: [shop.id, shop.name, shop.description, shop.position.latitude, shop.position.longitude, shop.stationID]
    )
  }

  /// Replaces a shop's fields and moves its deals with it. Returns `false` when there is no such shop.
  public func updateShop(_ shop: Shop) async throws -> Bool {
    try await pool.write { db in
      guard let seq = try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM shop WHERE id = ?"), arguments: [shop.id]) else {
        return false
      }
      try db.execute(
        sql: "UPDATE shop SET name = ?, description = ?, latitude = ?, longitude = ?, station_id = ? WHERE seq = ?",
        arguments: [shop.name, shop.description, shop.position.latitude, shop.position.longitude, shop.stationID, seq]
      )
      try db.execute(
        sql: "UPDATE deal SET latitude = ?, longitude = ? WHERE shop_seq = ?",
        arguments: [shop.position.latitude, shop.position.longitude, seq]
      )
      for dealSeq in try Int64.fetchAll(db.cachedStatement(sql: "SELECT seq FROM deal WHERE shop_seq = ?"), arguments: [seq]) {
        try Self.index(db, box: "deal_box", seq: dealSeq, at: shop.position)
      }
      return true
    }
  }

  /// Removes a shop and its deals. Returns `false` when there is no such shop.
  public func deleteShop(id: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM shop WHERE id = ?", arguments: [id])
      return db.changesCount > 0
    }
  }

  /// Shops by name after `cursor`, at most `limit`.
  public func shops(after cursor: NamePageCursor?, limit: Int) async throws -> [Shop] {
    try await pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT id, name, description, latitude, longitude, station_id FROM shop
            WHERE (name, id) > (?, ?) ORDER BY name, id LIMIT ?
            """
        ),
        arguments: [cursor?.name ?? "", cursor?.id ?? "", limit]
      ).map(Self.shop)
    }
  }

  /// Adds a deal to its shop. Returns `nil` when there is no such shop; the deal with `id` as it
  /// is, when it exists already (a keyed write sent again).
  public func insertDeal(id: String, _ draft: DealDraft, validFrom: Date, validUntil: Date) async throws -> Deal? {
    try await pool.write { db in
      if try db.hasRow(in: "deal", id: id) { return try Self.deal(db, id: id) }
      return try Self.insertDeal(db, id: id, draft, validFrom: validFrom, validUntil: validUntil)
    }
  }

  static func insertDeal(_ db: Database, id: String, _ draft: DealDraft, validFrom: Date, validUntil: Date) throws -> Deal? {
    guard
      let shop = try Row.fetchOne(db.cachedStatement(sql: "SELECT seq, latitude, longitude FROM shop WHERE id = ?"), arguments: [draft.shopID])
    else { return nil }
    let position = GeoPoint(latitude: shop[1], longitude: shop[2])
    try db.executeCached(
      sql: """
        INSERT INTO deal (id, shop_seq, description, discount_percent, valid_from, valid_until, latitude, longitude)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        id, shop[0] as Int64, draft.description, draft.discountPercent, Self.instant(validFrom), Self.instant(validUntil),
        position.latitude, position.longitude,
      ]
    )
    try Self.index(db, box: "deal_box", seq: db.lastInsertedRowID, at: position)
    return try Self.deal(db, id: id)
  }

  /// Replaces a deal's description, discount and validity. Returns `nil` when there is no such deal.
  public func updateDeal(
    id: String,
    description: String,
    discountPercent: Int,
    validFrom: Date,
    validUntil: Date
  ) async throws
    -> Deal?
  {
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE deal SET description = ?, discount_percent = ?, valid_from = ?, valid_until = ? WHERE id = ?",
        arguments: [description, discountPercent, Self.instant(validFrom), Self.instant(validUntil), id]
      )
      guard db.changesCount > 0 else { return nil }
      return try Self.deal(db, id: id)
    }
  }

  public func deleteDeal(id: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM deal WHERE id = ?", arguments: [id])
      return db.changesCount > 0
    }
  }

  /// Deals (of one shop, or all), the newest first, after `cursor` (the
  /// last deal's `seq`), at most `limit`.
  public func deals(shopID: String?, afterSeq cursor: Int64?, limit: Int) async throws -> [(seq: Int64, deal: Deal)] {
    try await pool.read { db in
      var sql = "SELECT \(Self.dealColumns) FROM deal t JOIN shop s ON s.seq = t.shop_seq WHERE t.seq < ?"
      var arguments: StatementArguments = [cursor ?? Int64.max]
      if let shopID {
        sql += " AND s.id = ?"
        arguments += [shopID]
      }
      sql += " ORDER BY t.seq DESC LIMIT ?"
      arguments += [limit]
      return try Row.fetchAll(db, sql: sql, arguments: arguments).map {
        ($0[0], Self.deal($0, GeoPoint(latitude: $0[1], longitude: $0[2])))
      }
    }
  }

  /// Inserts `place` unless a place with its id exists already (a keyed write sent again).
  public func insertPlace(_ place: Place) async throws {
    try await pool.write { db in
      guard try !db.hasRow(in: "place", id: place.id) else { return }
      try Self.insertPlace(db, place)
    }
  }

  static func insertPlace(_ db: Database, _ place: Place) throws {
    try db.execute(
      sql: "INSERT INTO place (id, name, description, category, latitude, longitude) VALUES (?, ?, ?, ?, ?, ?)",
      arguments: [
        place.id, place.name, place.description, place.category.rawValue, place.position.latitude, place.position.longitude,
      ]
    )
    try Self.index(db, box: "place_box", seq: db.lastInsertedRowID, at: place.position)
  }

  public func updatePlace(_ place: Place) async throws -> Bool {
    try await pool.write { db in
      guard let seq = try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM place WHERE id = ?"), arguments: [place.id]) else {
        return false
      }
      try db.execute(
        sql: "UPDATE place SET name = ?, description = ?, category = ?, latitude = ?, longitude = ? WHERE seq = ?",
        arguments: [
          place.name, place.description, place.category.rawValue, place.position.latitude, place.position.longitude, seq,
        ]
      )
      try Self.index(db, box: "place_box", seq: seq, at: place.position)
      return true
    }
  }

  public func deletePlace(id: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM place WHERE id = ?", arguments: [id])
      return db.changesCount > 0
    }
  }

  /// Inserts `offer` unless an offer with its id exists already (a keyed write sent again).
  public func insertRouteOffer(_ offer: RouteOffer) async throws {
    try await pool.write { db in
      guard try !db.hasRow(in: "route_offer", id: offer.id) else { return }
      try Self.insertRouteOffer(db, offer)
    }
  }

  static func insertRouteOffer(_ db: Database, _ offer: RouteOffer) throws {
    try db.execute(
      sql: """
        INSERT INTO route_offer (id, origin_station_id, destination_station_id, line, title, discount_percent,
          conditions, valid_from, valid_until)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: Self.arguments(offer)
    )
  }

  public func updateRouteOffer(_ offer: RouteOffer) async throws -> Bool {
    try await pool.write { db in
      try db.execute(
        sql: """
          UPDATE route_offer SET origin_station_id = ?2, destination_station_id = ?3, line = ?4, title = ?5,
            discount_percent = ?6, conditions = ?7, valid_from = ?8, valid_until = ?9
          WHERE id = ?1
          """,
        arguments: Self.arguments(offer)
      )
      return db.changesCount > 0
    }
  }

  public func deleteRouteOffer(id: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM route_offer WHERE id = ?", arguments: [id])
      return db.changesCount > 0
    }
  }

  static func arguments(_ offer: RouteOffer) -> StatementArguments {
    [
      offer.id, offer.originStationID, offer.destinationStationID, offer.line, offer.title, offer.discountPercent,
      offer.conditions, instant(offer.validFrom), instant(offer.validUntil),
    ]
  }
}
