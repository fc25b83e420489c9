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
  public func followRun(
    request: Binario_Scheduling_V1_FollowRunRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_FollowRunResponse {
    try await domain.follow(
      userID: try caller().userID,
      tripID: request.run.tripID,
      date: request.run.serviceDate,
      fromStationID: request.fromStationID,
      toStationID: request.toStationID
    )
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

  public func followRunFor(
    request: Binario_Scheduling_V1_FollowRunForRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_FollowRunForResponse {
    try await domain.follow(
      userID: try Self.userID(request.userID),
      tripID: request.run.tripID,
      date: request.run.serviceDate,
      fromStationID: request.fromStationID,
      toStationID: request.toStationID
    )
    return .init()
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
