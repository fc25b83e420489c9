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
    let rides = try await domain.requestRide(
      passengerUserID: try Self.user(),
      pickup: request.hasPickup ? request.pickup.domain : nil,
      destination: request.hasDestination ? request.destination.domain : nil,
      passengers: Int(clamping: request.passengers),
      idempotencyKey: request.idempotencyKey
    )
    return .with {
      $0.ride = .init(rides[0])
      if rides.count > 1 { $0.party = rides.map { Binario_Dispatch_V1_Ride($0) } }
    }
  }

  public func estimateRide(
    request: Binario_Dispatch_V1_EstimateRideRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_EstimateRideResponse {
    let estimate = try await domain.estimateRide(
      passengerUserID: try Self.user(),
      pickup: request.hasPickup ? request.pickup.domain : nil,
      destination: request.hasDestination ? request.destination.domain : nil,
      passengers: Int(clamping: request.passengers)
    )
    let tariff = domain.settings.tariff
    return .with {
      $0.pickup = .init(estimate.pickup)
      if let destination = estimate.destination { $0.destination = .init(destination) }
      if let fare = estimate.fareMinor { $0.estimatedFare = .init(minor: fare, currency: estimate.currency) }
      $0.taxis = UInt32(estimate.taxis)
      if let eta = estimate.pickupETA { $0.pickupEta = .init(date: eta) }
      $0.taxisFreeNearby = UInt32(estimate.freeNearby)
      $0.freeCancellationSeconds = UInt32(tariff.freeCancellationSeconds)
      $0.cancellationFee = .init(minor: tariff.cancellationFeeMinor, currency: tariff.currency)
    }
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
        // Each rider sees their own side of it (a shared ride's member their code and share).
        let mine = try await domain.watched(change, by: userID)
        try await response.write(.with { $0.ride = .init(mine) })
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
