import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension DispatchHandler {
  public func requestRide(
    request: Binario_Dispatch_V1_RequestRideRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_RequestRideResponse {
    let ride = try await domain.requestRide(
      passengerUserID: try Self.user(),
      pickup: request.hasPickup ? request.pickup.domain : nil,
      destination: request.hasDestination ? request.destination.domain : nil,
      passengers: Int(clamping: request.passengers),
      idempotencyKey: request.idempotencyKey
    )
    return .with { $0.ride = .init(ride) }
  }

  public func getRide(
    request: Binario_Dispatch_V1_GetRideRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_GetRideResponse {
    let value = try await domain.ride(id: request.rideID, passengerUserID: try Self.user())
    return .with { $0.ride = .init(value) }
  }

  public func watchRide(
    request: Binario_Dispatch_V1_WatchRideRequest,
    response: RPCWriter<Binario_Dispatch_V1_WatchRideResponse>,
    context: ServerContext
  ) async throws {
    let userID = try Self.user()
    // Subscribe before reading, so nothing between the read and the first change is missed.
    let feed = domain.feeds.ride(request.rideID)
    defer { feed.end() }
    let ride = try await domain.ride(id: request.rideID, passengerUserID: userID)
    try await response.write(.with { $0.ride = .init(ride) })
    guard ride.state.isOpen || !ride.settled else { return }
    try await withRPCCancellationHandler {
      for await change in feed.changes {
        try await response.write(.with { $0.ride = .init(change) })
        if !change.state.isOpen && change.settled { return }
      }
    } onCancelRPC: {
      feed.end()
    }
  }

  public func cancelRide(
    request: Binario_Dispatch_V1_CancelRideRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_CancelRideResponse {
    let value = try await domain.cancelRide(id: request.rideID, passengerUserID: try Self.user())
    return .with { $0.ride = .init(value) }
  }

  public func listMyRides(
    request: Binario_Dispatch_V1_ListMyRidesRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListMyRidesResponse {
    let page = try await domain.rides(
      passengerUserID: try Self.user(),
      pageSize: Int(clamping: request.pageSize),
      pageToken: request.pageToken
    )
    return .with {
      $0.rides = page.rides.map { Binario_Dispatch_V1_Ride($0) }
      $0.nextPageToken = page.nextPageToken
    }
  }
}
