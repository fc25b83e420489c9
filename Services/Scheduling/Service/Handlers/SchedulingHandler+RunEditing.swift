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
}
