import BinarioDomain
import Foundation

/// What a person asks a price for.
public enum QuoteRequest: Sendable, Hashable {
  /// A station ticket: the trains of the way out, in order (one for a direct train), and of the
  /// way back (none for one way).
  case station(legs: [TicketLeg], returnLegs: [TicketLeg], travelClass: Ticket.TravelClass)
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

extension QuoteRequest {
  /// A station ticket on one direct train each way.
  public static func station(
    outbound: RunReference,
    from: String,
    to: String,
    returnRun: RunReference?,
    travelClass: Ticket.TravelClass
  ) -> QuoteRequest {
    .station(
      legs: [TicketLeg(run: outbound, from: from, to: to, fields: .direct)],
      returnLegs: returnRun.map { [TicketLeg(run: $0, from: to, to: from, fields: .directReturn)] } ?? [],
      travelClass: travelClass
    )
  }
}

/// One train of a station ticket's way, as asked for: a run, boarded at one station and left
/// at a later one.
public struct TicketLeg: Sendable, Hashable {
  /// The request's fields this leg came from, for errors that name them.
  public struct Fields: Sendable, Hashable {
    public var run: String
    public var from: String
    public var to: String

    public init(run: String, from: String, to: String) {
      self.run = run
      self.from = from
      self.to = to
    }

    /// The way out of a direct ticket (`run`, `from_station_id`, `to_station_id`).
    public static let direct = Fields(run: "station.run", from: "station.from_station_id", to: "station.to_station_id")
    /// The way back of a direct return ticket: `return_run`, between the same two stations.
    public static let directReturn = Fields(run: "station.return_run", from: "station.to_station_id", to: "station.from_station_id")

    /// The leg at `index` of a list of legs (`station.legs[1].run`, ...).
    public static func leg(_ index: Int, of list: String) -> Fields {
      let prefix = "station.\(list)[\(index)]"
      return Fields(run: "\(prefix).run", from: "\(prefix).from_station_id", to: "\(prefix).to_station_id")
    }
  }

  public var run: RunReference
  public var fromStationID: String
  public var toStationID: String
  public var fields: Fields

  public init(run: RunReference, from: String, to: String, fields: Fields) {
    self.run = run
    self.fromStationID = from
    self.toStationID = to
    self.fields = fields
  }
}

/// A priced product, held for a while: what ``TicketingDomain/purchase(userID:quoteID:idempotencyKey:paymentMethodID:)``
/// sells. Each passenger gets a ticket made from ``ticket``.
public struct TicketQuote: Sendable, Hashable, Codable {
  public struct Line: Sendable, Hashable, Codable {
    public var description: String
    public var unitPrice: Money
    public var quantity: Int
    /// `description` in the languages besides English, by code.
    public var translations: [String: String]? = nil

    public var descriptionWords: TranslatedText {
      TranslatedText(english: description, translations: translations ?? [:])
    }

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
