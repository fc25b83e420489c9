import Foundation
import GRDB

extension SchedulingStore {
  /// Makes `userID` follow a run; following it again changes nothing.
  public func follow(userID: String, tripID: String, on date: ServiceDate, at now: Date) async throws {
    try await pool.write { db in
      try db.execute(
        sql: "INSERT OR IGNORE INTO run_follower (trip_id, service_day, user_id, followed_at) VALUES (?, ?, ?, ?)",
        arguments: [tripID, date.daysSinceEpoch, userID, now.timeIntervalSince1970]
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

  static func followers(_ db: Database, tripID: String, day: Int) throws -> [String] {
    try String.fetchAll(
      db.cachedStatement(sql: "SELECT user_id FROM run_follower WHERE trip_id = ? AND service_day = ? ORDER BY followed_at, user_id"),
      arguments: [tripID, day]
    )
  }
}
