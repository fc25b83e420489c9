import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension DispatchHandler {
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
    let listed = try await domain.reservationsToComeAndPast(passengerUserID: try Self.user())
    let companions = try await domain.companions(of: listed.toCome + listed.past)
    return .with {
      $0.reservations = listed.toCome.map {
        Binario_Dispatch_V1_Reservation($0, sharingWith: companions[$0.id] ?? 0, editableUntil: domain.editableUntil($0))
      }
      $0.past = listed.past.map {
        Binario_Dispatch_V1_Reservation($0, sharingWith: companions[$0.id] ?? 0, editableUntil: domain.editableUntil($0))
      }
    }
  }

  func message(_ reservation: Reservation) async throws -> Binario_Dispatch_V1_Reservation {
    let companions = try await domain.companions(of: [reservation])
    return .init(reservation, sharingWith: companions[reservation.id] ?? 0, editableUntil: domain.editableUntil(reservation))
  }
}
