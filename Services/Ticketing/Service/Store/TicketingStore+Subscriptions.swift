import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension TicketingStore {
  /// Inserts `subscription`, or, when the owner added one with `idempotencyKey` before, returns
  /// that one (as it is now) and inserts nothing: checked and written in one transaction, so two
  /// racing retries add one.
  func insertSubscription(_ subscription: Subscription, idempotencyKey: String?) async throws -> (Subscription, inserted: Bool) {
    try await pool.write { db in
      if let idempotencyKey, let earlier = try Self.subscription(db, ownerID: subscription.ownerID, idempotencyKey: idempotencyKey) {
        return (earlier, false)
      }
      try Self.insert(subscription, db, idempotencyKey: idempotencyKey)
      return (subscription, true)
    }
  }

  /// The subscription the owner added with `idempotencyKey`, as it is now.
  func subscription(ownerID: String, idempotencyKey: String) async throws -> Subscription? {
    try await pool.read { db in try Self.subscription(db, ownerID: ownerID, idempotencyKey: idempotencyKey) }
  }

  private static func subscription(_ db: Database, ownerID: String, idempotencyKey: String) throws -> Subscription? {
    try subscriptions(db, where: "s.owner_id = ? AND s.idempotency_key = ?", [ownerID, idempotencyKey]).first
  }

  static func insert(_ subscription: Subscription, _ db: Database, idempotencyKey: String? = nil) throws {
    let details = subscription.details
    try db.executeCached(
      sql: """
        INSERT INTO subscription (id, owner_id, service_name, custom_service_name, plan_type, custom_plan_type,
          start_date, period, price_minor, currency, card_last4, automatic_renewal, category, next_renewal, ticket_id,
          created_at, idempotency_key, trial_ends_on, reminder_days, paused_on, ends_on)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        subscription.id, subscription.ownerID, details.serviceName, details.customServiceName, details.planType,
        details.customPlanType, details.startDate.description, details.period.rawValue, details.price.amountMinor,
        details.price.currency, details.cardLast4, details.automaticRenewal, details.category.rawValue,
        subscription.nextRenewal.description, subscription.ticketID, subscription.createdAt.timeIntervalSince1970,
        idempotencyKey, details.trialEndsOn?.description, details.reminderDays, subscription.pausedOn?.description,
        subscription.endsOn?.description,
      ]
    )
    try insertMembers(subscription, db)
  }

  private static func insertMembers(_ subscription: Subscription, _ db: Database) throws {
    for (position, member) in subscription.memberIDs.enumerated() {
      try db.executeCached(
        sql: "INSERT INTO subscription_member (subscription_id, user_id, position) VALUES (?, ?, ?)",
        arguments: [subscription.id, member, position]
      )
    }
  }

  /// Replaces the details, next renewal and members (a changed renewal date is reminded anew).
  func replaceSubscription(_ subscription: Subscription) async throws {
    let details = subscription.details
    try await pool.write { db in
      try db.executeCached(
        sql: """
          UPDATE subscription SET service_name = ?, custom_service_name = ?, plan_type = ?, custom_plan_type = ?,
            start_date = ?, period = ?, price_minor = ?, currency = ?, card_last4 = ?, automatic_renewal = ?,
            category = ?, next_renewal = ?, trial_ends_on = ?, reminder_days = ?
          WHERE id = ?
          """,
        arguments: [
          details.serviceName, details.customServiceName, details.planType, details.customPlanType,
          details.startDate.description, details.period.rawValue, details.price.amountMinor, details.price.currency,
          details.cardLast4, details.automaticRenewal, details.category.rawValue, subscription.nextRenewal.description,
          details.trialEndsOn?.description, details.reminderDays, subscription.id,
        ]
      )
      try db.executeCached(sql: "DELETE FROM subscription_member WHERE subscription_id = ?", arguments: [subscription.id])
      try Self.insertMembers(subscription, db)
    }
  }

  func deleteSubscription(id: String) async throws {
    try await pool.write { db in try db.executeCached(sql: "DELETE FROM subscription WHERE id = ?", arguments: [id]) }
  }

  func removeMember(userID: String, subscriptionID: String) async throws {
    try await pool.write { db in
      try db.executeCached(
        sql: "DELETE FROM subscription_member WHERE subscription_id = ? AND user_id = ?",
        arguments: [subscriptionID, userID]
      )
    }
  }

  func subscription(id: String) async throws -> Subscription? {
    try await pool.read { db in try Self.subscriptions(db, where: "s.id = ?", [id]).first }
  }

  /// Those `userID` owns or is a member of.
  func subscriptions(visibleTo userID: String) async throws -> [Subscription] {
    try await pool.read { db in
      try Self.subscriptions(
        db,
        where: "s.owner_id = ? OR s.id IN (SELECT subscription_id FROM subscription_member WHERE user_id = ?)",
        [userID, userID]
      )
    }
  }

  /// The condition of a subscription still renewing on its next date: not a pass, not paused, not
  /// past its end.
  private static let renewing = "s.ticket_id IS NULL AND s.paused_on IS NULL AND (s.ends_on IS NULL OR s.next_renewal <= s.ends_on)"

  /// Whose next renewal is from `today` to its lead time ahead (the subscription's, else its
  /// owner's default, else `defaultDaysBefore`) and not reminded yet.
  func subscriptionsDueForReminder(today: CalendarDate, defaultDaysBefore: Int) async throws -> [Subscription] {
    try await pool.read { db in
      try Self.subscriptions(
        db,
        where: """
          \(Self.renewing) AND s.next_renewal >= ?1
          AND s.next_renewal <= date(?1, '+' || COALESCE(s.reminder_days,
            (SELECT reminder_days FROM subscription_settings WHERE user_id = s.owner_id), ?2) || ' days')
          AND NOT EXISTS (SELECT 1 FROM renewal_reminder r WHERE r.subscription_id = s.id AND r.renewal_date = s.next_renewal)
          """,
        [today.description, defaultDaysBefore]
      )
    }
  }

  /// Paid by hand, their next date before `today` and not told overdue yet.
  func overdueWithoutNotice(today: CalendarDate) async throws -> [Subscription] {
    try await pool.read { db in
      try Self.subscriptions(
        db,
        where: """
          \(Self.renewing) AND s.automatic_renewal = 0 AND s.next_renewal < ?
          AND NOT EXISTS (SELECT 1 FROM overdue_notice o WHERE o.subscription_id = s.id AND o.renewal_date = s.next_renewal)
          """,
        [today.description]
      )
    }
  }

  func recordOverdueNotice(subscriptionID: String, renewal: CalendarDate, at now: Date) async throws {
    try await pool.write { db in
      try db.executeCached(
        sql: "INSERT OR IGNORE INTO overdue_notice (subscription_id, renewal_date, sent_at) VALUES (?, ?, ?)",
        arguments: [subscriptionID, renewal.description, now.timeIntervalSince1970]
      )
    }
  }

  func recordReminder(subscriptionID: String, renewal: CalendarDate, at now: Date) async throws {
    try await pool.write { db in
      try db.executeCached(
        sql: "INSERT OR IGNORE INTO renewal_reminder (subscription_id, renewal_date, sent_at) VALUES (?, ?, ?)",
        arguments: [subscriptionID, renewal.description, now.timeIntervalSince1970]
      )
    }
  }

  func automaticRenewalsPassed(today: CalendarDate) async throws -> [Subscription] {
    try await pool.read { db in
      try Self.subscriptions(db, where: "\(Self.renewing) AND s.automatic_renewal = 1 AND s.next_renewal < ?", [today.description])
    }
  }

  /// Moves a renewal on and records the automatic `payments` of the dates passed, unless someone
  /// changed the date meanwhile: both or neither.
  func advanceRenewal(subscriptionID: String, from: CalendarDate, to: CalendarDate, payments: [SubscriptionPayment]) async throws {
    try await pool.write { db in
      try db.executeCached(
        sql: "UPDATE subscription SET next_renewal = ? WHERE id = ? AND next_renewal = ?",
        arguments: [to.description, subscriptionID, from.description]
      )
      guard db.changesCount == 1 else { return }
      for payment in payments { try Self.insert(payment, db) }
    }
  }

  /// Writes a subscription's pause, end and next date.
  func setLifeDates(_ subscription: Subscription) async throws {
    try await pool.write { db in
      try db.executeCached(
        sql: "UPDATE subscription SET paused_on = ?, ends_on = ?, next_renewal = ? WHERE id = ?",
        arguments: [
          subscription.pausedOn?.description, subscription.endsOn?.description, subscription.nextRenewal.description,
          subscription.id,
        ]
      )
    }
  }

  // MARK: - Payments

  /// Records a payment by hand of the subscription's next date and moves that date to `next`, in
  /// one transaction: the same date paid before returns that payment; a date moved meanwhile
  /// records nothing.
  func recordPayment(_ payment: SubscriptionPayment, movingTo next: CalendarDate) async throws -> SubscriptionPayment.Outcome {
    try await pool.write { db in
      if let earlier = try Self.payment(db, subscriptionID: payment.subscriptionID, dueDate: payment.dueDate) {
        return .alreadyRecorded(earlier)
      }
      try db.executeCached(
        sql: "UPDATE subscription SET next_renewal = ? WHERE id = ? AND next_renewal = ?",
        arguments: [next.description, payment.subscriptionID, payment.dueDate.description]
      )
      guard db.changesCount == 1 else { return .dateMoved }
      try Self.insert(payment, db)
      return .recorded
    }
  }

  func payment(subscriptionID: String, dueDate: CalendarDate) async throws -> SubscriptionPayment? {
    try await pool.read { db in try Self.payment(db, subscriptionID: subscriptionID, dueDate: dueDate) }
  }

  /// Newest date first.
  func payments(subscriptionID: String) async throws -> [SubscriptionPayment] {
    try await pool.read { db in
      try Row.fetchAll(
        try db.cachedStatement(sql: "SELECT * FROM subscription_payment WHERE subscription_id = ? ORDER BY due_date DESC"),
        arguments: [subscriptionID]
      ).map(Self.payment)
    }
  }

  private static func payment(_ db: Database, subscriptionID: String, dueDate: CalendarDate) throws -> SubscriptionPayment? {
    try Row.fetchOne(
      try db.cachedStatement(sql: "SELECT * FROM subscription_payment WHERE subscription_id = ? AND due_date = ?"),
      arguments: [subscriptionID, dueDate.description]
    ).map(payment)
  }

  private static func insert(_ payment: SubscriptionPayment, _ db: Database) throws {
    try db.executeCached(
      sql: """
        INSERT OR IGNORE INTO subscription_payment
          (subscription_id, due_date, paid_on, amount_minor, currency, automatic, paid_by, recorded_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        payment.subscriptionID, payment.dueDate.description, payment.paidOn.description, payment.amount.amountMinor,
        payment.amount.currency, payment.automatic, payment.paidBy, payment.recordedAt.timeIntervalSince1970,
      ]
    )
  }

  private static func payment(_ row: Row) -> SubscriptionPayment {
    SubscriptionPayment(
      subscriptionID: row["subscription_id"],
      dueDate: CalendarDate(iso: row["due_date"])!,
      paidOn: CalendarDate(iso: row["paid_on"])!,
      amount: Money(amountMinor: row["amount_minor"], currency: row["currency"]),
      automatic: row["automatic"],
      paidBy: row["paid_by"],
      recordedAt: Date(timeIntervalSince1970: row["recorded_at"])
    )
  }

  private static func subscriptions(
    _ db: Database,
    where condition: String,
    _ arguments: StatementArguments
  ) throws
    -> [Subscription]
  {
    let rows = try Row.fetchAll(
      try db.cachedStatement(sql: "SELECT s.* FROM subscription s WHERE \(condition) ORDER BY s.created_at, s.id"),
      arguments: arguments
    )
    return try rows.map { row in
      let id: String = row["id"]
      let members = try String.fetchAll(
        try db.cachedStatement(sql: "SELECT user_id FROM subscription_member WHERE subscription_id = ? ORDER BY position"),
        arguments: [id]
      )
      let details = SubscriptionDetails(
        serviceName: row["service_name"],
        customServiceName: row["custom_service_name"],
        planType: row["plan_type"],
        customPlanType: row["custom_plan_type"],
        startDate: CalendarDate(iso: row["start_date"])!,
        period: SubscriptionPeriod(rawValue: row["period"]) ?? .monthly,
        price: Money(amountMinor: row["price_minor"], currency: row["currency"]),
        cardLast4: row["card_last4"],
        automaticRenewal: row["automatic_renewal"],
        category: SubscriptionCategory(rawValue: row["category"]) ?? .other,
        trialEndsOn: (row["trial_ends_on"] as String?).flatMap(CalendarDate.init(iso:)),
        reminderDays: row["reminder_days"]
      )
      return Subscription(
        id: id,
        ownerID: row["owner_id"],
        details: details,
        memberIDs: members,
        nextRenewal: CalendarDate(iso: row["next_renewal"])!,
        ticketID: row["ticket_id"],
        createdAt: Date(timeIntervalSince1970: row["created_at"]),
        pausedOn: (row["paused_on"] as String?).flatMap(CalendarDate.init(iso:)),
        endsOn: (row["ends_on"] as String?).flatMap(CalendarDate.init(iso:))
      )
    }
  }
}
