import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension DispatchHandler {
  public func getMyTaxi(
    request: Binario_Dispatch_V1_GetMyTaxiRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_GetMyTaxiResponse {
    let mine = try await domain.myTaxi(driverUserID: try Self.user())
    return .with {
      $0.taxi = .init(mine.taxi)
      if let offer = mine.offer { $0.offer = .init(offer) }
      if let ride = mine.ride { $0.ride = .init(forDriver: ride) }
    }
  }

  public func setAvailability(
    request: Binario_Dispatch_V1_SetAvailabilityRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_SetAvailabilityResponse {
    let taxi = try await domain.setAvailability(driverUserID: try Self.user(), available: request.available, reason: request.reason)
    return .with { $0.taxi = .init(taxi) }
  }

  public func reportPosition(
    request: Binario_Dispatch_V1_ReportPositionRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ReportPositionResponse {
    guard request.hasPosition else { throw ServiceError.invalid("position", "a position is required") }
    let report = try await domain.reportPosition(
      driverUserID: try Self.user(),
      position: request.position.point,
      reportedAt: request.hasReportedAt ? request.reportedAt.date : nil,
      accuracyMetres: request.hasAccuracyMetres ? request.accuracyMetres : nil
    )
    return .with {
      $0.taxi = .init(report.taxi)
      $0.used = report.verdict == .used
      $0.ignoredReason = report.verdict == .used ? "" : report.verdict.rawValue
    }
  }

  public func watchJobs(
    request: Binario_Dispatch_V1_WatchJobsRequest,
    response: RPCWriter<Binario_Dispatch_V1_WatchJobsResponse>,
    context: ServerContext
  ) async throws {
    let userID = try Self.user()
    let code = try await domain.myTaxi(driverUserID: userID).taxi.code
    // Subscribe before reading the current state: nothing in between is missed (an event
    // already shown in the snapshot may come again; a client keeps the latest).
    let feed = domain.feeds.driver(code)
    defer { feed.end() }
    let mine = try await domain.myTaxi(driverUserID: userID)
    try await response.write(.with { $0.taxi = .init(mine.taxi) })
    if let ride = mine.ride { try await response.write(.with { $0.ride = .init(forDriver: ride) }) }
    if let offer = mine.offer { try await response.write(.with { $0.offer = .init(offer) }) }
    try await withRPCCancellationHandler {
      for await event in feed.events {
        // A driver unlinked from the taxi stops hearing of its jobs.
        if case .taxi(let taxi) = event, taxi.driverUserID != userID { return }
        var shown = Ride?.none
        if case .ride(let ride) = event { shown = try await domain.driverView(ride) }
        try await response.write(
          .with {
            switch event {
            case .offer(let job): $0.offer = .init(job)
            case .offerWithdrawn(let offerID, let reason):
              $0.offerWithdrawn = .with {
                $0.offerID = offerID
                $0.reason = reason
              }
            case .ride: $0.ride = .init(forDriver: shown!)
            case .taxi(let taxi): $0.taxi = .init(taxi)
            }
          }
        )
      }
    } onCancelRPC: {
      feed.end()
    }
  }

  public func acceptOffer(
    request: Binario_Dispatch_V1_AcceptOfferRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_AcceptOfferResponse {
    let value = try await domain.accept(driverUserID: try Self.user(), offerID: request.offerID)
    let shown = try await domain.driverView(value)
    return .with { $0.ride = .init(forDriver: shown) }
  }

  public func rejectOffer(
    request: Binario_Dispatch_V1_RejectOfferRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_RejectOfferResponse {
    let value = try await domain.reject(driverUserID: try Self.user(), offerID: request.offerID)
    return .with { $0.taxi = .init(value) }
  }

  public func reportDelay(
    request: Binario_Dispatch_V1_ReportDelayRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ReportDelayResponse {
    let ride = try await domain.reportDelay(driverUserID: try Self.user(), rideID: request.rideID, minutes: Int(clamping: request.minutes))
    let shown = try await domain.driverView(ride)
    return .with { $0.ride = .init(forDriver: shown) }
  }

  public func reportArrived(
    request: Binario_Dispatch_V1_ReportArrivedRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ReportArrivedResponse {
    let value = try await domain.reportArrived(driverUserID: try Self.user(), rideID: request.rideID)
    let shown = try await domain.driverView(value)
    return .with { $0.ride = .init(forDriver: shown) }
  }

  public func startRide(
    request: Binario_Dispatch_V1_StartRideRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_StartRideResponse {
    let ride = try await domain.startRide(driverUserID: try Self.user(), rideID: request.rideID, passengerCode: request.passengerCode)
    let shown = try await domain.driverView(ride)
    return .with { $0.ride = .init(forDriver: shown) }
  }

  public func completeRide(
    request: Binario_Dispatch_V1_CompleteRideRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_CompleteRideResponse {
    let value = try await domain.completeRide(driverUserID: try Self.user(), rideID: request.rideID)
    let shown = try await domain.driverView(value)
    return .with { $0.ride = .init(forDriver: shown) }
  }

  public func reportNoShow(
    request: Binario_Dispatch_V1_ReportNoShowRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ReportNoShowResponse {
    let ride = try await domain.reportNoShow(driverUserID: try Self.user(), rideID: request.rideID, reservationID: request.reservationID)
    let shown = try await domain.driverView(ride)
    return .with { $0.ride = .init(forDriver: shown) }
  }

  public func giveUpRide(
    request: Binario_Dispatch_V1_GiveUpRideRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_GiveUpRideResponse {
    let ride = try await domain.giveUpRide(driverUserID: try Self.user(), rideID: request.rideID, reason: request.reason)
    let shown = try await domain.driverView(ride)
    return .with { $0.ride = .init(forDriver: shown) }
  }
}
