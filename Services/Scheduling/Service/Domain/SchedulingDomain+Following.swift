import BinarioDomain
import Foundation

extension SchedulingDomain {
  /// `userID` follows the run: its live changes reach them. `NOT_FOUND` for a run that does not
  /// exist.
  public func follow(userID: String, tripID rawTrip: String, date rawDate: String, field: String = "run") async throws {
    let (tripID, date) = try Self.runRef(tripID: rawTrip, date: rawDate, field: field)
    guard try store.plannedRun(tripID: tripID, on: date) != nil else {
      throw ServiceError.notFound("trip \(tripID) does not run on \(date)")
    }
    try await store.follow(userID: userID, tripID: tripID, on: date, at: clock.now())
  }

  /// Stops following; stopping twice is not an error.
  public func unfollow(userID: String, tripID rawTrip: String, date rawDate: String, field: String = "run") async throws {
    let (tripID, date) = try Self.runRef(tripID: rawTrip, date: rawDate, field: field)
    try await store.unfollow(userID: userID, tripID: tripID, on: date)
  }

  /// The runs the user follows from yesterday's service day on (a run past midnight is still
  /// going), live.
  public func followedRuns(userID: String) throws -> [LiveRun] {
    let catalog = catalog.withLock { $0 }
    return try store.runsWithChanges(store.followedRuns(userID: userID, from: serviceNow.date.adding(days: -1))).map {
      liveRun($0, changes: $1, catalog: catalog)
    }
  }
}
