import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension TicketsHandler {
  public func quoteTicket(
    request: Binario_Ticketing_V1_QuoteTicketRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_QuoteTicketResponse {
    let caller = try CallerIdentity.signedIn()
    let product: QuoteRequest
    switch request.product {
    case .station(let station):
      // The direct form, or the legs of a journey with changes (each way on its own).
      let legs =
        station.legs.isEmpty
        ? [TicketLeg(run: station.run.reference, from: station.fromStationID, to: station.toStationID, fields: .direct)]
        : station.legs.enumerated().map { TicketLeg($1, fields: .leg($0, of: "legs")) }
      var returnLegs = station.returnLegs.enumerated().map { TicketLeg($1, fields: .leg($0, of: "return_legs")) }
      if returnLegs.isEmpty && station.hasReturnRun {
        let (from, to) = (legs.last?.toStationID ?? "", legs.first?.fromStationID ?? "")
        returnLegs = [TicketLeg(run: station.returnRun.reference, from: from, to: to, fields: .directReturn)]
      }
      product = .station(legs: legs, returnLegs: returnLegs, travelClass: .init(station.travelClass))
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
}

extension TicketLeg {
  init(_ leg: Binario_Ticketing_V1_TicketLeg, fields: Fields) {
    self.init(run: leg.run.reference, from: leg.fromStationID, to: leg.toStationID, fields: fields)
  }
}
