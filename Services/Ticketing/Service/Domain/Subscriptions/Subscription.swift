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
  /// A free trial's last day: the day of the first charge.
  public var trialEndsOn: CalendarDate?
  /// Days before each date its people are reminded; `nil`: the owner's default.
  public var reminderDays: Int?

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
    category: SubscriptionCategory,
    trialEndsOn: CalendarDate? = nil,
    reminderDays: Int? = nil
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
    self.trialEndsOn = trialEndsOn
    self.reminderDays = reminderDays
  }

  /// The fixed lists a name or plan type is chosen from (else it is custom).
  public static let serviceNames = [
    "Amazon Prime", "Apple Music", "Apple TV+", "DAZN", "Disney+", "Google One", "iCloud+", "Microsoft 365", "Netflix",
    "NOW", "Paramount+", "PlayStation Plus", "Spotify", "Tidal", "Xbox Game Pass", "YouTube Premium",
  ]
  public static let planTypes = ["individual", "student", "family", "duo", "business", "trial"]
}

/// A subscription with its owner, the friends it is shared with, and its next renewal.
///
/// Its charge dates: a free trial's last day and every period after it; without a trial, every
/// period after the start date (the start's own payment is made on subscribing). Counted from the
/// first date each time, so month ends do not drift (Jan 31 → Feb 28 → Mar 31).
public struct Subscription: Sendable, Hashable {
  public var id: String
  public var ownerID: String
  public var details: SubscriptionDetails
  public var memberIDs: [String]
  /// The next day it renews; paid by hand, the oldest date not paid yet.
  public var nextRenewal: CalendarDate
  /// A pass bought in the wallet; it changes with its ticket only.
  public var ticketID: String?
  public var createdAt: Date
  /// Paused since this day: nothing falls due, nothing is reminded.
  public var pausedOn: CalendarDate?
  /// The last day: a cancelled subscription's, or a pass's.
  public var endsOn: CalendarDate?

  /// Where a subscription is in its life.
  public enum Status: String, Sendable, Hashable {
    case active, trial, paused
    /// Cancelled and still running until its end date.
    case cancelled
    /// Past its end date.
    case ended
  }

  public init(
    id: String,
    ownerID: String,
    details: SubscriptionDetails,
    memberIDs: [String],
    nextRenewal: CalendarDate,
    ticketID: String?,
    createdAt: Date,
    pausedOn: CalendarDate? = nil,
    endsOn: CalendarDate? = nil
  ) {
    self.id = id
    self.ownerID = ownerID
    self.details = details
    self.memberIDs = memberIDs
    self.nextRenewal = nextRenewal
    self.ticketID = ticketID
    self.createdAt = createdAt
    self.pausedOn = pausedOn
    self.endsOn = endsOn
  }

  public func status(on today: CalendarDate) -> Status {
    if let endsOn, today > endsOn { return .ended }
    if pausedOn != nil { return .paused }
    if ticketID == nil, endsOn != nil { return .cancelled }
    if let trial = details.trialEndsOn, today < trial { return .trial }
    return .active
  }

  /// Whether it is in what the person spends from now on: running and not cancelled (a free
  /// trial at the price it converts to, which is what it will cost unless cancelled in time).
  public func isRecurring(on today: CalendarDate) -> Bool {
    switch status(on: today) {
    case .active, .trial: return true
    case .paused, .cancelled, .ended: return false
    }
  }

  /// Whether `nextRenewal` is a date it still renews on (not paused, not past its end).
  public var renewsOnNextDate: Bool {
    pausedOn == nil && (endsOn.map { nextRenewal <= $0 } ?? true)
  }

  /// Paid by hand, its next date reached and not paid (a cancelled subscription's last dates
  /// too; nothing while paused).
  public func isDue(on today: CalendarDate) -> Bool {
    !details.automaticRenewal && ticketID == nil && renewsOnNextDate && nextRenewal <= today
  }

  /// Days since the date due, when it is due (0 on the day itself).
  public func daysOverdue(on today: CalendarDate) -> Int {
    isDue(on: today) ? nextRenewal.days(until: today) : 0
  }

  /// The first charge date on or after `today`.
  public func firstCharge(onOrAfter today: CalendarDate) -> CalendarDate {
    Self.firstCharge(details, onOrAfter: today)
  }

  /// The charge date after `date`.
  public func charge(after date: CalendarDate) -> CalendarDate {
    Self.firstCharge(details, onOrAfter: date.adding(days: 1))
  }

  static func firstCharge(_ details: SubscriptionDetails, onOrAfter today: CalendarDate) -> CalendarDate {
    let first = details.trialEndsOn ?? details.startDate
    var number = details.trialEndsOn == nil ? 1 : 0
    var date = renewal(start: first, period: details.period, number: number)
    while date < today {
      number += 1
      date = renewal(start: first, period: details.period, number: number)
    }
    return date
  }

  /// The price split among the owner and members, exactly: the owner first (any remainder is theirs).
  public var shares: [(userID: String, share: Money)] {
    let parts = details.price.split(into: 1 + memberIDs.count)
    return zip([ownerID] + memberIDs, parts).map { ($0, $1) }
  }

  public func share(of userID: String) -> Money {
    shares.first { $0.userID == userID }?.share ?? Money(amountMinor: 0, currency: details.price.currency)
  }

  /// The `number`th renewal after `start` (1: the first; 0: `start`).
  static func renewal(start: CalendarDate, period: SubscriptionPeriod, number: Int) -> CalendarDate {
    switch period {
    case .weekly: return start.adding(days: 7 * number)
    case .monthly: return start.adding(months: number)
    case .quarterly: return start.adding(months: 3 * number)
    case .yearly: return start.adding(months: 12 * number)
    }
  }
}
