import BinarioDomain
import Foundation

/// What ticketing erased or de-identified of a deleted account.
public struct TicketingErasure: Sendable, Hashable {
  public let subscriptions: Int
  public let memberships: Int
  public let purchases: Int
  public let tickets: Int
}

/// An account's life as ticketing follows it from identity's events: deleted → its quotes
/// erased, its purchases and tickets de-identified, the subscriptions it owns ended for their
/// members and its memberships of others' ended; a friendship ended → each leaves the other's
/// shared subscriptions. Everyone whose subscription changed is told.
///
/// Exactly once: the change commits with the event's position. The notices go out before the
/// commit, each with a key made of the event's position, so an event delivered again after a
/// crash notifies nobody twice.
public struct AccountLifecycle: Sendable {
  let store: TicketingStore
  let clock: any DomainClock
  let notifier: any NotificationSender

  public init(store: TicketingStore, clock: any DomainClock, notifier: any NotificationSender) {
    self.store = store
    self.clock = clock
    self.notifier = notifier
  }

  public func accountDeleted(userID: String, position: EventPosition) async throws -> TicketingErasure {
    for subscription in try await store.subscriptions(visibleTo: userID) {
      let name = subscription.details.serviceName
      if subscription.ownerID == userID {
        for member in subscription.memberIDs {
          try await tell(
            member,
            title: "\(name) is no longer shared with you",
            body: "Its owner left Binario, so you no longer share \(name) (\(subscription.details.planType)).",
            about: subscription,
            position: position
          )
        }
      } else {
        try await tellOwner(
          subscription,
          without: userID,
          title: "A member left \(name)",
          reason: "Someone you shared it with left Binario.",
          position: position
        )
      }
    }
    return try await store.eraseAccount(userID: userID, position: position, at: clock.now())
  }

  /// `a` and `b` are no longer friends: each leaves the other's shared subscriptions, and both
  /// are told (the owner with their new share).
  public func friendshipEnded(_ a: String, _ b: String, position: EventPosition) async throws {
    for (owner, member) in [(a, b), (b, a)] {
      for subscription in try await store.subscriptions(visibleTo: member)
      where subscription.ownerID == owner && subscription.memberIDs.contains(member) {
        let name = subscription.details.serviceName
        try await tell(
          member,
          title: "You no longer share \(name)",
          body: "You and its owner are no longer friends, so \(name) is no longer shared with you.",
          about: subscription,
          position: position
        )
        try await tellOwner(
          subscription,
          without: member,
          title: "\(name) is shared with one person fewer",
          reason: "Someone you are no longer friends with no longer shares it.",
          position: position
        )
      }
    }
    try await store.endSubscriptionMemberships(between: a, and: b, position: position, at: clock.now())
  }

  /// Tells the owner of `subscription` that `member` left, and their share without them.
  private func tellOwner(
    _ subscription: Subscription,
    without member: String,
    title: PersonText,
    reason: PersonText,
    position: EventPosition
  ) async throws {
    var after = subscription
    after.memberIDs.removeAll { $0 == member }
    let share = after.share(of: after.ownerID)
    try await tell(after.ownerID, title: title, body: "\(reason) Your share is now \(share).", about: subscription, position: position)
  }

  private func tell(
    _ userID: String,
    title: PersonText,
    body: PersonText,
    about subscription: Subscription,
    position: EventPosition
  )
    async throws
  {
    try await notifier.send(
      PeerNotification(
        userIDs: [userID],
        kind: .general,
        title: TranslatedText(title),
        body: TranslatedText(body),
        data: ["subscription_id": subscription.id],
        dedupeKey: "ticketing:event:\(position):\(subscription.id):\(userID)"
      )
    )
  }
}
