import BinarioEvents
import BinarioStorage
import GRDB

/// Geo-offers' database schema, one migration per shipped change (append, never edit).
///
/// Every place with a position has an R*Tree beside it (`<table>_box`, keyed by the row's
/// integer `seq`, each entry a point: `min = max`): a radius query asks the tree for the
/// circle's bounding boxes, then measures exact great-circle distances. The tree keeps 32-bit
/// floats rounded outwards, so it never misses a point; the exact test does the rest.
///
/// `station` is a copy of scheduling's stations. A `deal` belongs to a `shop` and carries its
/// shop's position (kept in step when the shop moves). `offered_deal` records which deal was
/// offered to whom when (the no-repeat period), `user_location` each user's last known
/// position only, `welcome` each ticket a welcome was sent for. Instants are REAL seconds since
/// 1970.
public enum GeoOffersMigrations {
  public static let all = DatabaseMigrations()
    .add("v1-geo-offers") { db in
      try db.execute(
        sql: """
          CREATE TABLE station (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL
          );
          CREATE VIRTUAL TABLE station_box USING rtree(seq, min_lat, max_lat, min_lon, max_lon);
          CREATE TABLE shop (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            description TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            station_id TEXT NOT NULL
          );
          CREATE INDEX shop_by_name ON shop(name, id);
          CREATE TABLE deal (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            shop_seq INTEGER NOT NULL REFERENCES shop(seq) ON DELETE CASCADE,
            description TEXT NOT NULL,
            discount_percent INTEGER NOT NULL,
            valid_from REAL NOT NULL,
            valid_until REAL NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL
          );
          CREATE INDEX deal_by_shop ON deal(shop_seq);
          CREATE VIRTUAL TABLE deal_box USING rtree(seq, min_lat, max_lat, min_lon, max_lon);
          CREATE TABLE place (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            description TEXT NOT NULL,
            category TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL
          );
          CREATE INDEX place_by_name ON place(name, id);
          CREATE VIRTUAL TABLE place_box USING rtree(seq, min_lat, max_lat, min_lon, max_lon);
          CREATE TABLE route_offer (
            id TEXT PRIMARY KEY NOT NULL,
            origin_station_id TEXT NOT NULL,
            destination_station_id TEXT NOT NULL,
            line TEXT NOT NULL,
            title TEXT NOT NULL,
            discount_percent INTEGER NOT NULL,
            conditions TEXT NOT NULL,
            valid_from REAL NOT NULL,
            valid_until REAL NOT NULL
          );
          CREATE INDEX route_offer_by_origin ON route_offer(origin_station_id, valid_until);
          CREATE TABLE offered_deal (
            user_id TEXT NOT NULL,
            deal_seq INTEGER NOT NULL,
            offered_at REAL NOT NULL,
            PRIMARY KEY (user_id, deal_seq)
          ) WITHOUT ROWID;
          CREATE INDEX offered_deal_by_time ON offered_deal(offered_at);
          CREATE TABLE user_location (
            user_id TEXT PRIMARY KEY NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            accuracy_metres REAL NOT NULL,
            reported_at REAL NOT NULL,
            received_at REAL NOT NULL
          );
          CREATE TABLE welcome (
            ticket_id TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL,
            station_id TEXT NOT NULL,
            sent_at REAL NOT NULL
          );
          -- A deal's index entry and offer records go with it (also when its shop is removed).
          CREATE TRIGGER deal_box_delete AFTER DELETE ON deal BEGIN
            DELETE FROM deal_box WHERE seq = old.seq;
            DELETE FROM offered_deal WHERE deal_seq = old.seq;
          END;
          CREATE TRIGGER place_box_delete AFTER DELETE ON place BEGIN
            DELETE FROM place_box WHERE seq = old.seq;
          END;
          CREATE TABLE demo_data (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            source TEXT NOT NULL,
            loaded_at REAL NOT NULL
          );
          """
      )
    }
    // What identity tells geo-offers (Shared/Events): its cursor.
    .add("v2-identity-events", EventSchema.createCursors)
}
