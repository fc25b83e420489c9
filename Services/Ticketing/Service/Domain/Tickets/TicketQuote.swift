import BinarioDomain
import Foundation

/// What a person asks a price for.
public enum QuoteRequest: Sendable, Hashable {
  case station(outbound: RunReference, from: String, to: String, returnRun: RunReference?, travelClass: Ticket.TravelClass)
  case zone(zones: String)
  case carnet(zones: String, rides: Int)
  /// `zones`, or else the two stations.
  case pass(
    period: Ticket.PassPeriod,
    startDate: String,
    zones: String,
    from: String,
    to: String,
    travelClass: Ticket.TravelClass
  )
}

/// A priced product, held for a while: what ``TicketingDomain/purchase(userID:quoteID:idempotencyKey:paymentMethodID:)``
/// sells. Each passenger gets a ticket made from ``ticket``.
public struct TicketQuote: Sendable, Hashable, Codable {
  public struct Line: Sendable, Hashable, Codable {
    public var description: String
    public var unitPrice: Money
    public var quantity: Int

    public var amount: Money { Money(amountMinor: unitPrice.amountMinor * Int64(quantity), currency: unitPrice.currency) }
  }

  public var id: String
  public var userID: String
  public var lines: [Line]
  public var passengers: Int
  public var expiresAt: Date
  public var createdAt: Date
  /// One passenger's ticket, without its ids and code yet.
  public var ticket: Ticket
  /// The route offer whose discount the price includes.
  public var routeOffer: AppliedRouteOffer? = nil

  public var total: Money {
    Money(
      amountMinor: lines.reduce(0) { $0 + $1.amount.amountMinor },
      currency: lines.first?.unitPrice.currency ?? ticket.price.currency
    )
  }
}

/// A route offer applied to a quote: the price per passenger before it, and the offer.
public struct AppliedRouteOffer: Sendable, Hashable, Codable {
  public var offer: RouteOfferMatch
  public var fullUnitPrice: Money

  /// `amount` less `percent` %, to the nearest minor unit (halves rounded in the buyer's favour).
  static func discounted(_ amount: Int64, percent: Int) -> Int64 {
    (amount * Int64(100 - percent) + 49) / 100
  }
}
