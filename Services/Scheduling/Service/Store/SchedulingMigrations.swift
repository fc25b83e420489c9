import BinarioStorage
import GRDB

/// Scheduling's database schema, one migration per shipped change (append, never edit).
///
/// The timetable is what the last imported GTFS feed said, replaced whole by each import:
/// `station`, `platform_stop` (a feed's platform stops, mapped to their station and platform),
/// `line`, `trip` and `trip_stop`, and `service_day` (every date each service runs, expanded from
/// calendar and calendar_dates at import). Times of day are INTEGER seconds since the start of
/// the trip's service day (past 86,400 after midnight), never clock times. `run_change` keeps
/// every live change admins made to a run (a trip on a service day), in the order made; it
/// survives timetable imports, which are planned data, not live state.
public enum SchedulingMigrations {
  public static let all = DatabaseMigrations()
    .add("v1-timetable") { db in
      try db.execute(
        sql: """
          CREATE TABLE station (
            id TEXT PRIMARY KEY NOT NULL,
            code TEXT NOT NULL,
            name TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL
          );
          CREATE TABLE platform_stop (
            stop_id TEXT PRIMARY KEY NOT NULL,
            station_id TEXT NOT NULL REFERENCES station(id),
            platform TEXT NOT NULL
          );
          CREATE TABLE line (
            id TEXT PRIMARY KEY NOT NULL,
            short_name TEXT NOT NULL,
            long_name TEXT NOT NULL
          );
          CREATE TABLE service_day (
            service_id TEXT NOT NULL,
            day INTEGER NOT NULL,
            PRIMARY KEY (service_id, day)
          );
          CREATE INDEX service_day_by_day ON service_day(day);
          CREATE TABLE trip (
            id TEXT PRIMARY KEY NOT NULL,
            line_id TEXT NOT NULL REFERENCES line(id),
            service_id TEXT NOT NULL,
            train_number TEXT NOT NULL,
            headsign TEXT NOT NULL
          );
          CREATE INDEX trip_by_service ON trip(service_id);
          CREATE TABLE trip_stop (
            trip_id TEXT NOT NULL REFERENCES trip(id) ON DELETE CASCADE,
            sequence INTEGER NOT NULL,
            station_id TEXT NOT NULL REFERENCES station(id),
            platform TEXT NOT NULL,
            arrival INTEGER NOT NULL,
            departure INTEGER NOT NULL,
            PRIMARY KEY (trip_id, sequence)
          );
          CREATE INDEX trip_stop_by_station ON trip_stop(station_id, departure);
          CREATE TABLE run_change (
            id TEXT PRIMARY KEY NOT NULL,
            trip_id TEXT NOT NULL,
            service_day INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('delay', 'platform', 'cancellation')),
            sequence INTEGER NOT NULL,
            minutes INTEGER NOT NULL DEFAULT 0,
            platform TEXT NOT NULL DEFAULT '',
            reason TEXT NOT NULL,
            changed_by TEXT NOT NULL,
            changed_at REAL NOT NULL,
            position INTEGER NOT NULL
          );
          CREATE INDEX run_change_by_run ON run_change(trip_id, service_day, position);
          CREATE TABLE timetable_import (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            imported_at REAL NOT NULL,
            source TEXT NOT NULL
          );
          """
      )
    }
}
