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
    let journeys = try await domain.journeys(
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
    let notices = try domain.notices(for: run)
    return .with {
      $0.run = Binario_Scheduling_V1_Run(run)
      $0.notices = notices.map(self.proto)
    }
  }

  public func listLines(
    request: Binario_Scheduling_V1_ListLinesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListLinesResponse {
    .with { $0.lines = domain.lines().map(Binario_Scheduling_V1_Line.init) }
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
}
