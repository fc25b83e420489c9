import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import Logging
import SwiftProtobuf
import Synchronization

extension SchedulingHandler {
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
        $0.notices = board.notices.map(self.proto)
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
          $0.notices = board.notices.map(self.proto)
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
