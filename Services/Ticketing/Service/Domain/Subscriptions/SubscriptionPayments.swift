import BinarioDomain
import Foundation

/// One date of a subscription paid: marked by a person (paying by hand) or recorded by the
/// renewal job (automatic renewal). At most one per date: the date is what makes marking it paid
/// again harmless.
public struct SubscriptionPayment: Sendable, Hashable {
  public var subscriptionID: String
  /// The charge date it paid.
  public var dueDate: CalendarDate
  public var paidOn: CalendarDate
  /// The whole price at the time (members' shares are the price split).
  public var amount: Money
  public var automatic: Bool
  /// Who marked it paid; `nil` when automatic or when that person has left.
  public var paidBy: String?
  public var recordedAt: Date

  public init(
    subscriptionID: String,
    dueDate: CalendarDate,
    paidOn: CalendarDate,
    amount: Money,
    automatic: Bool,
    paidBy: String?,
    recordedAt: Date
  ) {
    self.subscriptionID = subscriptionID
    self.dueDate = dueDate
    self.paidOn = paidOn
    self.amount = amount
    self.automatic = automatic
    self.paidBy = paidBy
    self.recordedAt = recordedAt
  }

  /// What recording a payment by hand came to.
  public enum Outcome: Sendable, Hashable {
    case recorded
    /// That date was paid before: the payment recorded then.
    case alreadyRecorded(SubscriptionPayment)
    /// The subscription's next date is no longer the one paid (someone else marked it meanwhile).
    case dateMoved
  }
}

extension SubscriptionsDomain {
  /// The owner or a member marks `dueDate` paid; the next date moves on by one period. The same
  /// date again returns the payment recorded for it.
  public func markPaid(
    userID: String,
    subscriptionID: String,
    dueDate rawDue: String,
    paidOn rawPaidOn: String
  ) async throws -> (Subscription, SubscriptionPayment) {
    var check = InputValidation()
    let due = CalendarDate(iso: rawDue.trimmingCharacters(in: .whitespaces))
    if due == nil { check.fail("due_date", "the date being paid (YYYY-MM-DD) is required") }
    let paidText = rawPaidOn.trimmingCharacters(in: .whitespaces)
    let paidOn = paidText.isEmpty ? today : CalendarDate(iso: paidText)
    if paidOn == nil {
      check.fail("paid_on", "a date YYYY-MM-DD, or nothing for today")
    } else if paidOn! > today {
      check.fail("paid_on", "a payment cannot be recorded in the future")
    }
    try check.finish()
    let subscription = try await visible(userID: userID, subscriptionID: subscriptionID)
    let name = subscription.details.serviceName
    if subscription.ticketID != nil { throw ServiceError.failedPrecondition("a pass is paid when it is bought") }
    if subscription.details.automaticRenewal {
      throw ServiceError.failedPrecondition("\(name) renews automatically: its payments are recorded by themselves")
    }
    if let earlier = try await store.payment(subscriptionID: subscriptionID, dueDate: due!) { return (subscription, earlier) }
    if subscription.pausedOn != nil { throw ServiceError.failedPrecondition("\(name) is paused: resume it first") }
    if let endsOn = subscription.endsOn, due! > endsOn {
      throw ServiceError.failedPrecondition("\(name) ends on \(endsOn): nothing is due after that day")
    }
    guard due! == subscription.nextRenewal else {
      throw ServiceError.failedPrecondition("the next date to pay for \(name) is \(subscription.nextRenewal), not \(due!)")
    }
    let payment = SubscriptionPayment(
      subscriptionID: subscriptionID,
      dueDate: due!,
      paidOn: paidOn!,
      amount: subscription.details.price,
      automatic: false,
      paidBy: userID,
      recordedAt: clock.now()
    )
    let next = subscription.charge(after: due!)
    switch try await store.recordPayment(payment, movingTo: next) {
    case .recorded:
      changed()
      var paid = subscription
      paid.nextRenewal = next
      return (paid, payment)
    case .alreadyRecorded(let earlier):
      return (try await visible(userID: userID, subscriptionID: subscriptionID), earlier)
    case .dateMoved:
      throw ServiceError.failedPrecondition("someone else marked \(name) paid meanwhile: look at it again")
    }
  }

  /// Every payment of a subscription the user sees, newest date first, with their total (the
  /// subscription's currency).
  public func payments(userID: String, subscriptionID: String) async throws -> (payments: [SubscriptionPayment], total: Money) {
    let subscription = try await visible(userID: userID, subscriptionID: subscriptionID)
    let payments = try await store.payments(subscriptionID: subscriptionID)
    let total = payments.filter { $0.amount.currency == subscription.details.price.currency }.reduce(0) { $0 + $1.amount.amountMinor }
    return (payments, Money(amountMinor: total, currency: subscription.details.price.currency))
  }

  /// The automatic payments of the dates from `subscription`'s next date until before `today`
  /// (up to its end), and the date it moves to.
  static func automaticPayments(
    _ subscription: Subscription,
    today: CalendarDate,
    at now: Date
  ) -> (
    payments: [SubscriptionPayment], next: CalendarDate
  ) {
    var payments: [SubscriptionPayment] = []
    var date = subscription.nextRenewal
    while date < today {
      if let endsOn = subscription.endsOn, date > endsOn { break }
      payments.append(
        SubscriptionPayment(
          subscriptionID: subscription.id,
          dueDate: date,
          paidOn: date,
          amount: subscription.details.price,
          automatic: true,
          paidBy: nil,
          recordedAt: now
        )
      )
      date = subscription.charge(after: date)
    }
    return (payments, date)
  }
}
