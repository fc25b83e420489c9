import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

/// The gRPC face of dispatch: translates `binario.dispatch.v1.Dispatch` messages to
/// ``DispatchDomain`` calls and its errors to statuses. Register it behind
/// ``BinarioAuth/AuthorizationServerInterceptor`` with ``BinarioAuth/MethodAccessPolicy/dispatch``.
public struct DispatchHandler: Binario_Dispatch_V1_Dispatch.SimpleServiceProtocol {
  let domain: DispatchDomain

  public init(domain: DispatchDomain) {
    self.domain = domain
  }

  static func user() throws -> String {
    try CallerIdentity.signedIn().userID
  }

  // MARK: - Public

  public func listZones(
    request: Binario_Dispatch_V1_ListZonesRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListZonesResponse {
    .with {
      $0.zones = domain.zones.zones.map { Binario_Dispatch_V1_Zone($0, neighbours: domain.zones.neighbours[$0.id] ?? []) }
      $0.tariff = .init(domain.settings.tariff)
    }
  }

  // MARK: - Passengers

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

  public func createReservation(
    request: Binario_Dispatch_V1_CreateReservationRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_CreateReservationResponse {
    let reservation = try await domain.createReservation(
      passengerUserID: try Self.user(),
      pickup: request.hasPickup ? request.pickup.domain : nil,
      destination: request.hasDestination ? request.destination.domain : nil,
      meetingAt: request.hasMeetingAt ? request.meetingAt.date : nil,
      passengers: Int(clamping: request.passengers),
      shared: request.shared,
      idempotencyKey: request.idempotencyKey
    )
    let value = try await self.message(reservation)
    return .with { $0.reservation = value }
  }

  public func updateReservation(
    request: Binario_Dispatch_V1_UpdateReservationRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_UpdateReservationResponse {
    let reservation = try await domain.updateReservation(
      id: request.reservationID,
      passengerUserID: try Self.user(),
      pickup: request.hasPickup ? request.pickup.domain : nil,
      destination: request.hasDestination ? request.destination.domain : nil,
      meetingAt: request.hasMeetingAt ? request.meetingAt.date : nil,
      passengers: request.passengers == 0 ? nil : Int(clamping: request.passengers),
      shared: request.hasShared ? request.shared : nil
    )
    let value = try await self.message(reservation)
    return .with { $0.reservation = value }
  }

  public func deleteReservation(
    request: Binario_Dispatch_V1_DeleteReservationRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_DeleteReservationResponse {
    let reservation = try await domain.deleteReservation(id: request.reservationID, passengerUserID: try Self.user())
    let value = try await self.message(reservation)
    return .with { $0.reservation = value }
  }

  public func listReservations(
    request: Binario_Dispatch_V1_ListReservationsRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListReservationsResponse {
    let reservations = try await domain.reservations(passengerUserID: try Self.user())
    let companions = try await domain.companions(of: reservations)
    return .with {
      $0.reservations = reservations.map {
        Binario_Dispatch_V1_Reservation($0, sharingWith: companions[$0.id] ?? 0, editableUntil: domain.editableUntil($0))
      }
    }
  }

  func message(_ reservation: Reservation) async throws -> Binario_Dispatch_V1_Reservation {
    let companions = try await domain.companions(of: [reservation])
    return .init(reservation, sharingWith: companions[reservation.id] ?? 0, editableUntil: domain.editableUntil(reservation))
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

  public func listRecentAddresses(
    request: Binario_Dispatch_V1_ListRecentAddressesRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListRecentAddressesResponse {
    let values = try await domain.recentAddresses(passengerUserID: try Self.user())
    return .with { $0.places = values.map { Binario_Dispatch_V1_Place($0) } }
  }

  public func savePlace(
    request: Binario_Dispatch_V1_SavePlaceRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_SavePlaceResponse {
    guard request.place.hasPosition else { throw ServiceError.invalid("place.position", "a position is required") }
    let place = try await domain.savePlace(userID: try Self.user(), name: request.place.name, position: request.place.position.point)
    return .with { $0.place = .init(place) }
  }

  public func listSavedPlaces(
    request: Binario_Dispatch_V1_ListSavedPlacesRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListSavedPlacesResponse {
    let values = try await domain.savedPlaces(userID: try Self.user())
    return .with { $0.places = values.map(Binario_Dispatch_V1_SavedPlace.init) }
  }

  public func deleteSavedPlace(
    request: Binario_Dispatch_V1_DeleteSavedPlaceRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_DeleteSavedPlaceResponse {
    try await domain.deleteSavedPlace(userID: try Self.user(), name: request.name)
    return .init()
  }

  // MARK: - Drivers

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
    let taxi = try await domain.reportPosition(
      driverUserID: try Self.user(),
      position: request.position.point,
      reportedAt: request.hasReportedAt ? request.reportedAt.date : nil
    )
    return .with { $0.taxi = .init(taxi) }
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
        try await response.write(
          .with {
            switch event {
            case .offer(let job): $0.offer = .init(job)
            case .offerWithdrawn(let offerID, let reason):
              $0.offerWithdrawn = .with {
                $0.offerID = offerID
                $0.reason = reason
              }
            case .ride(let ride): $0.ride = .init(forDriver: ride)
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
    return .with { $0.ride = .init(forDriver: value) }
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
    return .with { $0.ride = .init(forDriver: ride) }
  }

  public func reportArrived(
    request: Binario_Dispatch_V1_ReportArrivedRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ReportArrivedResponse {
    let value = try await domain.reportArrived(driverUserID: try Self.user(), rideID: request.rideID)
    return .with { $0.ride = .init(forDriver: value) }
  }

  public func startRide(
    request: Binario_Dispatch_V1_StartRideRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_StartRideResponse {
    let ride = try await domain.startRide(driverUserID: try Self.user(), rideID: request.rideID, passengerCode: request.passengerCode)
    return .with { $0.ride = .init(forDriver: ride) }
  }

  public func completeRide(
    request: Binario_Dispatch_V1_CompleteRideRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_CompleteRideResponse {
    let value = try await domain.completeRide(driverUserID: try Self.user(), rideID: request.rideID)
    return .with { $0.ride = .init(forDriver: value) }
  }

  // MARK: - Admin

  public func createTaxi(
    request: Binario_Dispatch_V1_CreateTaxiRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_CreateTaxiResponse {
    let taxi = try await domain.createTaxi(
      code: request.taxi.code,
      plate: request.taxi.plate,
      capacity: Int(clamping: request.taxi.capacity),
      driverUserID: request.taxi.driverUserID
    )
    return .with { $0.taxi = .init(taxi) }
  }

  public func updateTaxi(
    request: Binario_Dispatch_V1_UpdateTaxiRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_UpdateTaxiResponse {
    let taxi = request.taxi
    let updated = try await domain.updateTaxi(
      code: taxi.code,
      plate: taxi.plate.isEmpty ? nil : taxi.plate,
      capacity: taxi.capacity == 0 ? nil : Int(clamping: taxi.capacity),
      driverUserID: taxi.driverUserID
    )
    return .with { $0.taxi = .init(updated) }
  }

  public func deleteTaxi(
    request: Binario_Dispatch_V1_DeleteTaxiRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_DeleteTaxiResponse {
    try await domain.deleteTaxi(code: request.code)
    return .init()
  }

  public func listTaxis(
    request: Binario_Dispatch_V1_ListTaxisRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListTaxisResponse {
    let values = try await domain.taxis()
    return .with { $0.taxis = values.map { Binario_Dispatch_V1_Taxi($0.taxi, driverName: $0.driverName) } }
  }

  public func getMonitorSnapshot(
    request: Binario_Dispatch_V1_GetMonitorSnapshotRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_GetMonitorSnapshotResponse {
    let value = try await domain.monitorSnapshot()
    return .with { $0.snapshot = .init(value) }
  }

  public func watchMonitor(
    request: Binario_Dispatch_V1_WatchMonitorRequest,
    response: RPCWriter<Binario_Dispatch_V1_WatchMonitorResponse>,
    context: ServerContext
  ) async throws {
    let feed = domain.feeds.monitor()
    defer { feed.end() }
    try await withRPCCancellationHandler {
      var last: MonitorSnapshot?
      var signals = feed.signals.makeAsyncIterator()
      repeat {
        let snapshot = try await domain.monitorSnapshot()
        // Positions alone do not change the control room's picture; skip a snapshot equal but
        // for its time.
        if var previous = last {
          previous.takenAt = snapshot.takenAt
          if previous == snapshot { continue }
        }
        last = snapshot
        try await response.write(.with { $0.snapshot = .init(snapshot) })
      } while await signals.next() != nil
    } onCancelRPC: {
      feed.end()
    }
  }
}
