import BinarioDomain
import Foundation
import GRDB

extension TelemetryStore {
  /// Adds or replaces sensors; answers how many were new.
  public func upsert(_ sensors: [ReferenceSensor]) async throws -> Int {
    try await pool.write { db in
      var added = 0
      for sensor in sensors {
        let existed =
          try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM reference_sensor WHERE sensor_id = ?)"),
            arguments: [sensor.sensorID]
          ) ?? false
        try db.execute(
          sql: """
            INSERT OR REPLACE INTO reference_sensor (sensor_id, type_name, unit, station_id, station_name, elevation, province, municipality,
              historical, start_date, stop_date, latitude, longitude, network, measure)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            sensor.sensorID, sensor.typeName, sensor.unit, sensor.stationID, sensor.stationName, sensor.elevation, sensor.province,
            sensor.municipality, sensor.historical, sensor.startDate?.timeIntervalSince1970, sensor.stopDate?.timeIntervalSince1970,
            sensor.position.latitude, sensor.position.longitude, sensor.network.rawValue, sensor.measure?.rawValue,
          ]
        )
        if !existed { added += 1 }
      }
      return added
    }
  }

  /// Adds measurements, and when they come from a source's fetch moves that source's cursor of
  /// each sensor to its newest value, in the same transaction: a fetch killed half-way leaves
  /// rows and cursors agreeing. A value already there for the sensor, operator and time is
  /// replaced (the provider corrects its data), except that a provisional value never replaces a
  /// validated one. Answers how many were new.
  public func upsert(_ measurements: [ReferenceMeasurement], advancingCursorOf source: String? = nil) async throws -> Int {
    try await pool.write { db in
      let before = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM reference_measurement")) ?? 0
      let statement = try db.cachedStatement(
        sql: """
          INSERT INTO reference_measurement (sensor_id, operator, time_ms, value, validated, averaging) VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (sensor_id, operator, averaging, time_ms) DO UPDATE
            SET value = excluded.value, validated = excluded.validated
            WHERE excluded.validated >= reference_measurement.validated
          """
      )
      var newest: [String: Int64] = [:]
      for measurement in measurements {
        let time = Self.milliseconds(measurement.time)
        try statement.execute(arguments: [
          measurement.sensorID, measurement.operator.rawValue, time, measurement.value, measurement.validity.rawValue, measurement.averaging.code,
        ])
        newest[measurement.sensorID] = max(newest[measurement.sensorID] ?? .min, time)
      }
      if let source {
        let cursor = try db.cachedStatement(
          sql: """
            INSERT INTO reference_cursor (source, sensor_id, newest_ms) VALUES (?, ?, ?)
            ON CONFLICT (source, sensor_id) DO UPDATE SET newest_ms = MAX(newest_ms, excluded.newest_ms)
            """
        )
        for (sensorID, time) in newest { try cursor.execute(arguments: [source, sensorID, time]) }
      }
      return (try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM reference_measurement")) ?? 0) - before
    }
  }

  /// Where a source's fetches are, sensor by sensor: each sensor's newest value it brought.
  public func cursors(source: String) async throws -> [String: Date] {
    try pool.readOnCurrentThread { db in
      var cursors: [String: Date] = [:]
      for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT sensor_id, newest_ms FROM reference_cursor WHERE source = ?"), arguments: [source])
      {
        cursors[row[0]] = Date(timeIntervalSince1970: Double(row[1] as Int64) / 1000)
      }
      return cursors
    }
  }

  /// When a sensor's newest stored measurement is.
  public func newestMeasurement(sensorID: String) async throws -> Date? {
    try pool.readOnCurrentThread { db in
      try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(time_ms) FROM reference_measurement WHERE sensor_id = ?"), arguments: [sensorID])
        .map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
  }

  /// Sensors whose station is in `box` (optionally of one measure).
  public func referenceSensors(within box: GeoBox, measure: Measure? = nil) async throws -> [ReferenceSensor] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT * FROM reference_sensor WHERE latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?
              AND (? IS NULL OR measure = ?) ORDER BY station_name, sensor_id
            """
        ),
        arguments: [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude, measure?.rawValue, measure?.rawValue]
      ).map(Self.referenceSensor)
    }
  }

  /// The sensors of `ids` that the catalogues hold, by id.
  public func referenceSensors(ids: Set<String>) async throws -> [String: ReferenceSensor] {
    try pool.readOnCurrentThread { db in
      var sensors: [String: ReferenceSensor] = [:]
      let statement = try db.cachedStatement(sql: "SELECT * FROM reference_sensor WHERE sensor_id = ?")
      for id in ids {
        if let row = try Row.fetchOne(statement, arguments: [id]) { sensors[id] = Self.referenceSensor(row) }
      }
      return sensors
    }
  }

  public func referenceSensor(id: String) async throws -> ReferenceSensor? {
    try pool.readOnCurrentThread { db in
      try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM reference_sensor WHERE sensor_id = ?"), arguments: [id]).map(Self.referenceSensor)
    }
  }

  /// A sensor's values of one operator whose span overlaps `range`, in time order (a day's mean
  /// stamped the day before the range starts, or a running mean stamped just after, still count).
  public func referenceValues(
    sensorID: String,
    overlapping range: Range<Date>,
    operator: ReferenceMeasurement.Operator = .mean
  ) async throws -> [ReferenceMeasurement] {
    let values = try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT time_ms, value, validated, averaging FROM reference_measurement
            WHERE sensor_id = ? AND operator = ? AND time_ms > ? AND time_ms < ? ORDER BY time_ms
            """
        ),
        arguments: [
          sensorID, `operator`.rawValue, Self.milliseconds(range.lowerBound) - 86_400_000 * 2, Self.milliseconds(range.upperBound) + 86_400_000 * 2,
        ]
      ).compactMap { row in
        let measurement = ReferenceMeasurement(
          sensorID: sensorID,
          time: Date(timeIntervalSince1970: Double(row[0] as Int64) / 1000),
          value: row[1],
          operator: `operator`,
          validity: ReferenceMeasurement.Validity(rawValue: row[2]) ?? .validated,
          averaging: Averaging(code: row[3]) ?? .minutes(60)
        )
        return measurement.window.overlaps(range) ? measurement : nil
      }
    }
    return values
  }

  /// When a sensor's newest validated value of one operator ends (`nil`: none validated yet).
  public func newestValidatedEnd(sensorID: String, operator: ReferenceMeasurement.Operator = .mean) async throws -> Date? {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT averaging, MAX(time_ms) FROM reference_measurement WHERE sensor_id = ? AND operator = ? AND validated = 1 GROUP BY averaging
            """
        ),
        arguments: [sensorID, `operator`.rawValue]
      ).compactMap { row -> Date? in
        let time = Date(timeIntervalSince1970: Double(row[1] as Int64) / 1000)
        return (Averaging(code: row[0]) ?? .minutes(60)).window(stampedAt: time).upperBound
      }.max()
    }
  }

  static func referenceSensor(_ row: Row) -> ReferenceSensor {
    ReferenceSensor(
      sensorID: row["sensor_id"],
      typeName: row["type_name"],
      unit: row["unit"],
      stationID: row["station_id"],
      stationName: row["station_name"],
      elevation: row["elevation"],
      province: row["province"],
      municipality: row["municipality"],
      historical: row["historical"],
      startDate: (row["start_date"] as Double?).map(Date.init(timeIntervalSince1970:)),
      stopDate: (row["stop_date"] as Double?).map(Date.init(timeIntervalSince1970:)),
      position: GeoPoint(latitude: row["latitude"], longitude: row["longitude"]),
      network: ReferenceSensor.Network(rawValue: row["network"]) ?? .airQuality
    )
  }
}

