import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

/// Where a listing by name goes on: the last row's name and id.
public struct NamePageCursor: Sendable, Hashable {
  public var name: String
  public var id: String

  public init(name: String, id: String) {
    self.name = name
    self.id = id
  }
}

extension GeoOffersStore {
  // MARK: - Stations

  /// Replaces the copy of scheduling's stations with `stations`, unless it already holds
  /// exactly these. Returns whether it changed.
  @discardableResult
  public func replaceStations(_ stations: [GeoStation]) async throws -> Bool {
    try await pool.write { db in
      let current = try Row.fetchAll(db.cachedStatement(sql: "SELECT id, name, latitude, longitude FROM station")).map {
        GeoStation(id: $0[0], name: $0[1], position: GeoPoint(latitude: $0[2], longitude: $0[3]))
      }
      guard Set(current) != Set(stations) else { return false }
      try db.execute(sql: "DELETE FROM station; DELETE FROM station_box;")
      for station in stations {
        try db.execute(
          sql: "INSERT INTO station (id, name, latitude, longitude) VALUES (?, ?, ?, ?)",
          arguments: [station.id, station.name, station.position.latitude, station.position.longitude]
        )
        try Self.index(db, box: "station_box", seq: db.lastInsertedRowID, at: station.position)
      }
      return true
    }
  }

  public func stations() async throws -> [GeoStation] {
    try await pool.read { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT id, name, latitude, longitude FROM station ORDER BY name, id")).map(Self.station)
    }
  }

  public func station(id: String) async throws -> GeoStation? {
    try await pool.read { db in
      try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name, latitude, longitude FROM station WHERE id = ?"), arguments: [id])
        .map(Self.station)
    }
  }

  /// The `count` stations nearest `point`, nearest first: the tree is asked for ever wider
  /// circles until one holds `count` stations (or the whole Earth).
  public func nearestStations(to point: GeoPoint, count: Int) async throws -> [Nearby<GeoStation>] {
    try await pool.read { db in
      let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM station")) ?? 0
      let wanted = min(count, total)
      guard wanted > 0 else { return [] }
      var radius = 2_000.0
      while true {
        let found = try Self.within(
          db,
          point: point,
          radius: radius,
          limit: wanted,
          select: "SELECT t.seq, t.latitude, t.longitude, t.id, t.name FROM station_box b JOIN station t ON t.seq = b.seq"
        ) { row, position in GeoStation(id: row[3], name: row[4], position: position) }
        if found.count >= wanted || radius >= GeoPoint.maximumDistanceMetres { return found }
        radius = min(radius * 4, GeoPoint.maximumDistanceMetres)
      }
    }
  }

  static func station(_ row: Row) -> GeoStation {
    GeoStation(id: row[0], name: row[1], position: GeoPoint(latitude: row[2], longitude: row[3]))
  }

  // MARK: - Shops

