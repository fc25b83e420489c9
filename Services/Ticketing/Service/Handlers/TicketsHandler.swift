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

/// ListPurchases' page token: where the last page ended, base64url so clients treat it as opaque.
enum PurchasePageToken {
  static func encode(_ cursor: PurchaseCursor) -> String {
    Base64URL.encode(Array("v1:\(cursor.createdAt.timeIntervalSince1970):\(cursor.id)".utf8))
  }

  static func decode(_ token: String) -> PurchaseCursor? {
    guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8) else { return nil }
    let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
    guard parts.count == 3, parts[0] == "v1", let seconds = Double(parts[1]) else { return nil }
    return PurchaseCursor(createdAt: Date(timeIntervalSince1970: seconds), id: parts[2])
  }

}