extension TelemetryStore {
  public func fetchState(source: String) async throws -> FetchState {
    try pool.readOnCurrentThread { db in
      guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM reference_fetch WHERE source = ?"), arguments: [source]) else {
        return FetchState()
      }
      return FetchState(
        newest: (row["newest_ms"] as Int64?).map { Date(timeIntervalSince1970: Double($0) / 1000) },
        lastSuccess: (row["last_success_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
        lastFailure: (row["last_failure_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
        lastError: row["last_error"],
        consecutiveFailures: row["consecutive_failures"]
      )
    }
  }

  public func recordFetch(source: String, newest: Date?, at instant: Date) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO reference_fetch (source, newest_ms, last_success_at) VALUES (?, ?, ?)
          ON CONFLICT (source) DO UPDATE SET newest_ms = COALESCE(MAX(excluded.newest_ms, COALESCE(newest_ms, excluded.newest_ms)), newest_ms),
            last_success_at = excluded.last_success_at, consecutive_failures = 0
          """,
        arguments: [source, newest.map(Self.milliseconds), instant.timeIntervalSince1970]
      )
    }
  }

  public func recordFetchFailure(source: String, error: String, at instant: Date) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO reference_fetch (source, last_failure_at, last_error, consecutive_failures) VALUES (?, ?, ?, 1)
          ON CONFLICT (source) DO UPDATE SET last_failure_at = excluded.last_failure_at, last_error = excluded.last_error,
            consecutive_failures = consecutive_failures + 1
          """,
        arguments: [source, instant.timeIntervalSince1970, error]
      )
    }
  }

