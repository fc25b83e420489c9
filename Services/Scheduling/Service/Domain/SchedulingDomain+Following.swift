import BinarioDomain
import Foundation

extension SchedulingDomain {
  /// `userID` follows the run: its live changes reach them. `NOT_FOUND` for a run that does not
  /// exist.
  /// With stations, they follow the part of the run they ride (``FollowedPart``); each must be
  /// a stop of the run, the boarding one before the alighting one.
  public func follow(
    userID: String,
    tripID rawTrip: String,
    date rawDate: String,
    fromStationID rawFrom: String = "",
    toStationID rawTo: String = "",
    field: String = "run"
  ) async throws {
    let (tripID, date) = try Self.runRef(tripID: rawTrip, date: rawDate, field: field)
    guard let run = try store.plannedRun(tripID: tripID, on: date) else {
      throw ServiceError.notFound("trip \(tripID) does not run on \(date)")
    }
    let part = FollowedPart(
      fromStationID: rawFrom.trimmingCharacters(in: .whitespaces),
      toStationID: rawTo.trimmingCharacters(in: .whitespaces)
    )
    var check = InputValidation()
    let calls = Set(run.stops.map(\.stationID))
    if !part.fromStationID.isEmpty && !calls.contains(part.fromStationID) {
      check.fail("from_station_id", "the run does not call at \(part.fromStationID)")
    }
    if !part.toStationID.isEmpty && !calls.contains(part.toStationID) {
      check.fail("to_station_id", "the run does not call at \(part.toStationID)")
    } else if !part.fromStationID.isEmpty, !part.toStationID.isEmpty, let stops = part.stops(on: run),
      run.stops.last(where: { $0.stationID == part.toStationID }).map({ $0.sequence <= stops.board }) == true
    {
      check.fail("to_station_id", "the run calls at \(part.toStationID) only before \(part.fromStationID)")
    }
    try check.finish()
    try await store.follow(userID: userID, tripID: tripID, on: date, part: part, at: clock.now())
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
