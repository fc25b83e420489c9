import BinarioDomain
import Foundation

/// A person's choices for their subscriptions: how early they are reminded (unless a
/// subscription says otherwise), how many renewals home shows, the currency their grand total is
/// in, and their monthly budgets in it (0: none).
public struct SubscriptionSettings: Sendable, Hashable {
  public var reminderDays: Int
  public var homeRenewals: Int
  public var mainCurrency: String
  public var monthlyBudgetMinor: Int64
  /// Per category, in the main currency, per month; a category without one has none.
  public var categoryBudgets: [SubscriptionCategory: Int64]

  public init(reminderDays: Int, homeRenewals: Int, mainCurrency: String, monthlyBudgetMinor: Int64, categoryBudgets: [SubscriptionCategory: Int64]) {
    self.reminderDays = reminderDays
    self.homeRenewals = homeRenewals
    self.mainCurrency = mainCurrency
    self.monthlyBudgetMinor = monthlyBudgetMinor
    self.categoryBudgets = categoryBudgets
  }

  /// Someone who chose nothing: SubscribeME's home shows the next two renewals; euros.
  public static func defaults(reminderDays: Int) -> SubscriptionSettings {
    SubscriptionSettings(reminderDays: reminderDays, homeRenewals: 2, mainCurrency: "EUR", monthlyBudgetMinor: 0, categoryBudgets: [:])
  }
}

extension SubscriptionsDomain {
  public func settings(userID: String) async throws -> SubscriptionSettings {
    try await store.subscriptionSettings(userID: userID) ?? .defaults(reminderDays: defaultReminderDays)
  }

  /// Each owner's default reminder lead time, by owner id.
  public func reminderDays(ownerIDs: [String]) async throws -> [String: Int] {
    var days: [String: Int] = [:]
    for owner in Set(ownerIDs) { days[owner] = try await settings(userID: owner).reminderDays }
    return days
  }

  /// Replaces the user's settings, every field checked. `categoryBudgets`' nil category is one
  /// not given; an amount of 0 removes that category's budget.
  public func updateSettings(
    userID: String,
    reminderDays: Int,
    homeRenewals: Int,
    mainCurrency: String,
    monthlyBudgetMinor: Int64,
    categoryBudgets: [(category: SubscriptionCategory?, amountMinor: Int64)]
  ) async throws -> SubscriptionSettings {
    var check = InputValidation()
    if !(0 ... 60).contains(reminderDays) { check.fail("settings.reminder_days", "from 0 to 60 days before") }
    if !(1 ... 10).contains(homeRenewals) { check.fail("settings.home_renewals", "from 1 to 10") }
    let currency = mainCurrency.trimmingCharacters(in: .whitespaces).uppercased()
    if !Money.isCurrencyCode(currency) {
      check.fail("settings.main_currency", "an ISO 4217 code such as EUR, not \"\(mainCurrency)\"")
    }
    if monthlyBudgetMinor < 0 { check.fail("settings.monthly_budget_minor", "must not be negative") }
    var budgets: [SubscriptionCategory: Int64] = [:]
    for (index, budget) in categoryBudgets.enumerated() {
      let field = "settings.category_budgets[\(index)]"
      guard let category = budget.category else {
        check.fail("\(field).category", "a category is required")
        continue
      }
      if budget.amountMinor < 0 { check.fail("\(field).amount_minor", "must not be negative") }
      if budgets[category] != nil { check.fail("\(field).category", "one budget per category") }
      if budget.amountMinor > 0 { budgets[category] = budget.amountMinor }
    }
    try check.finish()
    let settings = SubscriptionSettings(
      reminderDays: reminderDays,
      homeRenewals: homeRenewals,
      mainCurrency: currency,
      monthlyBudgetMinor: monthlyBudgetMinor,
      categoryBudgets: budgets
    )
    try await store.replaceSubscriptionSettings(settings, userID: userID)
    // The lead time may have changed: a reminder may be due now.
    changed()
    return settings
  }
}
