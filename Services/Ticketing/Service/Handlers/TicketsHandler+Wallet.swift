import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension TicketsHandler {
  public func listWallet(
    request: Binario_Ticketing_V1_ListWalletRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ListWalletResponse {
    let caller = try CallerIdentity.signedIn()
    let tickets = try await domain.wallet(userID: caller.userID)
    let now = self.now
    return .with { $0.tickets = tickets.map { Binario_Ticketing_V1_Ticket($0, now: now) } }
  }

  public func getTicket(
    request: Binario_Ticketing_V1_GetTicketRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetTicketResponse {
    let caller = try CallerIdentity.signedIn()
    let ticket = try await domain.ticket(userID: caller.userID, ticketID: request.ticketID)
    return .with { $0.ticket = .init(ticket, now: now) }
  }

  public func listDepartingTickets(
    request: Binario_Ticketing_V1_ListDepartingTicketsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ListDepartingTicketsResponse {
    guard request.hasDepartingAfter, request.hasDepartingBefore, request.departingAfter.date < request.departingBefore.date
    else {
      throw ServiceError.invalid("departing_before", "a window: departing_after, then a later departing_before")
    }
    let tickets = try await domain.departingTickets(
      userID: request.userID,
      stationID: request.stationID,
      window: request.departingAfter.date ..< request.departingBefore.date
    )
    return .with {
      $0.tickets = tickets.map { ticket in
        .with {
          $0.ticketID = ticket.ticketID
          $0.journey = .init(ticket.journey, live: nil)
          $0.destinationStationID = ticket.lastLeg.toStationID
          $0.destinationStationName = ticket.lastLeg.toStationName
        }
      }
    }
  }
}
