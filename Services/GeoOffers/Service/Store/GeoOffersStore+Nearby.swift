import BinarioDomain
import BinarioEvents
import BinarioStorage
import Foundation
import GRDB

extension GeoOffersStore {
  /// Replaces the copy of scheduling's stations with `stations`, unless it already holds
  /// exactly these; with an event `position`, the cursor moves in the same transaction.
  /// Returns whether it changed.
  @discardableResult
  public func replaceStations(_ stations: [GeoStation], position: EventPosition? = nil, at now: Date = Date()) async throws -> Bool {
    try await pool.write { db in
      if let position { try db.advanceEventCursor(to: position, at: now) }
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

  static func shop(_ row: Row) -> Shop {
    Shop(
      id: row[0],
      name: row[1],
      description: row[2],
      position: GeoPoint(latitude: row[3], longitude: row[4]),
      stationID: row[5]
    )
  }

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

  static func deal(_ db: Database, id: String) throws -> Deal? {
    try Row.fetchOne(
      db.cachedStatement(sql: "SELECT \(dealColumns) FROM deal t JOIN shop s ON s.seq = t.shop_seq WHERE t.id = ?"),
      arguments: [id]
    ).map { deal($0, GeoPoint(latitude: $0[1], longitude: $0[2])) }
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
}
