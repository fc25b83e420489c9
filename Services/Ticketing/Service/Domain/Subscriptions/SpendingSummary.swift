import BinarioDomain
import Foundation

/// What a user spends on subscriptions, per currency, at their share of each: every period
/// counted per year (52 weeks, 12 months, 4 quarters), a month being a twelfth of the year,
/// rounded half up once per total so the figures add up exactly.
public struct SpendingSummary: Sendable, Hashable {
  public struct Total: Sendable, Hashable {
    public var monthly: Money
    public var yearly: Money
  }

  public struct Renewal: Sendable, Hashable {
    public var subscription: Subscription
    public var date: CalendarDate
    public var daysLeft: Int
    public var yourShare: Money
  }

  public struct CategoryFigures: Sendable, Hashable {
    public var category: SubscriptionCategory
    public var currency: String
    public var subscriptions: Int
    public var monthly: Money
    /// Of the currency's monthly spend, in hundredths of a percent.
    public var shareBasisPoints: Int
  }

  /// By currency code.
  public var totals: [Total]
  public var subscriptions: Int
  public var nextRenewals: [Renewal]

  /// Every subscription `userID` owns or shares, from `today`.
  public init(userID: String, subscriptions: [Subscription], today: CalendarDate, renewals: Int) {
    var yearly: [String: Int64] = [:]
    for subscription in subscriptions {
      yearly[subscription.details.price.currency, default: 0] += Self.yearly(subscription, userID: userID)
    }
    self.totals = yearly.keys.sorted().map { currency in
      Total(
        monthly: Money(amountMinor: Self.twelfth(yearly[currency]!), currency: currency),
        yearly: Money(amountMinor: yearly[currency]!, currency: currency)
      )
    }
    self.subscriptions = subscriptions.count
    self.nextRenewals =
      subscriptions
      .map { Renewal(subscription: $0, date: $0.nextRenewal, daysLeft: today.days(until: $0.nextRenewal), yourShare: $0.share(of: userID)) }
      .filter { $0.daysLeft >= 0 }
      .sorted { ($0.date, $0.subscription.id) < ($1.date, $1.subscription.id) }
      .prefix(renewals)
      .map { $0 }
  }

  /// Per currency, then category: how many, the monthly spend and its share.
  public static func categories(userID: String, subscriptions: [Subscription]) -> [CategoryFigures] {
    var yearly: [String: [SubscriptionCategory: (count: Int, amount: Int64)]] = [:]
    for subscription in subscriptions {
      let currency = subscription.details.price.currency
      var entry = yearly[currency, default: [:]][subscription.details.category] ?? (0, 0)
      entry.count += 1
      entry.amount += Self.yearly(subscription, userID: userID)
      yearly[currency, default: [:]][subscription.details.category] = entry
    }
    var figures: [CategoryFigures] = []
    for currency in yearly.keys.sorted() {
      let categories = yearly[currency]!
      let total = categories.values.reduce(0) { $0 + $1.amount }
      for category in SubscriptionCategory.allCases {
        guard let entry = categories[category] else { continue }
        figures.append(
          CategoryFigures(
            category: category,
            currency: currency,
            subscriptions: entry.count,
            monthly: Money(amountMinor: twelfth(entry.amount), currency: currency),
            shareBasisPoints: total == 0 ? 0 : Int((entry.amount * 10_000 * 2 + total) / (total * 2))
          )
        )
      }
    }
    return figures
  }

  /// A year of `userID`'s share.
  static func yearly(_ subscription: Subscription, userID: String) -> Int64 {
    subscription.share(of: userID).amountMinor * subscription.details.period.perYear
  }

  /// A twelfth, rounded half up.
  static func twelfth(_ amount: Int64) -> Int64 {
    (amount * 2 + 12) / 24
  }
}

extension SubscriptionsDomain {
  public func home(userID: String, renewals: Int) async throws -> SpendingSummary {
    SpendingSummary(
      userID: userID,
      subscriptions: try await store.subscriptions(visibleTo: userID),
      today: today,
      renewals: renewals == 0 ? 5 : min(renewals, 50)
    )
  }

  public func statistics(userID: String) async throws -> [SpendingSummary.CategoryFigures] {
    SpendingSummary.categories(userID: userID, subscriptions: try await store.subscriptions(visibleTo: userID))
  }
}
