import Foundation
import GRDB

extension SchedulingStore {
  /// Makes `userID` follow `part` of a run. Following it again widens the part to cover both
  /// (``FollowedPart/merged(with:)``).
  public func follow(userID: String, tripID: String, on date: ServiceDate, part: FollowedPart, at now: Date) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO run_follower (trip_id, service_day, user_id, followed_at, from_station_id, to_station_id)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (trip_id, service_day, user_id) DO UPDATE SET
            from_station_id = CASE WHEN from_station_id = excluded.from_station_id THEN from_station_id ELSE '' END,
            to_station_id = CASE WHEN to_station_id = excluded.to_station_id THEN to_station_id ELSE '' END
          """,
        arguments: [tripID, date.daysSinceEpoch, userID, now.timeIntervalSince1970, part.fromStationID, part.toStationID]
      )
    }
  }

  /// Returns whether the user was following the run.
  @discardableResult
  public func unfollow(userID: String, tripID: String, on date: ServiceDate) async throws -> Bool {
    try await pool.write { db in
      try db.execute(
        sql: "DELETE FROM run_follower WHERE trip_id = ? AND service_day = ? AND user_id = ?",
        arguments: [tripID, date.daysSinceEpoch, userID]
      )
      return db.changesCount == 1
    }
  }

  /// The runs the user follows on service days from `firstDate` on, by date then trip.
  public func followedRuns(userID: String, from firstDate: ServiceDate) throws -> [(tripID: String, serviceDate: ServiceDate)] {
    try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT trip_id, service_day FROM run_follower WHERE user_id = ? AND service_day >= ?
            ORDER BY service_day, followed_at
            """
        ),
        arguments: [userID, firstDate.daysSinceEpoch]
      ).map { ($0["trip_id"], ServiceDate(daysSinceEpoch: $0["service_day"])) }
    }
  }

  /// The followers of a run with the part each rides, in the order they began following.
  static func followersWithParts(_ db: Database, tripID: String, day: Int) throws -> [RunFollower] {
    try Row.fetchAll(
      db.cachedStatement(
        sql: """
          SELECT user_id, from_station_id, to_station_id FROM run_follower WHERE trip_id = ? AND service_day = ?
          ORDER BY followed_at, user_id
          """
      ),
      arguments: [tripID, day]
    ).map { RunFollower(userID: $0[0], part: FollowedPart(fromStationID: $0[1], toStationID: $0[2])) }
  }

  static func followers(_ db: Database, tripID: String, day: Int) throws -> [String] {
    try String.fetchAll(
      db.cachedStatement(sql: "SELECT user_id FROM run_follower WHERE trip_id = ? AND service_day = ? ORDER BY followed_at, user_id"),
      arguments: [tripID, day]
    )
  }
}
