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

  private var now: Date { domain.clock.now() }

  // MARK: - Public

  public func getFareTable(
    request: Binario_Ticketing_V1_GetFareTableRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetFareTableResponse {
    .init(try await domain.fareTable())
  }

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

  // MARK: - Signed in

  public func quoteTicket(
    request: Binario_Ticketing_V1_QuoteTicketRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_QuoteTicketResponse {
    let caller = try CallerIdentity.signedIn()
    let product: QuoteRequest
    switch request.product {
    case .station(let station):
      product = .station(
        outbound: station.run.reference,
        from: station.fromStationID,
        to: station.toStationID,
        returnRun: station.hasReturnRun ? station.returnRun.reference : nil,
        travelClass: .init(station.travelClass)
      )
    case .zone(let zone):
      product = .zone(zones: zone.zones)
    case .carnet(let carnet):
      product = .carnet(zones: carnet.zones, rides: Int(carnet.rides))
    case .pass(let pass):
      guard let period = Ticket.PassPeriod(pass.period) else {
        throw ServiceError.invalid("pass.period", "monthly or yearly")
      }
      product = .pass(
        period: period,
        startDate: pass.startDate,
        zones: pass.zones,
        from: pass.fromStationID,
        to: pass.toStationID,
        travelClass: .init(pass.travelClass)
      )
    case nil:
      throw ServiceError.invalid("product", "a station ticket, zone ticket, carnet or pass is required")
    }
    let quote = try await domain.quote(userID: caller.userID, product, passengers: Int(clamping: request.passengers))
    return .with { $0.quote = .init(quote) }
  }

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

  public func listWallet(
    request: Binario_Ticketing_V1_ListWalletRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ListWalletResponse {
    let caller = try CallerIdentity.signedIn()
    let tickets = try await domain.wallet(userID: caller.userID)
    let now = self.now
    return .with { $0.tickets = tickets.map { Binario_Ticketing_V1_Ticket($0, now: now) } }
  }

  public func listPurchases(
    request: Binario_Ticketing_V1_ListPurchasesRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ListPurchasesResponse {
    let caller = try CallerIdentity.signedIn()
    var cursor: PurchaseCursor?
    if !request.pageToken.isEmpty {
      guard let decoded = PurchasePageToken.decode(request.pageToken) else {
        throw ServiceError.invalid("page_token", "not a page token ListPurchases gave")
      }
      cursor = decoded
    }
    let (purchases, next) = try await domain.purchases(userID: caller.userID, after: cursor, limit: Int(clamping: request.pageSize))
    let now = self.now
    return .with {
      $0.purchases = purchases.map { Binario_Ticketing_V1_Purchase($0, now: now) }
      $0.nextPageToken = next.map(PurchasePageToken.encode) ?? ""
    }
  }

  public func getTicket(
    request: Binario_Ticketing_V1_GetTicketRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetTicketResponse {
    let caller = try CallerIdentity.signedIn()
    let ticket = try await domain.ticket(userID: caller.userID, ticketID: request.ticketID)
    return .with { $0.ticket = .init(ticket, now: now) }
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

  // MARK: - Inspector

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
  // MARK: - Internal

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
        }
      }
    }
  }

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
