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
  /// Called after a subscription is added or changed (the reminder job's ``RenewalReminders/wake()``).
  let changed: @Sendable () -> Void

  public init(
    store: TicketingStore,
    clock: any DomainClock,
    accounts: any AccountDirectory,
    zone: TimeZone,
    changed: @escaping @Sendable () -> Void = {}
  ) {
    self.store = store
    self.clock = clock
    self.accounts = accounts
    self.zone = zone
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
    public var sharedWith: [String]

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
      sharedWith: [String]
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
      self.sharedWith = sharedWith
    }
  }

  /// Adds the owner's subscription; with an `idempotencyKey` the owner used before, returns the
  /// subscription that call added (as it is now) and adds nothing.
  public func add(ownerID: String, _ draft: Draft, idempotencyKey rawKey: String = "") async throws -> Subscription {
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
      nextRenewal: Self.nextRenewal(details, today: today),
      ticketID: nil,
      createdAt: clock.now()
    )
    let (stored, inserted) = try await store.insertSubscription(subscription, idempotencyKey: key.isEmpty ? nil : key)
    if inserted { changed() }
    return stored
  }

  /// The owner replaces the details and who it is shared with.
  public func update(userID: String, subscriptionID: String, _ draft: Draft) async throws -> Subscription {
    var subscription = try await owned(userID: userID, subscriptionID: subscriptionID, action: "edit")
    let (details, members) = try await checked(draft, ownerID: userID)
    subscription.details = details
    subscription.memberIDs = members
    subscription.nextRenewal = Self.nextRenewal(details, today: today)
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

  /// Display names of the people in `subscriptions` (owner and members).
  public func names(in subscriptions: [Subscription]) async -> [String: String] {
    let ids = Set(subscriptions.flatMap { [$0.ownerID] + $0.memberIDs })
    let found = (try? await accounts.accounts(ids: ids.sorted())) ?? []
    return Dictionary(found.map { ($0.userID, $0.displayName) }, uniquingKeysWith: { first, _ in first })
  }

  private func visible(userID: String, subscriptionID: String) async throws -> Subscription {
    if subscriptionID.isEmpty { throw ServiceError.invalid("subscription_id", "a subscription id is required") }
    guard let subscription = try await store.subscription(id: subscriptionID),
      subscription.ownerID == userID || subscription.memberIDs.contains(userID)
    else { throw ServiceError.notFound("no subscription \(subscriptionID) of yours or shared with you") }
    return subscription
  }

  private func owned(userID: String, subscriptionID: String, action: String) async throws -> Subscription {
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
    var planType = check.requiredText(draft.planType, field: "details.plan_type", what: "a plan type", maxLength: 60)
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
    if members.count > 20 { check.fail("shared_with_user_ids", "at most 20 people") }
    try check.finish()
    for (index, member) in members.enumerated() {
      if try await !accounts.areFriends(ownerID, member) {
        throw ServiceError.invalid(
          "shared_with_user_ids[\(index)]",
          "\(member) is not your friend: a subscription is shared with friends only"
        )
      }
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
      category: draft.category!
    )
    return (details, members)
  }

  /// A subscription starting later first falls due on its start date; else the first renewal
  /// from today on.
  static func nextRenewal(_ details: SubscriptionDetails, today: CalendarDate) -> CalendarDate {
    details.startDate > today
      ? details.startDate : Subscription.firstRenewal(start: details.startDate, period: details.period, onOrAfter: today)
  }
}
