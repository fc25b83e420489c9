import BinarioEvents
import BinarioStorage
import GRDB

/// Telemetry's database schema, one migration per shipped change (append, never edit).
///
/// A `reading` is keyed by its device's `seq` and its time in milliseconds (`WITHOUT ROWID`: the
/// key is the row's place, so a device's readings lie together in time order, and a resend finds
/// the stored reading in one lookup). Each measure is a nullable column; a stored reading is
/// never updated. Positions are degrees; instants milliseconds since 1970. A device holds the
/// SHA-256 of its upload token, never the token. A device is its owner's, or its campaign's
/// members' to see; a public campaign's devices are everyone's. `reference_sensor` and
/// `reference_measurement` are ARPA Lombardia's stations and values as last imported (the
/// provider may correct a value: an import replaces it).
public enum TelemetryMigrations {
  public static let all = DatabaseMigrations()
    .add("v1-telemetry") { db in
      try db.execute(
        sql: """
          CREATE TABLE campaign (
            id TEXT PRIMARY KEY NOT NULL,
            owner_user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            public INTEGER NOT NULL,
            created_at REAL NOT NULL
          );
          CREATE TABLE campaign_member (
            campaign_id TEXT NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,
            user_id TEXT NOT NULL,
            PRIMARY KEY (campaign_id, user_id)
          ) WITHOUT ROWID;
          CREATE INDEX campaign_member_by_user ON campaign_member(user_id);
          CREATE TABLE device (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            owner_user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            campaign_id TEXT REFERENCES campaign(id) ON DELETE SET NULL,
            -- SHA-256 of the device token (never the token); NULL once revoked.
            token_hash BLOB UNIQUE,
            token_issued_at REAL,
            created_at REAL NOT NULL
          );
          CREATE INDEX device_by_owner ON device(owner_user_id, name);
          CREATE INDEX device_by_campaign ON device(campaign_id);
          CREATE TABLE reading (
            device_seq INTEGER NOT NULL REFERENCES device(seq) ON DELETE CASCADE,
            time_ms INTEGER NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            altitude REAL,
            temperature REAL,
            humidity REAL,
            pressure REAL,
            altitude_measured REAL,
            tvoc REAL,
            eco2 REAL,
            pm0_5 REAL,
            pm1 REAL,
            pm2_5 REAL,
            pm4 REAL,
            pm10 REAL,
            PRIMARY KEY (device_seq, time_ms)
          ) WITHOUT ROWID;
          CREATE TABLE reference_sensor (
            sensor_id TEXT PRIMARY KEY NOT NULL,
            type_name TEXT NOT NULL,
            unit TEXT NOT NULL,
            station_id TEXT NOT NULL,
            station_name TEXT NOT NULL,
            elevation REAL,
            province TEXT NOT NULL,
            municipality TEXT NOT NULL,
            historical INTEGER NOT NULL,
            start_date REAL,
            stop_date REAL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            network TEXT NOT NULL,
            measure TEXT
          );
          CREATE INDEX reference_sensor_by_position ON reference_sensor(latitude, longitude);
          CREATE TABLE reference_fetch (
            source TEXT PRIMARY KEY NOT NULL,
            newest_ms INTEGER,
            last_success_at REAL,
            last_failure_at REAL,
            last_error TEXT
          );
          CREATE TABLE reference_measurement (
            sensor_id TEXT NOT NULL,
            time_ms INTEGER NOT NULL,
            value REAL NOT NULL,
            PRIMARY KEY (sensor_id, time_ms)
          ) WITHOUT ROWID;
          """
      )
    }
    // The portal sources an admin manages through the API (beside those configured in the
    // service's settings), and how many fetches of a source failed in a row (its backoff, kept
    // across restarts).
    .add("v2-reference-sources") { db in
      try db.execute(
        sql: """
          CREATE TABLE reference_source (
            name TEXT PRIMARY KEY NOT NULL,
            url TEXT NOT NULL,
            kind TEXT NOT NULL,
            network TEXT NOT NULL,
            saved_at REAL NOT NULL
          );
          ALTER TABLE reference_fetch ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;
          """
      )
    }
    // What identity tells telemetry (Shared/Events): its cursor, and the owners whose accounts
    // an admin disabled (their boards' tokens are refused until the account is enabled again).
    .add("v3-telemetry-account-events") { db in
      try EventSchema.createCursors(db)
      try db.execute(
        sql: """
          CREATE TABLE disabled_account (
            user_id TEXT PRIMARY KEY NOT NULL,
            disabled_at REAL NOT NULL
          );
          """
      )
    }
    // A reading taken without a GPS fix is kept without a position (NULL latitude and longitude)
    // rather than at 0, 0. SQLite cannot drop a NOT NULL: the table is rebuilt, rows copied as
    // they are.
    .add("v4-reading-without-position") { db in
      try db.execute(
        sql: """
          CREATE TABLE reading_v4 (
            device_seq INTEGER NOT NULL REFERENCES device(seq) ON DELETE CASCADE,
            time_ms INTEGER NOT NULL,
            latitude REAL,
            longitude REAL,
            altitude REAL,
            temperature REAL,
            humidity REAL,
            pressure REAL,
            altitude_measured REAL,
            tvoc REAL,
            eco2 REAL,
            pm0_5 REAL,
            pm1 REAL,
            pm2_5 REAL,
            pm4 REAL,
            pm10 REAL,
            PRIMARY KEY (device_seq, time_ms),
            CHECK ((latitude IS NULL) = (longitude IS NULL))
          ) WITHOUT ROWID;
          INSERT INTO reading_v4 SELECT * FROM reading;
          DROP TABLE reading;
          ALTER TABLE reading_v4 RENAME TO reading;
          """
      )
    }
    // When the server last heard from each board (any upload its token made, whatever the
    // readings' own times): live mode's "last seen" and "offline since".
    .add("v5-device-last-seen") { db in
      try db.execute(sql: "ALTER TABLE device ADD COLUMN last_seen_at REAL")
    }
    // Each person's settings: the measure the air pages open on, the stations they picked.
    .add("v6-air-settings") { db in
      try db.execute(
        sql: """
          CREATE TABLE air_settings (
            user_id TEXT PRIMARY KEY NOT NULL,
            default_measure TEXT
          ) WITHOUT ROWID;
          CREATE TABLE picked_station (
            user_id TEXT NOT NULL,
            station_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            PRIMARY KEY (user_id, station_id)
          ) WITHOUT ROWID;
          """
      )
    }
    // The regional data as published: a value is one of a sensor's series (`operator`, the
    // portal's idoperatore), validated or provisional, and stands for a span (`averaging`: 60m,
    // 10m, day, running-24h: a PM sensor's daily means and its running means from the
    // near-real-time feed are two series); where each source's fetch is, sensor by sensor; a near-real-time
    // source's gaps filled from another source; existing values were hourly means, validated.
    .add("v7-regional-data-as-published") { db in
      try db.execute(
        sql: """
          CREATE TABLE reference_measurement_v7 (
            sensor_id TEXT NOT NULL,
            operator INTEGER NOT NULL,
            time_ms INTEGER NOT NULL,
            value REAL NOT NULL,
            validated INTEGER NOT NULL,
            averaging TEXT NOT NULL,
            PRIMARY KEY (sensor_id, operator, averaging, time_ms)
          ) WITHOUT ROWID;
          INSERT INTO reference_measurement_v7 (sensor_id, operator, time_ms, value, validated, averaging)
            SELECT sensor_id, 1, time_ms, value, 1, '60m' FROM reference_measurement;
          DROP TABLE reference_measurement;
          ALTER TABLE reference_measurement_v7 RENAME TO reference_measurement;
          CREATE TABLE reference_cursor (
            source TEXT NOT NULL,
            sensor_id TEXT NOT NULL,
            newest_ms INTEGER NOT NULL,
            PRIMARY KEY (source, sensor_id)
          ) WITHOUT ROWID;
          ALTER TABLE reference_source ADD COLUMN fill_gaps_from TEXT;
          """
      )
    }
    // Each person's own links to the portal's datasets (erased with the account; their fetch
    // state and cursors are under the source name `person:<user>:<name>`).
    .add("v8-portal-links") { db in
      try db.execute(
        sql: """
          CREATE TABLE portal_link (
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            url TEXT NOT NULL,
            kind TEXT NOT NULL,
            network TEXT NOT NULL,
            fill_gaps_from TEXT,
            saved_at REAL NOT NULL,
            PRIMARY KEY (user_id, name)
          ) WITHOUT ROWID;
          """
      )
    }
    // People's air alerts (erased with the account), and what the alerts job remembers of each
    // alert and board (gone with either).
    .add("v9-air-alerts") { db in
      try db.execute(
        sql: """
          CREATE TABLE air_alert (
            id TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL,
            idempotency_key TEXT NOT NULL,
            name TEXT NOT NULL,
            measure TEXT,
            threshold REAL,
            silent_minutes INTEGER,
            device_id TEXT,
            latitude REAL,
            longitude REAL,
            radius_metres REAL,
            created_at REAL NOT NULL,
            UNIQUE (user_id, idempotency_key)
          );
          CREATE TABLE air_alert_state (
            alert_id TEXT NOT NULL REFERENCES air_alert(id) ON DELETE CASCADE,
            device_seq INTEGER NOT NULL REFERENCES device(seq) ON DELETE CASCADE,
            newest_ms INTEGER NOT NULL,
            above INTEGER NOT NULL,
            notified_ms INTEGER,
            silent_after_ms INTEGER,
            PRIMARY KEY (alert_id, device_seq)
          ) WITHOUT ROWID;
          CREATE INDEX air_alert_state_device ON air_alert_state (device_seq);
          """
      )
    }
}

extension Measure {
  /// The measure's column in `reading`.
  var column: String {
    switch self {
    case .temperature: return "temperature"
    case .humidity: return "humidity"
    case .pressure: return "pressure"
    case .altitude: return "altitude_measured"
    case .tvoc: return "tvoc"
    case .eco2: return "eco2"
    case .pm0_5: return "pm0_5"
    case .pm1: return "pm1"
    case .pm2_5: return "pm2_5"
    case .pm4: return "pm4"
    case .pm10: return "pm10"
    }
  }
}
