import BinarioDomain
import Foundation

/// The owner pauses, cancels and resumes a subscription; each is idempotent (pausing a paused
/// one, resuming a running one, changes nothing).
extension SubscriptionsDomain {
  /// From today nothing falls due and nothing is reminded.
  public func pause(userID: String, subscriptionID: String) async throws -> Subscription {
    var subscription = try await owned(userID: userID, subscriptionID: subscriptionID, action: "pause")
    let name = subscription.details.serviceName
    switch subscription.status(on: today) {
    case .paused: return subscription
    case .ended: throw ServiceError.failedPrecondition("\(name) has ended")
    case .cancelled: throw ServiceError.failedPrecondition("\(name) is cancelled: it ends on \(subscription.endsOn!)")
    case .active, .trial: break
    }
    subscription.pausedOn = today
    try await store.setLifeDates(subscription)
    changed()
    return subscription
  }

  /// It renews up to `endsOn` (today when empty), not after; kept as ended afterwards.
  public func cancel(userID: String, subscriptionID: String, endsOn rawEndsOn: String) async throws -> Subscription {
    var subscription = try await owned(userID: userID, subscriptionID: subscriptionID, action: "cancel")
    let text = rawEndsOn.trimmingCharacters(in: .whitespaces)
    guard let endsOn = text.isEmpty ? today : CalendarDate(iso: text) else {
      throw ServiceError.invalid("ends_on", "a date YYYY-MM-DD, or nothing for today")
    }
    if endsOn < subscription.details.startDate {
      throw ServiceError.invalid("ends_on", "a subscription ends on or after its start date (\(subscription.details.startDate))")
    }
    if subscription.status(on: today) == .ended {
      throw ServiceError.failedPrecondition("\(subscription.details.serviceName) has ended")
    }
    subscription.endsOn = endsOn
    subscription.pausedOn = nil
    try await store.setLifeDates(subscription)
    changed()
    return subscription
  }

  /// A paused or cancelled subscription renews again. The dates of a pause are not owed, nor an
  /// automatic renewal's while cancelled: it renews from its next date on or after today. Paid by
  /// hand, a cancelled subscription's unpaid dates stay due.
  public func resume(userID: String, subscriptionID: String) async throws -> Subscription {
    var subscription = try await owned(userID: userID, subscriptionID: subscriptionID, action: "resume")
    if subscription.pausedOn == nil && subscription.endsOn == nil { return subscription }
    if subscription.pausedOn != nil || subscription.details.automaticRenewal {
      subscription.nextRenewal = max(subscription.nextRenewal, subscription.firstCharge(onOrAfter: today))
    }
    subscription.pausedOn = nil
    subscription.endsOn = nil
    try await store.setLifeDates(subscription)
    changed()
    return subscription
  }
}
