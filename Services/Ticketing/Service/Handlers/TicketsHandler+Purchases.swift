import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension TicketsHandler {
  public func purchaseTickets(
    request: Binario_Ticketing_V1_PurchaseTicketsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_PurchaseTicketsResponse {
    let caller = try CallerIdentity.signedIn()
    let purchase = try await domain.purchase(
      userID: caller.userID,
      quoteID: request.quoteID,
      idempotencyKey: request.idempotencyKey,
      paymentMethodID: request.paymentMethodID
    )
    let now = self.now
    // Refundable as far as the ticket alone says (the wallet also asks the run's state).
    let shown = purchase.tickets.map { domain.withLiveState($0, runs: [:], now: now) }
    return .with { $0.purchase = .init(purchase, shown: shown, now: now) }
  }

  public func listPurchases(
    request: Binario_Ticketing_V1_ListPurchasesRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ListPurchasesResponse {
    let caller = try CallerIdentity.signedIn()
    var cursor: PurchaseCursor?
    if let parts = try Paging.cursor(request.pageToken, parts: 2, listing: "ListPurchases") {
      guard let seconds = Double(parts[0]) else { throw Paging.invalidToken("ListPurchases") }
      cursor = PurchaseCursor(createdAt: Date(timeIntervalSince1970: seconds), id: parts[1])
    }
    let (purchases, next) = try await domain.purchases(userID: caller.userID, after: cursor, limit: Int(clamping: request.pageSize))
    let now = self.now
    return .with {
      $0.purchases = purchases.map { Binario_Ticketing_V1_Purchase($0, now: now) }
      $0.nextPageToken = next.map { Paging.token(after: [String($0.createdAt.timeIntervalSince1970), $0.id]) } ?? ""
    }
  }

  public func refundTicket(
    request: Binario_Ticketing_V1_RefundTicketRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_RefundTicketResponse {
    let caller = try CallerIdentity.signedIn()
    let (ticket, refunded) = try await domain.refund(userID: caller.userID, ticketID: request.ticketID)
    return .with {
      $0.ticket = .init(ticket, now: now)
      $0.refunded = .init(refunded)
    }
  }
}
