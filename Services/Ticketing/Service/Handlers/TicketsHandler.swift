import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

/// The gRPC face of tickets: translates `binario.ticketing.v1.Tickets` messages to
/// ``TicketingDomain`` calls and its errors to statuses. Register it behind
/// ``BinarioAuth/AuthorizationServerInterceptor`` with ``BinarioAuth/MethodAccessPolicy/ticketing``.
public struct TicketsHandler: Binario_Ticketing_V1_Tickets.SimpleServiceProtocol {
  let domain: TicketingDomain
  let codes: SignedTicketCodes

  public init(domain: TicketingDomain, codes: SignedTicketCodes) {
    self.domain = domain
    self.codes = codes
  }

  var now: Date { domain.clock.now() }
}
