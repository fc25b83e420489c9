import BinarioDomain
import Foundation

/// People's subscriptions (SubscribeME): recorded by their owner, shared with the owner's
/// friends, summed per month and per year, and reminded of before each renewal.
public final class SubscriptionsDomain: Sendable {
  let store: TicketingStore
  let clock: any DomainClock
  let accounts: any AccountDirectory
  /// The zone whose calendar days renewals fall on.
  let zone: TimeZone
  /// The reminder lead time of people who chose none.
  let defaultReminderDays: Int
  /// Called after a subscription is added or changed (the reminder job's ``RenewalReminders/wake()``).
  let changed: @Sendable () -> Void

  public init(
    store: TicketingStore,
    clock: any DomainClock,
    accounts: any AccountDirectory,
    zone: TimeZone,
    defaultReminderDays: Int = 3,
    changed: @escaping @Sendable () -> Void = {}
  ) {
    self.store = store
    self.clock = clock
    self.accounts = accounts
    self.zone = zone
    self.defaultReminderDays = defaultReminderDays
    self.changed = changed
  }

  var today: CalendarDate { CalendarDate(clock.now(), in: zone) }

  /// What a subscription needs, checked: every bad field named.
  public struct Draft: Sendable, Hashable {
    public var serviceName: String
    public var customServiceName: Bool
    public var planType: String
    public var customPlanType: Bool
    public var startDate: String
    public var period: SubscriptionPeriod?
    public var priceMinor: Int64
    public var currency: String
    public var cardLast4: String
    public var automaticRenewal: Bool
    public var category: SubscriptionCategory?
    /// Empty, or a free trial's last day (YYYY-MM-DD).
    public var trialEndsOn: String
    public var reminderDays: Int?
    public var sharedWith: [String]
    /// Friends by the email they registered with.
    public var sharedWithEmails: [String]

    public init(
      serviceName: String,
      customServiceName: Bool,
      planType: String,
      customPlanType: Bool,
      startDate: String,
      period: SubscriptionPeriod?,
      priceMinor: Int64,
      currency: String,
      cardLast4: String,
      automaticRenewal: Bool,
      category: SubscriptionCategory?,
      trialEndsOn: String = "",
      reminderDays: Int? = nil,
      sharedWith: [String],
      sharedWithEmails: [String] = []
    ) {
      self.serviceName = serviceName
      self.customServiceName = customServiceName
      self.planType = planType
      self.customPlanType = customPlanType
      self.startDate = startDate
      self.period = period
      self.priceMinor = priceMinor
      self.currency = currency
      self.cardLast4 = cardLast4
      self.automaticRenewal = automaticRenewal
      self.category = category
      self.trialEndsOn = trialEndsOn
      self.reminderDays = reminderDays
      self.sharedWith = sharedWith
      self.sharedWithEmails = sharedWithEmails
    }
  }

  /// Adds the owner's subscription; with an `idempotencyKey` the owner used before, returns the
  /// subscription that call added (as it is now) and adds nothing. `nextRenewal`: the date it is
  /// next due as a file says (an import), taken when it is on or after the start date.
  public func add(
    ownerID: String,
    _ draft: Draft,
    idempotencyKey rawKey: String = "",
    nextRenewal given: CalendarDate? = nil
  ) async throws -> Subscription {
    let key = rawKey.trimmingCharacters(in: .whitespaces)
    if key.count > 100 { throw ServiceError.invalid("idempotency_key", "an idempotency key has at most 100 characters") }
    // A retry is answered before the draft is checked again (which asks identity about friends).
    if !key.isEmpty, let earlier = try await store.subscription(ownerID: ownerID, idempotencyKey: key) { return earlier }
    let (details, members) = try await checked(draft, ownerID: ownerID)
    let subscription = Subscription(
      id: TicketingDomain.newID("sb"),
      ownerID: ownerID,
      details: details,
      memberIDs: members,
      nextRenewal: given.flatMap { $0 >= details.startDate ? $0 : nil } ?? Self.nextRenewal(details, today: today),
      ticketID: nil,
      createdAt: clock.now()
    )
    let (stored, inserted) = try await store.insertSubscription(subscription, idempotencyKey: key.isEmpty ? nil : key)
    if inserted { changed() }
    return stored
  }

