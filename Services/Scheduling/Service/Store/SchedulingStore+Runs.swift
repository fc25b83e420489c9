import Foundation
import GRDB

extension SchedulingStore {
  /// Every line, by short name.
  public func lines() throws -> [Line] {
    try pool.read { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT id, short_name, long_name FROM line ORDER BY short_name, id")).map {
        Line(id: $0["id"], shortName: $0["short_name"], longName: $0["long_name"])
      }
    }
  }

  /// The feed's stop id of each station's platform, keyed by station id and platform.
  public func platformStops() throws -> [PlatformKey: String] {
    try pool.read { db in
      var stops: [PlatformKey: String] = [:]
      for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT stop_id, station_id, platform FROM platform_stop")) {
        stops[PlatformKey(stationID: row["station_id"], platform: row["platform"])] = row["stop_id"]
      }
      return stops
    }
  }

  /// Direct runs from one station to another whose departure is at or after `earliest`
  /// (seconds since the start of `date`'s service day) and within a day of it, earliest arrival
  /// first: runs of `date`, of the day before (still going after midnight) and of the day after
  /// (late at night, the next morning's trains).
  public func directLegs(
    from origin: String,
    to destination: String,
    on date: ServiceDate,
    after earliest: Int,
    limit: Int
  )
    throws -> [PlannedLeg]
  {
    let day = date.daysSinceEpoch
    return try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT a.trip_id, d.day, a.sequence AS board, b.sequence AS alight
            FROM trip_stop a
            JOIN trip_stop b ON b.trip_id = a.trip_id AND b.sequence > a.sequence AND b.station_id = ?
            JOIN trip ON trip.id = a.trip_id
            JOIN service_day d ON d.service_id = trip.service_id AND d.day IN (?, ?, ?)
            WHERE a.station_id = ?
              AND a.departure + (d.day - ?) * 86400 BETWEEN ? AND ? + 86400
              AND NOT EXISTS (SELECT 1 FROM run_exclusion e WHERE e.trip_id = trip.id AND e.day = d.day)
            ORDER BY b.arrival + (d.day - ?) * 86400, a.departure + (d.day - ?) * 86400 DESC
            LIMIT ?
            """
        ),
        arguments: [destination, day - 1, day, day + 1, origin, day, earliest, earliest, day, day, limit]
      ).map {
        PlannedLeg(
          tripID: $0["trip_id"],
          serviceDate: ServiceDate(daysSinceEpoch: $0["day"]),
          boardSequence: $0["board"],
          alightSequence: $0["alight"]
        )
      }
    }
  }

  /// Journeys with one change (at least `minimumTransfer` seconds between the first run's
  /// arrival and the second's departure, at the same station), as `directLegs` chooses runs,
  /// earliest arrival first. Read on GRDB's reader queue, off the caller's event loop: the join
  /// of every run through the origin with every run to the destination takes milliseconds.
  /// The second run is looked for only among runs that reach the destination at all (the
  /// `IN`): without it SQLite walked every later stop of every run through each change station,
  /// three to five times the work.
  public func oneChangeLegs(
    from origin: String,
    to destination: String,
    on date: ServiceDate,
    after earliest: Int,
    minimumTransfer: Int,
    limit: Int
  ) async throws -> [(PlannedLeg, PlannedLeg)] {
    let day = date.daysSinceEpoch
    return try await pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT a.trip_id AS trip1, d1.day AS day1, a.sequence AS board1, x1.sequence AS alight1,
                   x2.trip_id AS trip2, d2.day AS day2, x2.sequence AS board2, b.sequence AS alight2,
                   b.arrival + (d2.day - ?) * 86400 AS arrives
            FROM trip_stop a
            JOIN trip t1 ON t1.id = a.trip_id
            JOIN service_day d1 ON d1.service_id = t1.service_id AND d1.day IN (?, ?, ?)
            JOIN trip_stop x1 ON x1.trip_id = a.trip_id AND x1.sequence > a.sequence AND x1.station_id != ?
            JOIN trip_stop x2 ON x2.station_id = x1.station_id AND x2.trip_id != a.trip_id
              AND x2.trip_id IN (SELECT trip_id FROM trip_stop WHERE station_id = ?)
            JOIN trip_stop b ON b.trip_id = x2.trip_id AND b.sequence > x2.sequence AND b.station_id = ?
            JOIN trip t2 ON t2.id = x2.trip_id
            JOIN service_day d2 ON d2.service_id = t2.service_id AND d2.day IN (?, ?, ?, ?)
            WHERE a.station_id = ?
              AND a.departure + (d1.day - ?) * 86400 BETWEEN ? AND ? + 86400
              AND x2.departure + (d2.day - ?) * 86400 >= x1.arrival + (d1.day - ?) * 86400 + ?
              AND x2.departure + (d2.day - ?) * 86400 <= x1.arrival + (d1.day - ?) * 86400 + 4 * 3600
              AND NOT EXISTS (SELECT 1 FROM trip_stop direct WHERE direct.trip_id = a.trip_id AND direct.station_id = ?)
              AND NOT EXISTS (SELECT 1 FROM run_exclusion e WHERE e.trip_id = t1.id AND e.day = d1.day)
              AND NOT EXISTS (SELECT 1 FROM run_exclusion e WHERE e.trip_id = t2.id AND e.day = d2.day)
            ORDER BY arrives, a.departure + (d1.day - ?) * 86400 DESC
            LIMIT ?
            """
        ),
        arguments: [
          day, day - 1, day, day + 1, origin, destination, destination, day - 1, day, day + 1, day + 2, origin, day, earliest, earliest, day, day,
          minimumTransfer, day, day, destination, day, limit * 8,
        ]
      ).map { row in
        (
          PlannedLeg(
            tripID: row["trip1"],
            serviceDate: ServiceDate(daysSinceEpoch: row["day1"]),
            boardSequence: row["board1"],
            alightSequence: row["alight1"]
          ),
          PlannedLeg(
            tripID: row["trip2"],
            serviceDate: ServiceDate(daysSinceEpoch: row["day2"]),
            boardSequence: row["board2"],
            alightSequence: row["alight2"]
          )
        )
      }
    }
  }

  /// How many service days a trip runs on (1 for a run an admin created).
  public func serviceDayCount(tripID: String) throws -> Int {
    try pool.read { db in try Self.serviceDayCount(db, tripID: tripID) }
  }

  static func serviceDayCount(_ db: Database, tripID: String) throws -> Int {
    try Int.fetchOne(
      db.cachedStatement(sql: "SELECT COUNT(*) FROM service_day JOIN trip ON trip.service_id = service_day.service_id WHERE trip.id = ?"),
      arguments: [tripID]
    ) ?? 0
  }
}

/// A write the store refused because it would duplicate what is there.
public enum StoreConflict: Error, Sendable {
  case duplicate
}
