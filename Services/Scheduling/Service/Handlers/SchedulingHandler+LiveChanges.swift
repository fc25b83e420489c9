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
}
