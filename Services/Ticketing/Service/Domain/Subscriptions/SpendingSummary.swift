import BinarioDomain
import Foundation

/// What a user spends on subscriptions, per currency, at their share of each: every period
/// counted per year (52 weeks, 12 months, 4 quarters), a month being a twelfth of the year,
/// rounded half up once per total so the figures add up exactly. Only subscriptions that recur
/// count (``Subscription/isRecurring(on:)``).
///
/// Besides the per-currency totals, never replaced by it: a grand total in the person's main
/// currency, each currency's yearly total converted with the exchange rates and rounded once for
/// the sum, when every currency has a rate.
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
    /// Of all the subscriptions counted, in every currency, in hundredths of a percent.
    public var subscriptionsShareBasisPoints: Int
  }

  /// A budget the month's spend passed; `category` nil for the whole month's.
  public struct BudgetNotice: Sendable, Hashable {
    public var category: SubscriptionCategory?
    public var budget: Money
    public var spent: Money
  }

  /// By currency code.
  public var totals: [Total]
  public var subscriptions: Int
  public var nextRenewals: [Renewal]
  /// Paid by hand and not paid yet, the oldest first.
  public var due: [Renewal]
  /// In the main currency; nil when a currency has no rate.
  public var grandTotal: Total?
  public var ratesDate: CalendarDate?
  /// Currencies without an exchange rate.
  public var unconverted: [String]
  public var budgetNotices: [BudgetNotice]

  /// Every subscription `userID` owns or shares, from `today`.
  public init(
    userID: String,
    subscriptions all: [Subscription],
    today: CalendarDate,
    renewals: Int,
    settings: SubscriptionSettings,
    rates: ExchangeRates?
  ) {
    let counted = all.filter { $0.isRecurring(on: today) }
    var yearly: [String: Int64] = [:]
    for subscription in counted {
      yearly[subscription.details.price.currency, default: 0] += Self.yearly(subscription, userID: userID)
    }
    self.totals = yearly.keys.sorted().map { currency in
      Total(
        monthly: Money(amountMinor: Self.twelfth(yearly[currency]!), currency: currency),
        yearly: Money(amountMinor: yearly[currency]!, currency: currency)
      )
    }
    self.subscriptions = counted.count
    func renewal(_ subscription: Subscription) -> Renewal {
      Renewal(
        subscription: subscription,
        date: subscription.nextRenewal,
        daysLeft: today.days(until: subscription.nextRenewal),
        yourShare: subscription.share(of: userID)
      )
    }
    self.nextRenewals =
      all
      .filter { $0.ticketID == nil && $0.renewsOnNextDate && !$0.isDue(on: today) && $0.nextRenewal >= today }
      .map(renewal)
      .sorted { ($0.date, $0.subscription.id) < ($1.date, $1.subscription.id) }
      .prefix(renewals)
      .map { $0 }
    self.due = all.filter { $0.isDue(on: today) }.map(renewal).sorted { ($0.date, $0.subscription.id) < ($1.date, $1.subscription.id) }

    let main = settings.mainCurrency
    self.ratesDate = rates?.date
    self.unconverted = yearly.keys.sorted().filter { $0 != main && rates?.convert(0, from: $0, to: main) == nil }
    let converted = Self.converted(yearly, to: main, rates: rates)
    let grandYearly = ExchangeRates.rounded(converted.values.reduce(0, +))
    self.grandTotal =
      unconverted.isEmpty
      ? Total(monthly: Money(amountMinor: Self.twelfth(grandYearly), currency: main), yearly: Money(amountMinor: grandYearly, currency: main))
      : nil

    // The month's spend against the budgets: in the main currency, of what converts (with a
    // currency unconverted, what is known already passing the budget is still told).
    var notices: [BudgetNotice] = []
    let monthSpent = Self.twelfth(grandYearly)
    if settings.monthlyBudgetMinor > 0, monthSpent > settings.monthlyBudgetMinor {
      notices.append(
        BudgetNotice(
          category: nil,
          budget: Money(amountMinor: settings.monthlyBudgetMinor, currency: main),
          spent: Money(amountMinor: monthSpent, currency: main)
        )
      )
    }
    let byCategory = Self.convertedByCategory(counted, userID: userID, to: main, rates: rates)
    for category in SubscriptionCategory.allCases {
      guard let budget = settings.categoryBudgets[category], let spent = byCategory[category], spent > budget else { continue }
      notices.append(
        BudgetNotice(category: category, budget: Money(amountMinor: budget, currency: main), spent: Money(amountMinor: spent, currency: main))
      )
    }
    self.budgetNotices = notices
  }

  /// Each currency's yearly amount in `main`'s minor units, unrounded (those without a rate left out).
  static func converted(_ yearly: [String: Int64], to main: String, rates: ExchangeRates?) -> [String: Decimal] {
    var converted: [String: Decimal] = [:]
    for (currency, amount) in yearly {
      if currency == main {
        converted[currency] = Decimal(amount)
      } else if let value = rates?.convert(amount, from: currency, to: main) {
        converted[currency] = value
      }
    }
    return converted
  }

  /// Per category, the monthly spend in `main` of the currencies that convert.
  static func convertedByCategory(_ counted: [Subscription], userID: String, to main: String, rates: ExchangeRates?) -> [SubscriptionCategory: Int64]
  {
    var yearly: [SubscriptionCategory: [String: Int64]] = [:]
    for subscription in counted {
      yearly[subscription.details.category, default: [:]][subscription.details.price.currency, default: 0] += Self.yearly(
        subscription,
        userID: userID
      )
    }
    return yearly.mapValues { twelfth(ExchangeRates.rounded(converted($0, to: main, rates: rates).values.reduce(0, +))) }
  }

  /// Per currency, then category: how many, the monthly spend and its shares; and, when every
  /// currency converts, the same per category in the main currency.
  public static func categories(
    userID: String,
    subscriptions all: [Subscription],
    today: CalendarDate,
    settings: SubscriptionSettings,
    rates: ExchangeRates?
  ) -> (perCurrency: [CategoryFigures], converted: [CategoryFigures]) {
    let counted = all.filter { $0.isRecurring(on: today) }
    var counts: [SubscriptionCategory: Int] = [:]
    var yearly: [String: [SubscriptionCategory: (count: Int, amount: Int64)]] = [:]
    for subscription in counted {
      counts[subscription.details.category, default: 0] += 1
      let currency = subscription.details.price.currency
      var entry = yearly[currency, default: [:]][subscription.details.category] ?? (0, 0)
      entry.count += 1
      entry.amount += Self.yearly(subscription, userID: userID)
      yearly[currency, default: [:]][subscription.details.category] = entry
    }
    func countShare(_ category: SubscriptionCategory) -> Int { basisPoints(Int64(counts[category] ?? 0), of: Int64(counted.count)) }
    var perCurrency: [CategoryFigures] = []
    for currency in yearly.keys.sorted() {
      let categories = yearly[currency]!
      let total = categories.values.reduce(0) { $0 + $1.amount }
      for category in SubscriptionCategory.allCases {
        guard let entry = categories[category] else { continue }
        perCurrency.append(
          CategoryFigures(
            category: category,
            currency: currency,
            subscriptions: entry.count,
            monthly: Money(amountMinor: twelfth(entry.amount), currency: currency),
            shareBasisPoints: basisPoints(entry.amount, of: total),
            subscriptionsShareBasisPoints: countShare(category)
          )
        )
      }
    }
    let main = settings.mainCurrency
    let convertible = yearly.keys.allSatisfy { $0 == main || rates?.convert(0, from: $0, to: main) != nil }
    guard convertible, !counted.isEmpty else { return (perCurrency, []) }
    let monthly = convertedByCategory(counted, userID: userID, to: main, rates: rates)
    let total = monthly.values.reduce(0, +)
    let converted = SubscriptionCategory.allCases.compactMap { category -> CategoryFigures? in
      guard let amount = monthly[category] else { return nil }
      return CategoryFigures(
        category: category,
        currency: main,
        subscriptions: counts[category] ?? 0,
        monthly: Money(amountMinor: amount, currency: main),
        shareBasisPoints: basisPoints(amount, of: total),
        subscriptionsShareBasisPoints: countShare(category)
      )
    }
    return (perCurrency, converted)
  }

  /// `part` of `whole` in hundredths of a percent, rounded half up.
  static func basisPoints(_ part: Int64, of whole: Int64) -> Int {
    whole == 0 ? 0 : Int((part * 10_000 * 2 + whole) / (whole * 2))
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
  /// `renewals` 0: as many as the user's settings say.
  public func home(userID: String, renewals: Int) async throws -> SpendingSummary {
    let settings = try await settings(userID: userID)
    return SpendingSummary(
      userID: userID,
      subscriptions: try await store.subscriptions(visibleTo: userID),
      today: today,
      renewals: renewals == 0 ? settings.homeRenewals : min(renewals, 50),
      settings: settings,
      rates: try await store.exchangeRates()
    )
  }

  public func statistics(
    userID: String
  ) async throws -> (
    perCurrency: [SpendingSummary.CategoryFigures], converted: [SpendingSummary.CategoryFigures], ratesDate: CalendarDate?
  ) {
    let rates = try await store.exchangeRates()
    let figures = SpendingSummary.categories(
      userID: userID,
      subscriptions: try await store.subscriptions(visibleTo: userID),
      today: today,
      settings: try await settings(userID: userID),
      rates: rates
    )
    return (figures.perCurrency, figures.converted, rates?.date)
  }
}
