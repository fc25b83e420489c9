import BinarioDomain
import Foundation
import GRDB

/// People's subscription settings and budgets, and the exchange rates in force.
extension TicketingStore {
  /// `nil`: the user never chose.
  func subscriptionSettings(userID: String) async throws -> SubscriptionSettings? {
    try await pool.read { db in
      guard let row = try Row.fetchOne(db, sql: "SELECT * FROM subscription_settings WHERE user_id = ?", arguments: [userID]) else {
        return nil
      }
      var budgets: [SubscriptionCategory: Int64] = [:]
      for budget in try Row.fetchAll(db, sql: "SELECT category, amount_minor FROM subscription_budget WHERE user_id = ?", arguments: [userID]) {
        if let category = SubscriptionCategory(rawValue: budget["category"]) { budgets[category] = budget["amount_minor"] }
      }
      return SubscriptionSettings(
        reminderDays: row["reminder_days"],
        homeRenewals: row["home_renewals"],
        mainCurrency: row["main_currency"],
        monthlyBudgetMinor: row["monthly_budget_minor"],
        categoryBudgets: budgets
      )
    }
  }

  func replaceSubscriptionSettings(_ settings: SubscriptionSettings, userID: String) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO subscription_settings (user_id, reminder_days, home_renewals, main_currency, monthly_budget_minor)
          VALUES (?, ?, ?, ?, ?)
          """,
        arguments: [userID, settings.reminderDays, settings.homeRenewals, settings.mainCurrency, settings.monthlyBudgetMinor]
      )
      try db.execute(sql: "DELETE FROM subscription_budget WHERE user_id = ?", arguments: [userID])
      for (category, amount) in settings.categoryBudgets {
        try db.execute(
          sql: "INSERT INTO subscription_budget (user_id, category, amount_minor) VALUES (?, ?, ?)",
          arguments: [userID, category.rawValue, amount]
        )
      }
    }
  }

  /// The rates in force; `nil` before the operator loaded any.
  func exchangeRates() async throws -> ExchangeRates? {
    try await pool.read { db in
      let rows = try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM exchange_rate"))
      guard let first = rows.first, let date = CalendarDate(iso: first["rates_date"]) else { return nil }
      var perEuro: [String: Decimal] = [:]
      for row in rows {
        perEuro[row["currency"]] = Decimal(string: row["per_euro"], locale: Locale(identifier: "en_US_POSIX"))
      }
      return ExchangeRates(date: date, perEuro: perEuro)
    }
  }

  /// Replaces every rate (a currency the new file lacks has none afterwards).
  func replaceExchangeRates(_ rates: ExchangeRates) async throws {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM exchange_rate")
      for (currency, rate) in rates.perEuro {
        try db.execute(
          sql: "INSERT INTO exchange_rate (currency, per_euro, rates_date) VALUES (?, ?, ?)",
          arguments: [currency, "\(rate)", rates.date.description]
        )
      }
    }
  }
}
