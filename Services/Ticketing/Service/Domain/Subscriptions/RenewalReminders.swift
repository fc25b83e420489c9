import BinarioDomain
import Foundation

/// The renewal job: a reminder through scheduling's notification centre `daysBefore` days before
/// each renewal, once per renewal, to the owner and every member; automatic renewals then move
/// to their next date.
///
/// Once per renewal across restarts: a sent reminder is recorded in the database, and its
/// dedupe key (`ticketing:renewal:<subscription>:<date>`) makes scheduling drop a resend after a
/// crash between sending and recording.
public final class RenewalReminders: Sendable {
  let store: TicketingStore
  let clock: any DomainClock
  let notifier: any NotificationSender
  let zone: TimeZone
  public let daysBefore: Int
  /// A wake-up at each ``wake()``: the reminders job's cue to run a pass now.
  public let wakeUps = WakeUps()

  public init(store: TicketingStore, clock: any DomainClock, notifier: any NotificationSender, zone: TimeZone, daysBefore: Int) {
    self.store = store
    self.clock = clock
    self.notifier = notifier
    self.zone = zone
    self.daysBefore = daysBefore
  }

  /// Asks for a pass soon (a subscription was added or changed: its reminder may be due now).
  public func wake() {
    wakeUps.wake()
  }

  /// One pass: every reminder due today that was not sent, then every automatic renewal that
  /// has passed moved on.
  /// - Returns: How many reminders were sent.
  @discardableResult
  public func runOnce() async throws -> Int {
    let today = CalendarDate(clock.now(), in: zone)
    var sent = 0
    for subscription in try await store.subscriptionsDueForReminder(today: today, daysBefore: daysBefore) {
      let date = subscription.nextRenewal
      let days = today.days(until: date)
      let name = subscription.details.serviceName
      let title: PersonText =
        switch (subscription.details.automaticRenewal, days) {
        case (true, 0): "\(name) renews today"
        case (true, 1): "\(name) renews tomorrow"
        case (true, _): "\(name) renews in \(days) days (\(date))"
        case (false, 0): "\(name) is due today"
        case (false, 1): "\(name) is due tomorrow"
        case (false, _): "\(name) is due in \(days) days (\(date))"
        }
      for (userID, share) in subscription.shares {
        try await notifier.send(
          PeerNotification(
            userIDs: [userID],
            kind: .renewalReminder,
            title: TranslatedText(title),
            body: "Your share: \(share). \(subscription.details.planType), \(subscription.details.period.words).",
            data: ["subscription_id": subscription.id, "renewal_date": date.description],
            dedupeKey: "ticketing:renewal:\(subscription.id):\(date):\(userID)"
          )
        )
      }
      try await store.recordReminder(subscriptionID: subscription.id, renewal: date, at: clock.now())
      sent += 1
    }
    for subscription in try await store.automaticRenewalsPassed(today: today) {
      try await store.advanceRenewal(
        subscriptionID: subscription.id,
        from: subscription.nextRenewal,
        to: Subscription.firstRenewal(start: subscription.details.startDate, period: subscription.details.period, onOrAfter: today)
      )
    }
    return sent
  }

}