  /// The owner replaces the details and who it is shared with. The next date stays unless the
  /// dates it comes from (start, period, trial) changed.
  public func update(userID: String, subscriptionID: String, _ draft: Draft) async throws -> Subscription {
    var subscription = try await owned(userID: userID, subscriptionID: subscriptionID, action: "edit")
    let (details, members) = try await checked(draft, ownerID: userID)
    let before = subscription.details
    subscription.details = details
    subscription.memberIDs = members
    if (before.startDate, before.period, before.trialEndsOn) != (details.startDate, details.period, details.trialEndsOn) {
      subscription.nextRenewal = Self.nextRenewal(details, today: today)
    }
    try await store.replaceSubscription(subscription)
    changed()
    return subscription
  }

  public func delete(userID: String, subscriptionID: String) async throws {
    _ = try await owned(userID: userID, subscriptionID: subscriptionID, action: "delete")
    try await store.deleteSubscription(id: subscriptionID)
  }

  /// A member leaves a subscription shared with them.
  public func withdraw(userID: String, subscriptionID: String) async throws {
    let subscription = try await visible(userID: userID, subscriptionID: subscriptionID)
    guard subscription.ownerID != userID else {
      throw ServiceError.failedPrecondition("you own this subscription: delete it, or stop sharing it, instead")
    }
    try await store.removeMember(userID: userID, subscriptionID: subscriptionID)
  }

  public func subscription(userID: String, subscriptionID: String) async throws -> Subscription {
    try await visible(userID: userID, subscriptionID: subscriptionID)
  }

  /// The user's own subscriptions and those shared with them, apart, by next renewal.
  public func list(userID: String) async throws -> (mine: [Subscription], sharedWithMe: [Subscription]) {
    let all = try await store.subscriptions(visibleTo: userID).sorted { ($0.nextRenewal, $0.id) < ($1.nextRenewal, $1.id) }
    return (all.filter { $0.ownerID == userID }, all.filter { $0.ownerID != userID })
  }

  /// The people in `subscriptions` (owner and members), by id: their names and emails.
  public func people(in subscriptions: [Subscription]) async -> [String: PeerAccount] {
    await people(ids: subscriptions.flatMap { [$0.ownerID] + $0.memberIDs })
  }

  func people(ids: [String]) async -> [String: PeerAccount] {
    let found = (try? await accounts.accounts(ids: Set(ids).sorted())) ?? []
    return Dictionary(found.map { ($0.userID, $0) }, uniquingKeysWith: { first, _ in first })
  }

  func visible(userID: String, subscriptionID: String) async throws -> Subscription {
    if subscriptionID.isEmpty { throw ServiceError.invalid("subscription_id", "a subscription id is required") }
    guard let subscription = try await store.subscription(id: subscriptionID),
      subscription.ownerID == userID || subscription.memberIDs.contains(userID)
    else { throw ServiceError.notFound("no subscription \(subscriptionID) of yours or shared with you") }
    return subscription
  }

  func owned(userID: String, subscriptionID: String, action: String) async throws -> Subscription {
    let subscription = try await visible(userID: userID, subscriptionID: subscriptionID)
    guard subscription.ownerID == userID else {
      throw ServiceError.permissionDenied("only the owner may \(action) a shared subscription; you may withdraw from it")
    }
    if subscription.ticketID != nil {
      throw ServiceError.failedPrecondition("a pass bought in the wallet changes with its ticket: refund the ticket instead")
    }
    return subscription
  }

