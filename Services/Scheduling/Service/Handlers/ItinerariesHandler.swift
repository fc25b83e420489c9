import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

/// The gRPC face of shared itineraries (`binario.scheduling.v1.Itineraries`); every method is
/// for a signed-in caller.
public struct ItinerariesHandler: Binario_Scheduling_V1_Itineraries.SimpleServiceProtocol {
  let planner: ItineraryPlanner

  public init(planner: ItineraryPlanner) {
    self.planner = planner
  }

  public func createItinerary(
    request: Binario_Scheduling_V1_CreateItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_CreateItineraryResponse {
    let created = try await planner.create(
      userID: try caller().userID,
      name: request.name,
      destination: request.destination,
      startDate: request.startDate,
      endDate: request.endDate,
      estimatedCostMinor: request.estimatedCost.amountMinor,
      currency: request.estimatedCost.currency
    )
    return .with { $0.itinerary = Binario_Scheduling_V1_Itinerary(created) }
  }

  public func listItineraries(
    request: Binario_Scheduling_V1_ListItinerariesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListItinerariesResponse {
    let all = try await planner.list(userID: try caller().userID)
    return .with { $0.itineraries = all.map(Binario_Scheduling_V1_Itinerary.init) }
  }

  public func getItinerary(
    request: Binario_Scheduling_V1_GetItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetItineraryResponse {
    let details = try await planner.get(userID: try caller().userID, itineraryID: request.itineraryID)
    return .with { $0.itinerary = Binario_Scheduling_V1_Itinerary(details) }
  }

  public func deleteItinerary(
    request: Binario_Scheduling_V1_DeleteItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_DeleteItineraryResponse {
    try await planner.delete(userID: try caller().userID, itineraryID: request.itineraryID)
    return .init()
  }

  public func inviteToItinerary(
    request: Binario_Scheduling_V1_InviteToItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_InviteToItineraryResponse {
    var userID: String?
    var email: String?
    switch request.invitee {
    case .userID(let id): userID = id
    case .email(let address): email = address
    case nil: break
    }
    let invite = try await planner.invite(
      userID: try caller().userID,
      itineraryID: request.itineraryID,
      inviteeUserID: userID,
      email: email
    )
    return .with { $0.invite = Binario_Scheduling_V1_ItineraryInvite(invite) }
  }

  public func listItineraryInvites(
    request: Binario_Scheduling_V1_ListItineraryInvitesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListItineraryInvitesResponse {
    let pending = try await planner.pendingInvites(userID: try caller().userID)
    return .with {
      $0.invites = pending.map { invite, itinerary in
        .with {
          $0.invite = Binario_Scheduling_V1_ItineraryInvite(invite)
          $0.itinerary = Binario_Scheduling_V1_Itinerary(summary: itinerary)
        }
      }
    }
  }

  public func respondToItineraryInvite(
    request: Binario_Scheduling_V1_RespondToItineraryInviteRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_RespondToItineraryInviteResponse {
    let invite = try await planner.respond(userID: try caller().userID, inviteID: request.inviteID, accept: request.accept)
    return .with { $0.invite = Binario_Scheduling_V1_ItineraryInvite(invite) }
  }

  public func leaveItinerary(
    request: Binario_Scheduling_V1_LeaveItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_LeaveItineraryResponse {
    try await planner.leave(userID: try caller().userID, itineraryID: request.itineraryID)
    return .init()
  }

  public func addItineraryEvent(
    request: Binario_Scheduling_V1_AddItineraryEventRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_AddItineraryEventResponse {
    let event = try await planner.addEvent(
      userID: try caller().userID,
      itineraryID: request.itineraryID,
      ItineraryEventDraft(request.event)
    )
    return .with { $0.event = Binario_Scheduling_V1_ItineraryEvent(event) }
  }

  public func updateItineraryEvent(
    request: Binario_Scheduling_V1_UpdateItineraryEventRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_UpdateItineraryEventResponse {
    let event = try await planner.updateEvent(
      userID: try caller().userID,
      itineraryID: request.itineraryID,
      eventID: request.eventID,
      ItineraryEventDraft(request.event)
    )
    return .with { $0.event = Binario_Scheduling_V1_ItineraryEvent(event) }
  }

  public func deleteItineraryEvent(
    request: Binario_Scheduling_V1_DeleteItineraryEventRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_DeleteItineraryEventResponse {
    try await planner.deleteEvent(userID: try caller().userID, itineraryID: request.itineraryID, eventID: request.eventID)
    return .init()
  }
}
