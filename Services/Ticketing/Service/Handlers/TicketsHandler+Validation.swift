import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension TicketsHandler {
  public func getValidationKeys(
    request: Binario_Ticketing_V1_GetValidationKeysRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetValidationKeysResponse {
    .with {
      $0.keys = codes.publicKeys.map { key in
        .with {
          $0.keyID = key.id
          $0.algorithm = "Ed25519"
          $0.publicKey = key.rawKey
        }
      }
    }
  }

  public func validateTicket(
    request: Binario_Ticketing_V1_ValidateTicketRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ValidateTicketResponse {
    let caller = try CallerIdentity.signedIn()
    let (ticket, validation) = try await domain.validate(code: request.code, inspectorID: caller.userID)
    return .with {
      $0.ticket = .init(ticket, now: now)
      $0.ride = UInt32(validation.ride)
      if let activeUntil = validation.activeUntil { $0.activeUntil = Google_Protobuf_Timestamp(date: activeUntil) }
    }
  }

  public func inspectTicket(
    request: Binario_Ticketing_V1_InspectTicketRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_InspectTicketResponse {
    let (ticket, mayTravel, reason) = try await domain.inspect(code: request.code)
    return .with {
      $0.ticket = .init(ticket, now: now)
      $0.mayTravel = mayTravel
      $0.reason = reason
    }
  }
}