  private func checked(_ draft: Draft, ownerID: String) async throws -> (SubscriptionDetails, [String]) {
    var check = InputValidation()
    var serviceName = check.requiredText(draft.serviceName, field: "details.service_name", what: "a service name", maxLength: 60)
    if !draft.customServiceName, !serviceName.isEmpty {
      if let listed = SubscriptionDetails.serviceNames.first(where: { $0.caseInsensitiveCompare(serviceName) == .orderedSame }) {
        serviceName = listed
      } else {
        check.fail("details.service_name", "\"\(serviceName)\" is not in the list (GetSubscriptionOptions); set custom_service_name for another")
      }
    }
    var planType = draft.planType.trimmingCharacters(in: .whitespaces)
    if planType.count > 60 { check.fail("details.plan_type", "at most 60 characters") }
    if !draft.customPlanType, !planType.isEmpty {
      if let listed = SubscriptionDetails.planTypes.first(where: { $0.caseInsensitiveCompare(planType) == .orderedSame }) {
        planType = listed
      } else {
        check.fail(
          "details.plan_type",
          "\"\(planType)\" is not one of \(SubscriptionDetails.planTypes.joined(separator: ", ")); set custom_plan_type for another"
        )
      }
    }
    let start = CalendarDate(iso: draft.startDate.trimmingCharacters(in: .whitespaces))
    if start == nil { check.fail("details.start_date", "a date YYYY-MM-DD is required") }
    if draft.period == nil { check.fail("details.period", "weekly, monthly, quarterly or yearly") }
    let rawTrial = draft.trialEndsOn.trimmingCharacters(in: .whitespaces)
    let trialEndsOn = rawTrial.isEmpty ? nil : CalendarDate(iso: rawTrial)
    if !rawTrial.isEmpty, trialEndsOn == nil {
      check.fail("details.trial_ends_on", "a date YYYY-MM-DD, or nothing")
    } else if let trialEndsOn, let start, trialEndsOn < start {
      check.fail("details.trial_ends_on", "a free trial ends on or after the start date")
    }
    if let days = draft.reminderDays, !(0 ... 60).contains(days) {
      check.fail("details.reminder_days", "from 0 to 60 days before")
    }
    if draft.category == nil { check.fail("details.category", "a category is required") }
    let price = check.money(draft.priceMinor, currency: draft.currency, field: "details.price")
    let last4 = draft.cardLast4.trimmingCharacters(in: .whitespaces)
    if !last4.isEmpty && (last4.count != 4 || !last4.allSatisfy(\.isASCIIDigit)) {
      check.fail("details.card_last4", "the last four digits of the card, or nothing")
    }
    var members: [String] = []
    for (index, raw) in draft.sharedWith.enumerated() {
      let id = raw.trimmingCharacters(in: .whitespaces)
      if id.isEmpty || id == ownerID {
        check.fail("shared_with_user_ids[\(index)]", id.isEmpty ? "a user id is required" : "you are the owner")
      } else if !members.contains(id) {
        members.append(id)
      }
    }
    var emails: [String] = []
    for (index, raw) in draft.sharedWithEmails.enumerated() {
      let email = raw.trimmingCharacters(in: .whitespaces).lowercased()
      if email.isEmpty || !email.contains("@") {
        check.fail("shared_with_emails[\(index)]", "an email address is required")
      } else if !emails.contains(email) {
        emails.append(email)
      }
    }
    try check.finish()
    // Each member with the field that named them, for an error.
    var named = members.enumerated().map { (id: $1, field: "shared_with_user_ids[\($0)]", shown: $1) }
    if !emails.isEmpty {
      let found = try await accounts.accounts(emails: emails)
      for (index, email) in emails.enumerated() {
        let field = "shared_with_emails[\(index)]"
        guard let account = found.first(where: { $0.email.lowercased() == email }) else {
          throw ServiceError.invalid(field, "no one has registered with \(email)")
        }
        if account.userID == ownerID { throw ServiceError.invalid(field, "you are the owner") }
        if !members.contains(account.userID) {
          members.append(account.userID)
          named.append((account.userID, field, email))
        }
      }
    }
    if members.count > 20 { throw ServiceError.invalid("shared_with_user_ids", "at most 20 people") }
    for member in named where try await !accounts.areFriends(ownerID, member.id) {
      throw ServiceError.invalid(member.field, "\(member.shown) is not your friend: a subscription is shared with friends only")
    }
    let details = SubscriptionDetails(
      serviceName: serviceName,
      customServiceName: draft.customServiceName,
      planType: planType,
      customPlanType: draft.customPlanType,
      startDate: start!,
      period: draft.period!,
      price: price,
      cardLast4: last4,
      automaticRenewal: draft.automaticRenewal,
      category: draft.category!,
      trialEndsOn: trialEndsOn,
      reminderDays: draft.reminderDays
    )
    return (details, members)
  }

  /// A subscription starting later (without a trial) first falls due on its start date; else
  /// its first charge from today on (the dates before today taken as paid).
  static func nextRenewal(_ details: SubscriptionDetails, today: CalendarDate) -> CalendarDate {
    details.trialEndsOn == nil && details.startDate > today
      ? details.startDate : Subscription.firstCharge(details, onOrAfter: today)
  }
}
