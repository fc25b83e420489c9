import BinarioDomain
import Foundation
import GRDB

/// Open data: the readings of boards in public campaigns, with a position.
extension TelemetryStore {
  /// Each station's position and province, from its sensors (the areas open data lists by).
  public func stationProvinces() async throws -> [OpenDataAreas.Station] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT AVG(latitude) AS latitude, AVG(longitude) AS longitude, MAX(province) AS province
            FROM reference_sensor GROUP BY station_id ORDER BY station_id
            """
        )
      ).map { OpenDataAreas.Station(position: GeoPoint(latitude: $0["latitude"], longitude: $0["longitude"]), province: $0["province"]) }
    }
  }

  /// The public readings in `range` counted by board, UTC hour and position to 0.01°.
  public func openDataCounts(in range: Range<Date>) async throws -> [OpenDataCount] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT r.device_seq, r.time_ms / 3600000 AS hour, ROUND(r.latitude, 2) AS latitude, ROUND(r.longitude, 2) AS longitude,
              COUNT(*) AS readings
            FROM campaign c JOIN device d ON d.campaign_id = c.id JOIN reading r ON r.device_seq = d.seq
            WHERE c.public = 1 AND r.time_ms >= ? AND r.time_ms < ? AND r.latitude IS NOT NULL
            GROUP BY r.device_seq, hour, ROUND(r.latitude, 2), ROUND(r.longitude, 2)
            """
        ),
        arguments: [Self.milliseconds(range.lowerBound), Self.milliseconds(range.upperBound)]
      ).map { row in
        OpenDataCount(
          deviceSeq: row["device_seq"],
          hour: Date(timeIntervalSince1970: Double(row["hour"] as Int64) * 3600),
          position: GeoPoint(latitude: row["latitude"], longitude: row["longitude"]),
          readings: row["readings"]
        )
      }
    }
  }

  /// The public readings in `range`, in time order (then by board), each with its position to
  /// 0.01° as ``openDataCounts(in:)`` rounds it.
  public func openDataReadings(in range: Range<Date>) async throws -> [OpenDataReading] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT r.*, d.id AS device_id, c.name AS campaign_name, ROUND(r.latitude, 2) AS area_latitude,
              ROUND(r.longitude, 2) AS area_longitude
            FROM campaign c JOIN device d ON d.campaign_id = c.id JOIN reading r ON r.device_seq = d.seq
            WHERE c.public = 1 AND r.time_ms >= ? AND r.time_ms < ? AND r.latitude IS NOT NULL
            ORDER BY r.time_ms, d.id
            """
        ),
        arguments: [Self.milliseconds(range.lowerBound), Self.milliseconds(range.upperBound)]
      ).map { row in
        OpenDataReading(
          deviceID: row["device_id"],
          campaign: row["campaign_name"],
          area: GeoPoint(latitude: row["area_latitude"], longitude: row["area_longitude"]),
          reading: Self.reading(row)
        )
      }
    }
  }

  /// The time of the latest public reading with a position before `end` (or at all).
  public func latestPublicReadingTime(before end: Date?) async throws -> Date? {
    try pool.readOnCurrentThread { db in
      let newest = try Int64.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT MAX(
              (SELECT r.time_ms FROM reading r WHERE r.device_seq = d.seq AND r.time_ms < ? AND r.latitude IS NOT NULL
               ORDER BY r.time_ms DESC LIMIT 1))
            FROM campaign c JOIN device d ON d.campaign_id = c.id WHERE c.public = 1
            """
        ),
        arguments: [end.map(Self.milliseconds) ?? Int64.max]
      )
      return newest.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
  }
}
