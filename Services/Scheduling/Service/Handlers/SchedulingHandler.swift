import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import Logging
import SwiftProtobuf
import Synchronization

/// The gRPC face of the timetable: translates `binario.scheduling.v1.Scheduling` messages to
/// ``SchedulingDomain`` calls and its errors to statuses. Register it behind
/// ``BinarioAuth/AuthorizationServerInterceptor`` with ``BinarioAuth/MethodAccessPolicy/scheduling``,
/// which sets ``BinarioAuth/CallerIdentity/current`` and refuses internal methods to anyone but
/// the services allowed.
public struct SchedulingHandler: Binario_Scheduling_V1_Scheduling.SimpleServiceProtocol {
  let domain: SchedulingDomain
  let logger: Logger
  /// The last response of each board, reused while the domain returns the same edition.
  let renderedBoards = RenderedBoards()

  public init(domain: SchedulingDomain, logger: Logger = Logger(label: "scheduling")) {
    self.domain = domain
    self.logger = logger
  }

  // MARK: - Public

  public func listStations(
    request: Binario_Scheduling_V1_ListStationsRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListStationsResponse {
    .with { $0.stations = domain.stations(matching: request.query).map(Binario_Scheduling_V1_Station.init) }
  }

  public func searchJourneys(
    request: Binario_Scheduling_V1_SearchJourneysRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_SearchJourneysResponse {
    let journeys = try domain.journeys(
      from: request.fromStationID,
      to: request.toStationID,
      after: request.hasDepartureAfter ? request.departureAfter.date : nil,
      limit: Int(clamping: request.limit)
    )
    return .with { $0.journeys = journeys.map(Binario_Scheduling_V1_Journey.init) }
  }

  public func getRun(
    request: Binario_Scheduling_V1_GetRunRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetRunResponse {
    let run = try domain.run(tripID: request.run.tripID, date: request.run.serviceDate)
    return .with { $0.run = Binario_Scheduling_V1_Run(run) }
  }

  public func getDeparturesBoard(
    request: Binario_Scheduling_V1_GetDeparturesBoardRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetDeparturesBoardResponse {
    let board = try domain.departures(
      stationID: request.stationID,
      after: request.hasAfter ? request.after.date : nil,
      limit: Int(clamping: request.limit)
    )
    return renderedBoards.rendered(board) { board in
      .with {
        $0.station = Binario_Scheduling_V1_Station(board.station)
        $0.departures = Self.departures(of: board)
      }
    }
  }

  public func watchDeparturesBoard(
    request: Binario_Scheduling_V1_WatchDeparturesBoardRequest,
    response: RPCWriter<Binario_Scheduling_V1_WatchDeparturesBoardResponse>,
    context: ServerContext
  ) async throws {
    let watch = try domain.watchDepartures(stationID: request.stationID, limit: Int(clamping: request.limit))
    // As WatchNotifications: an abandoned call ends the wake-ups, which ends the loop.
    defer { watch.end() }
    try await withRPCCancellationHandler {
      var sent: Binario_Scheduling_V1_WatchDeparturesBoardResponse?
      func send(_ board: DepartureBoard) async throws {
        let answer = Binario_Scheduling_V1_WatchDeparturesBoardResponse.with {
          $0.station = Binario_Scheduling_V1_Station(board.station)
          $0.departures = Self.departures(of: board)
        }
        // A wake-up is "may have changed": the same board again is not news.
        guard answer != sent else { return }
        try await response.write(answer)
        sent = answer
      }
      try await send(watch.first)
      for await _ in watch.wakeUps {
        try await send(try watch.current())
      }
    } onCancelRPC: {
      watch.end()
    }
  }

  /// A board's departures as the protos have them: each run with its stops from the station on.
  static func departures(of board: DepartureBoard) -> [Binario_Scheduling_V1_Departure] {
    board.departures.map { departure in
      .with {
        $0.run = Binario_Scheduling_V1_Run(departure.run, fromSequence: departure.sequence)
        $0.sequence = Int32(departure.sequence)
      }
    }
  }

  public func getRealtimeFeed(
    request: Binario_Scheduling_V1_GetRealtimeFeedRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetRealtimeFeedResponse {
    let feed = try domain.realtimeFeed()
    return .with { $0.feedMessage = Data(feed) }
  }

  // MARK: - Signed in

  public func followRun(
    request: Binario_Scheduling_V1_FollowRunRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_FollowRunResponse {
    try await domain.follow(userID: try caller().userID, tripID: request.run.tripID, date: request.run.serviceDate)
    return .init()
  }

  public func unfollowRun(
    request: Binario_Scheduling_V1_UnfollowRunRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_UnfollowRunResponse {
    try await domain.unfollow(userID: try caller().userID, tripID: request.run.tripID, date: request.run.serviceDate)
    return .init()
  }

  public func listFollowedRuns(
    request: Binario_Scheduling_V1_ListFollowedRunsRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListFollowedRunsResponse {
    let runs = try domain.followedRuns(userID: try caller().userID)
    return .with { $0.runs = runs.map { Binario_Scheduling_V1_Run($0) } }
  }

  // MARK: - Admin

  public func delayRun(
    request: Binario_Scheduling_V1_DelayRunRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_DelayRunResponse {
    let run = try await domain.delay(
      adminID: try caller().userID,
      tripID: request.run.tripID,
      date: request.run.serviceDate,
      fromSequence: Int(request.fromSequence),
      minutes: Int(request.minutes),
      newDeparture: request.newDeparture,
      reason: request.reason,
      idempotencyKey: request.idempotencyKey
    )
    return .with { $0.run = Binario_Scheduling_V1_Run(run) }
  }

  public func changePlatform(
    request: Binario_Scheduling_V1_ChangePlatformRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ChangePlatformResponse {
    let run = try await domain.changePlatform(
      adminID: try caller().userID,
      tripID: request.run.tripID,
      date: request.run.serviceDate,
      sequence: Int(request.sequence),
      platform: request.platform,
      reason: request.reason,
      idempotencyKey: request.idempotencyKey
    )
    return .with { $0.run = Binario_Scheduling_V1_Run(run) }
  }

  public func cancelRun(
    request: Binario_Scheduling_V1_CancelRunRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_CancelRunResponse {
    let run = try await domain.cancel(
      adminID: try caller().userID,
      tripID: request.run.tripID,
      date: request.run.serviceDate,
      fromSequence: Int(request.fromSequence),
      reason: request.reason,
      idempotencyKey: request.idempotencyKey
    )
    return .with { $0.run = Binario_Scheduling_V1_Run(run) }
  }

  public func listRunChanges(
    request: Binario_Scheduling_V1_ListRunChangesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListRunChangesResponse {
    let changes = try domain.changes(tripID: request.run.tripID, date: request.run.serviceDate)
    return .with { $0.changes = changes.map(Binario_Scheduling_V1_RunChange.init) }
  }

  public func createRun(
    request: Binario_Scheduling_V1_CreateRunRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_CreateRunResponse {
    let run = try await domain.createRun(
      tripID: request.tripID,
      date: request.serviceDate,
      lineID: request.lineID,
      trainNumber: request.trainNumber,
      headsign: request.headsign,
      stops: request.stops.map(RunStopInput.init)
    )
    return .with { $0.run = Binario_Scheduling_V1_Run(run) }
  }

  public func updateRun(
    request: Binario_Scheduling_V1_UpdateRunRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_UpdateRunResponse {
    let run = try await domain.updateRun(
      tripID: request.run.tripID,
      date: request.run.serviceDate,
      trainNumber: request.trainNumber,
      headsign: request.headsign,
      stops: request.stops.map(RunStopInput.init)
    )
    return .with { $0.run = Binario_Scheduling_V1_Run(run) }
  }

  public func removeRun(
    request: Binario_Scheduling_V1_RemoveRunRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_RemoveRunResponse {
    try await domain.removeRun(
      adminID: try caller().userID,
      tripID: request.run.tripID,
      date: request.run.serviceDate,
      reason: request.reason
    )
    return .init()
  }

  public func listLines(
    request: Binario_Scheduling_V1_ListLinesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListLinesResponse {
    .with { $0.lines = domain.lines().map(Binario_Scheduling_V1_Line.init) }
  }

  public func importTimetable(
    request: Binario_Scheduling_V1_ImportTimetableRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ImportTimetableResponse {
    let summary = try await domain.importTimetable(zip: Array(request.feedZip))
    logger.notice(
      "imported a timetable",
      metadata: ["stations": "\(summary.stations)", "trips": "\(summary.trips)"]
    )
    return .with {
      $0.stations = Int32(summary.stations)
      $0.lines = Int32(summary.lines)
      $0.trips = Int32(summary.trips)
      $0.serviceDays = Int32(summary.serviceDays)
    }
  }

  // MARK: - Internal (ticketing)

  public func followRunFor(
    request: Binario_Scheduling_V1_FollowRunForRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_FollowRunForResponse {
    try await domain.follow(
      userID: try Self.userID(request.userID),
      tripID: request.run.tripID,
      date: request.run.serviceDate
    )
    return .init()
  }

  public func getRuns(
    request: Binario_Scheduling_V1_GetRunsRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetRunsResponse {
    guard request.runs.count <= 100 else { throw ServiceError.invalid("runs", "at most 100 runs") }
    let runs = try request.runs.compactMap { reference -> LiveRun? in
      do {
        return try domain.run(tripID: reference.tripID, date: reference.serviceDate)
      } catch ServiceError.notFound(_) {
        return nil
      }
    }
    return .with { $0.runs = runs.map { Binario_Scheduling_V1_Run($0) } }
  }

  public func watchStations(
    request: Binario_Scheduling_V1_WatchStationsRequest,
    response: RPCWriter<Binario_Scheduling_V1_WatchStationsResponse>,
    context: ServerContext
  ) async throws {
    let watch = domain.watchStations()
    defer { watch.end() }
    try await withRPCCancellationHandler {
      for await stations in watch.stations {
        try await response.write(.with { $0.stations = stations.map(Binario_Scheduling_V1_Station.init) })
      }
    } onCancelRPC: {
      watch.end()
    }
  }

  public func unfollowRunFor(
    request: Binario_Scheduling_V1_UnfollowRunForRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_UnfollowRunForResponse {
    try await domain.unfollow(
      userID: try Self.userID(request.userID),
      tripID: request.run.tripID,
      date: request.run.serviceDate
    )
    return .init()
  }
}

/// The signed-in caller, or `UNAUTHENTICATED`.
func caller() throws -> CallerIdentity {
  try CallerIdentity.signedIn()
}

extension SchedulingHandler {
  /// A user id an internal caller names, or `INVALID_ARGUMENT`.
  static func userID(_ raw: String) throws -> String {
    let id = raw.trimmingCharacters(in: .whitespaces)
    guard !id.isEmpty else { throw ServiceError.invalid("user_id", "a user id is required") }
    return id
  }
}

/// The departures boards' responses as last rendered, by station: a board the domain shows
/// again (same edition) is not built again.
final class RenderedBoards: Sendable {
  private let last = Mutex<[String: (edition: Int, response: Binario_Scheduling_V1_GetDeparturesBoardResponse)]>([:])

  func rendered(
    _ board: DepartureBoard,
    _ render: (DepartureBoard) -> Binario_Scheduling_V1_GetDeparturesBoardResponse
  ) -> Binario_Scheduling_V1_GetDeparturesBoardResponse {
    let key = "\(board.station.id)\u{0}\(board.departures.count)"
    if let kept = last.withLock({ $0[key] }), kept.edition == board.edition { return kept.response }
    let response = render(board)
    last.withLock { $0[key] = (board.edition, response) }
    return response
  }
}
