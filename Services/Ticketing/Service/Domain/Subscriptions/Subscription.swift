import BinarioDomain
import Foundation

/// How often a subscription renews.
public enum SubscriptionPeriod: String, Sendable, Hashable, CaseIterable {
  case weekly, monthly, quarterly, yearly

  /// The period for a person ("monthly", "mensile").
  public var words: PersonText {
    switch self {
    case .weekly: return "weekly"
    case .monthly: return "monthly"
    case .quarterly: return "quarterly"
    case .yearly: return "yearly"
    }
  }

  /// How many periods make a year: what spend is normalised by.
  public var perYear: Int64 {
    switch self {
    case .weekly: return 52
    case .monthly: return 12
    case .quarterly: return 4
    case .yearly: return 1
    }
  }
}

/// SubscribeME's categories, and Transport (train and transit passes), which SubscribeME does not
/// have.
public enum SubscriptionCategory: String, Sendable, Hashable, CaseIterable {
  case moviesAndTV, music, shopping, tech, other, transport
}

/// What a person tells about a subscription.
public struct SubscriptionDetails: Sendable, Hashable {
  public var serviceName: String
  public var customServiceName: Bool
  public var planType: String
  public var customPlanType: Bool
  public var startDate: CalendarDate
  public var period: SubscriptionPeriod
  /// Per period.
  public var price: Money
  /// Empty, or the last four digits of the card it is paid with.
  public var cardLast4: String
  public var automaticRenewal: Bool
  public var category: SubscriptionCategory

  public init(
    serviceName: String,
    customServiceName: Bool,
    planType: String,
    customPlanType: Bool,
    startDate: CalendarDate,
    period: SubscriptionPeriod,
    price: Money,
    cardLast4: String,
    automaticRenewal: Bool,
    category: SubscriptionCategory
  ) {
    self.serviceName = serviceName
    self.customServiceName = customServiceName
    self.planType = planType
    self.customPlanType = customPlanType
    self.startDate = startDate
    self.period = period
    self.price = price
    self.cardLast4 = cardLast4
    self.automaticRenewal = automaticRenewal
    self.category = category
  }

  /// The fixed lists a name or plan type is chosen from (else it is custom).
  public static let serviceNames = [
    "Amazon Prime", "Apple Music", "Apple TV+", "DAZN", "Disney+", "Google One", "iCloud+", "Microsoft 365", "Netflix",
    "NOW", "Paramount+", "PlayStation Plus", "Spotify", "Tidal", "Xbox Game Pass", "YouTube Premium",
  ]
  public static let planTypes = ["individual", "student", "family", "duo", "business", "trial"]
}

/// A subscription with its owner, the friends it is shared with, and its next renewal.
public struct Subscription: Sendable, Hashable {
  public var id: String
  public var ownerID: String
  public var details: SubscriptionDetails
  public var memberIDs: [String]
  /// The next day it renews (or, without automatic renewal, is due).
  public var nextRenewal: CalendarDate
  /// A pass bought in the wallet; it changes with its ticket only.
  public var ticketID: String?
  public var createdAt: Date

  public init(
    id: String,
    ownerID: String,
    details: SubscriptionDetails,
    memberIDs: [String],
    nextRenewal: CalendarDate,
    ticketID: String?,
    createdAt: Date
  ) {
    self.id = id
    self.ownerID = ownerID
    self.details = details
    self.memberIDs = memberIDs
    self.nextRenewal = nextRenewal
    self.ticketID = ticketID
    self.createdAt = createdAt
  }

  /// The price split among the owner and members, exactly: the owner first (any remainder is theirs).
  public var shares: [(userID: String, share: Money)] {
    let parts = details.price.split(into: 1 + memberIDs.count)
    return zip([ownerID] + memberIDs, parts).map { ($0, $1) }
  }

  public func share(of userID: String) -> Money {
    shares.first { $0.userID == userID }?.share ?? Money(amountMinor: 0, currency: details.price.currency)
  }

  /// The first renewal on or after `today`, counting from the start date.
  public static func firstRenewal(start: CalendarDate, period: SubscriptionPeriod, onOrAfter today: CalendarDate) -> CalendarDate {
    var step = 1
    var date = renewal(start: start, period: period, number: step)
    while date < today {
      step += 1
      // From the start each time, so month ends do not drift (Jan 31 → Feb 28 → Mar 31).
      date = Self.renewal(start: start, period: period, number: step)
    }
    return date
  }

  /// The `number`th renewal after `start` (1: the first).
  static func renewal(start: CalendarDate, period: SubscriptionPeriod, number: Int) -> CalendarDate {
    switch period {
    case .weekly: return start.adding(days: 7 * number)
    case .monthly: return start.adding(months: number)
    case .quarterly: return start.adding(months: 3 * number)
    case .yearly: return start.adding(months: 12 * number)
    }
  }
}