  public func insertShop(_ shop: Shop) async throws {
    try await pool.write { db in try Self.insertShop(db, shop) }
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

  static func shop(_ row: Row) -> Shop {
    Shop(
      id: row[0],
      name: row[1],
      description: row[2],
      position: GeoPoint(latitude: row[3], longitude: row[4]),
      stationID: row[5]
    )
  }

  // MARK: - Deals

  static let dealColumns = """
    t.seq, t.latitude, t.longitude, t.id, s.id, s.name, t.description, t.discount_percent, s.station_id,
    t.valid_from, t.valid_until
    """

  static func deal(_ row: Row, _ position: GeoPoint) -> Deal {
    Deal(
      id: row[3],
      shopID: row[4],
      shopName: row[5],
      description: row[6],
      discountPercent: row[7],
      position: position,
      stationID: row[8],
      validFrom: date(row[9]),
      validUntil: date(row[10])
    )
  }

  /// Adds a deal to its shop. Returns `nil` when there is no such shop.
  public func insertDeal(id: String, _ draft: DealDraft, validFrom: Date, validUntil: Date) async throws -> Deal? {
    try await pool.write { db in try Self.insertDeal(db, id: id, draft, validFrom: validFrom, validUntil: validUntil) }
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

  static func deal(_ db: Database, id: String) throws -> Deal? {
    try Row.fetchOne(
      db.cachedStatement(sql: "SELECT \(dealColumns) FROM deal t JOIN shop s ON s.seq = t.shop_seq WHERE t.id = ?"),
      arguments: [id]
    ).map { deal($0, GeoPoint(latitude: $0[1], longitude: $0[2])) }
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

  static let activeDealsSelect =
    "SELECT \(dealColumns) FROM deal_box b JOIN deal t ON t.seq = b.seq JOIN shop s ON s.seq = t.shop_seq"
  static let activeDealsFilter = "AND t.valid_from <= ? AND t.valid_until > ?"

  /// Deals active at `instant` within `radius` of `point`, nearest first, at most `limit`.
  public func activeDeals(
    within radius: Double,
    of point: GeoPoint,
    at instant: Date,
    limit: Int
  ) async throws
    -> [Nearby<Deal>]
  {
    try await pool.read { db in
      try Self.within(
        db,
        point: point,
        radius: radius,
        limit: limit,
        select: Self.activeDealsSelect,
        filter: Self.activeDealsFilter,
        arguments: [Self.instant(instant), Self.instant(instant)],
        make: Self.deal
      )
    }
  }

  // MARK: - Places

  public func insertPlace(_ place: Place) async throws {
    try await pool.write { db in try Self.insertPlace(db, place) }
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

  public func places(after cursor: NamePageCursor?, limit: Int) async throws -> [Place] {
    try await pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT seq, latitude, longitude, id, name, description, category FROM place
            WHERE (name, id) > (?, ?) ORDER BY name, id LIMIT ?
            """
        ),
        arguments: [cursor?.name ?? "", cursor?.id ?? "", limit]
      ).map { Self.place($0, GeoPoint(latitude: $0[1], longitude: $0[2])) }
    }
  }

  /// Places within `radius` of `point` (of `category` only, when given), nearest first.
  public func places(
    within radius: Double,
    of point: GeoPoint,
    category: Place.Category?,
    limit: Int
  ) async throws
    -> [Nearby<Place>]
  {
    try await pool.read { db in
      try Self.within(
        db,
        point: point,
        radius: radius,
        limit: limit,
        select: "SELECT t.seq, t.latitude, t.longitude, t.id, t.name, t.description, t.category FROM place_box b JOIN place t ON t.seq = b.seq",
        filter: category == nil ? "" : "AND t.category = ?",
        arguments: category.map { [$0.rawValue] } ?? [],
        make: Self.place
      )
    }
  }

  static func place(_ row: Row, _ position: GeoPoint) -> Place {
    Place(id: row[3], name: row[4], description: row[5], category: Place.Category(rawValue: row[6]) ?? .other, position: position)
  }

  // MARK: - Route offers

  public func insertRouteOffer(_ offer: RouteOffer) async throws {
    try await pool.write { db in try Self.insertRouteOffer(db, offer) }
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

  /// Route offers from `stationID` (or every station), active at `instant` (or all), with their
  /// stations' names; by origin, then largest discount.
  public func routeOffers(from stationID: String?, activeAt instant: Date?) async throws -> [RouteOffer] {
    try await pool.read { db in try Self.routeOffers(db, from: stationID, activeAt: instant) }
  }

  static func routeOffers(_ db: Database, from stationID: String?, activeAt instant: Date?) throws -> [RouteOffer] {
    var sql = """
      SELECT o.id, o.origin_station_id, COALESCE(a.name, ''), o.destination_station_id, COALESCE(b.name, ''), o.line,
        o.title, o.discount_percent, o.conditions, o.valid_from, o.valid_until
      FROM route_offer o LEFT JOIN station a ON a.id = o.origin_station_id LEFT JOIN station b ON b.id = o.destination_station_id
      WHERE 1
      """
    var arguments: StatementArguments = []
    if let stationID {
      sql += " AND o.origin_station_id = ?"
      arguments += [stationID]
    }
    if let instant {
      sql += " AND o.valid_from <= ? AND o.valid_until > ?"
      arguments += [Self.instant(instant), Self.instant(instant)]
    }
    sql += " ORDER BY o.origin_station_id, o.discount_percent DESC, o.id"
    return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
      RouteOffer(
        id: row[0],
        originStationID: row[1],
        originStationName: row[2],
        destinationStationID: row[3],
        destinationStationName: row[4],
        line: row[5],
        title: row[6],
        discountPercent: row[7],
        conditions: row[8],
        validFrom: date(row[9]),
        validUntil: date(row[10])
      )
    }
  }

  static func arguments(_ offer: RouteOffer) -> StatementArguments {
    [
      offer.id, offer.originStationID, offer.destinationStationID, offer.line, offer.title, offer.discountPercent,
      offer.conditions, instant(offer.validFrom), instant(offer.validUntil),
    ]
  }

  // MARK: - Demo data

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
