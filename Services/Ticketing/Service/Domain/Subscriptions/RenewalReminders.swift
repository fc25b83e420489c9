import BinarioDomain
import Foundation

/// The renewal job: a reminder through scheduling's notification centre before each renewal, once
/// per renewal, to the owner and every member, as many days before as the subscription says, else
/// its owner's default, else `daysBefore`; a free trial's reminder says what it converts to. A
/// date paid by hand and still unpaid the day after gets one overdue notice. Automatic renewals
/// then record their payments and move to their next date. Nothing while paused or after the end.
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
    for subscription in try await store.subscriptionsDueForReminder(today: today, defaultDaysBefore: daysBefore) {
      let date = subscription.nextRenewal
      let days = today.days(until: date)
      let name = subscription.details.serviceName
      let trialEnds = subscription.details.trialEndsOn == date
      let title: PersonText =
        switch (trialEnds, subscription.details.automaticRenewal, days) {
        case (true, _, 0): "Your free trial of \(name) ends today"
        case (true, _, 1): "Your free trial of \(name) ends tomorrow"
        case (true, _, _): "Your free trial of \(name) ends in \(days) days (\(date))"
        case (false, true, 0): "\(name) renews today"
        case (false, true, 1): "\(name) renews tomorrow"
        case (false, true, _): "\(name) renews in \(days) days (\(date))"
        case (false, false, 0): "\(name) is due today"
        case (false, false, 1): "\(name) is due tomorrow"
        case (false, false, _): "\(name) is due in \(days) days (\(date))"
        }
      for (userID, share) in subscription.shares {
        let body: PersonText =
          if trialEnds {
            "Then \(subscription.details.price) \(subscription.details.period.words), your share \(share): cancel it before if you do not want to keep it."
          } else {
            "Your share: \(share). \(subscription.details.period.words)."
          }
        try await notifier.send(
          PeerNotification(
            userIDs: [userID],
            kind: .renewalReminder,
            title: TranslatedText(title),
            body: TranslatedText(body),
            data: ["subscription_id": subscription.id, "renewal_date": date.description],
            dedupeKey: "ticketing:renewal:\(subscription.id):\(date):\(userID)"
          )
        )
      }
      try await store.recordReminder(subscriptionID: subscription.id, renewal: date, at: clock.now())
      sent += 1
    }
    for subscription in try await store.overdueWithoutNotice(today: today) {
      let date = subscription.nextRenewal
      let days = date.days(until: today)
      let name = subscription.details.serviceName
      let title: PersonText = days == 1 ? "\(name) was due yesterday" : "\(name) is overdue since \(date)"
      for (userID, share) in subscription.shares {
        try await notifier.send(
          PeerNotification(
            userIDs: [userID],
            kind: .renewalReminder,
            title: TranslatedText(title),
            body: "Your share: \(share). Mark it paid once it is.",
            data: ["subscription_id": subscription.id, "renewal_date": date.description],
            dedupeKey: "ticketing:overdue:\(subscription.id):\(date):\(userID)"
          )
        )
      }
      try await store.recordOverdueNotice(subscriptionID: subscription.id, renewal: date, at: clock.now())
    }
    for subscription in try await store.automaticRenewalsPassed(today: today) {
      let (payments, next) = SubscriptionsDomain.automaticPayments(subscription, today: today, at: clock.now())
      try await store.advanceRenewal(subscriptionID: subscription.id, from: subscription.nextRenewal, to: next, payments: payments)
    }
    return sent
  }

}