  // MARK: - Sources an admin manages

  /// The sources saved through the API, by name.
  public func savedSources() async throws -> [ReferenceSource] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM reference_source ORDER BY name")).map(Self.referenceSource)
    }
  }

  /// Saves a source (a new one, or another URL, kind or network for a saved one).
  public func save(_ source: ReferenceSource, at instant: Date) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO reference_source (name, url, kind, network, fill_gaps_from, saved_at) VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (name) DO UPDATE SET url = excluded.url, kind = excluded.kind, network = excluded.network,
            fill_gaps_from = excluded.fill_gaps_from, saved_at = excluded.saved_at
          """,
        arguments: [source.name, source.url, source.kind.rawValue, source.network.rawValue, source.fillGapsFrom, instant.timeIntervalSince1970]
      )
    }
  }

  /// Deletes a saved source and its fetch state (what it imported stays); whether there was one.
  public func deleteSource(name: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM reference_source WHERE name = ?", arguments: [name])
      let deleted = db.changesCount > 0
      if deleted {
        try db.execute(sql: "DELETE FROM reference_fetch WHERE source = ?", arguments: [name])
        try db.execute(sql: "DELETE FROM reference_cursor WHERE source = ?", arguments: [name])
      }
      return deleted
    }
  }

  // MARK: - A person's own portal links

  /// A person's links, by name.
  public func portalLinks(userID: String) async throws -> [ReferenceSource] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM portal_link WHERE user_id = ? ORDER BY name"), arguments: [userID]).map(
        Self.referenceSource
      )
    }
  }

  /// Every person's links, with whose they are.
  public func allPortalLinks() async throws -> [(userID: String, link: ReferenceSource)] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM portal_link ORDER BY user_id, name")).map { ($0["user_id"], Self.referenceSource($0)) }
    }
  }

  /// A saved source or a person's link (the two tables share these columns).
  static func referenceSource(_ row: Row) -> ReferenceSource {
    ReferenceSource(
      name: row["name"],
      url: row["url"],
      kind: ReferenceSource.Kind(rawValue: row["kind"]) ?? .measurements,
      network: ReferenceSensor.Network(rawValue: row["network"]) ?? .airQuality,
      fillGapsFrom: row["fill_gaps_from"]
    )
  }

  /// Saves a person's link, refusing a new one beyond `limit`; whether it was saved.
  public func savePortalLink(_ link: ReferenceSource, userID: String, limit: Int, at instant: Date) async throws -> Bool {
    try await pool.write { db in
      let exists =
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM portal_link WHERE user_id = ? AND name = ?)", arguments: [userID, link.name])
        ?? false
      let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM portal_link WHERE user_id = ?", arguments: [userID]) ?? 0
      guard exists || count < limit else { return false }
      try db.execute(
        sql: """
          INSERT INTO portal_link (user_id, name, url, kind, network, fill_gaps_from, saved_at) VALUES (?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (user_id, name) DO UPDATE SET url = excluded.url, kind = excluded.kind, network = excluded.network,
            fill_gaps_from = excluded.fill_gaps_from, saved_at = excluded.saved_at
          """,
        arguments: [userID, link.name, link.url, link.kind.rawValue, link.network.rawValue, link.fillGapsFrom, instant.timeIntervalSince1970]
      )
      return true
    }
  }

  /// Deletes a person's link and its fetch state under `source`; whether there was one.
  public func deletePortalLink(name: String, userID: String, source: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM portal_link WHERE user_id = ? AND name = ?", arguments: [userID, name])
      let deleted = db.changesCount > 0
      if deleted {
        try db.execute(sql: "DELETE FROM reference_fetch WHERE source = ?", arguments: [source])
        try db.execute(sql: "DELETE FROM reference_cursor WHERE source = ?", arguments: [source])
      }
      return deleted
    }
  }
}
