import BinarioDomain
import BinarioTestSupport
import Foundation
import Testing

@testable import TicketingService

@Suite("Subscriptions")
struct SubscriptionsTests {
  static func draft(
    _ name: String,
    _ period: SubscriptionPeriod,
    _ price: Int64,
    currency: String = "EUR",
    start: String,
    category: SubscriptionCategory,
    automatic: Bool = true,
    custom: Bool = false,
    sharedWith: [String] = []
  ) -> SubscriptionsDomain.Draft {
    .init(
      serviceName: name,
      customServiceName: custom,
      planType: "individual",
      customPlanType: false,
      startDate: start,
      period: period,
      priceMinor: price,
      currency: currency,
      cardLast4: "4242",
      automaticRenewal: automatic,
      category: category,
      sharedWith: sharedWith
    )
  }

  /// Ada's five: three of hers in EUR (one shared with Bob), one in USD, and Carl's shared with her and Bob.
  static func setUp() async throws -> (TestTicketing, [Subscription]) {
    let ticketing = try await TestTicketing()
    ticketing.accounts.befriend("ada", "bob")
    ticketing.accounts.befriend("carl", "ada")
    ticketing.accounts.befriend("carl", "bob")
    let book = ticketing.subscriptions
    let netflix = try await book.add(
      ownerID: "ada",
      draft("netflix", .monthly, 1799, start: "2027-01-15", category: .moviesAndTV, sharedWith: ["bob"])
    )
    let spotify = try await book.add(ownerID: "ada", draft("Spotify", .quarterly, 3000, start: "2027-02-01", category: .music))
    let gym = try await book.add(
      ownerID: "ada",
      draft("Gym", .weekly, 500, start: "2027-03-08", category: .other, automatic: false, custom: true)
    )
    let music = try await book.add(
      ownerID: "ada",
      draft("Apple Music", .yearly, 10900, currency: "usd", start: "2026-06-30", category: .music)
    )
    let disney = try await book.add(
      ownerID: "carl",
      draft("Disney+", .monthly, 1199, start: "2027-03-12", category: .moviesAndTV, sharedWith: ["ada", "bob"])
    )
    return (ticketing, [netflix, spotify, gym, music, disney])
  }

  @Test("names from the list are normalised, custom ones kept; shares split exactly, the owner first")
  func shares() async throws {
    let (ticketing, all) = try await Self.setUp()
    #expect(all[0].details.serviceName == "Netflix" && all[2].details.serviceName == "Gym")
    #expect(all[0].shares.map(\.share.amountMinor) == [900, 899])
    #expect(all[4].shares.map(\.share.amountMinor) == [400, 400, 399])
    #expect(all[0].nextRenewal.description == "2027-03-15" && all[4].nextRenewal.description == "2027-03-12")
    let (mine, shared) = try await ticketing.subscriptions.list(userID: "ada")
    #expect(mine.count == 4 && shared.map(\.id) == [all[4].id])
    let unlisted = await serviceError {
      _ = try await ticketing.subscriptions.add(ownerID: "ada", Self.draft("Gym", .weekly, 500, start: "2027-03-08", category: .other))
    }
    #expect(unlisted?.description.contains("details.service_name") == true)
    let bad = await serviceError {
      _ = try await ticketing.subscriptions.add(
        ownerID: "ada",
        .init(
          serviceName: "",
          customServiceName: false,
          planType: "",
          customPlanType: false,
          startDate: "2027-02-30",
          period: nil,
          priceMinor: -1,
          currency: "E",
          cardLast4: "12",
          automaticRenewal: false,
          category: nil,
          sharedWith: []
        )
      )
    }
    for field in [
      "details.service_name", "details.start_date", "details.period", "details.category",
      "details.price.amount_minor", "details.price.currency", "details.card_last4",
    ] {
      #expect(bad?.description.contains(field) == true, "\(field)")
    }
  }

  @Test("an add retried with its idempotency key adds nothing and returns the subscription as it is now; another owner's same key is theirs")
  func idempotentAdd() async throws {
    let ticketing = try await TestTicketing()
    let book = ticketing.subscriptions
    let draft = Self.draft("Netflix", .monthly, 1799, start: "2027-01-15", category: .moviesAndTV)
    let first = try await book.add(ownerID: "ada", draft, idempotencyKey: "key-1")
    // Two retries racing: one subscription.
    async let again = book.add(ownerID: "ada", draft, idempotencyKey: "key-1")
    async let racing = book.add(ownerID: "ada", draft, idempotencyKey: "key-1")
    #expect(try await [again.id, racing.id] == [first.id, first.id])
    let edited = try await book.update(
      userID: "ada",
      subscriptionID: first.id,
      Self.draft("Netflix", .monthly, 2399, start: "2027-01-15", category: .moviesAndTV)
    )
    #expect(try await book.add(ownerID: "ada", draft, idempotencyKey: "key-1").details.price == edited.details.price)
    // Another owner, the same key: a subscription of their own. No key: every call adds.
    let bobs = try await book.add(ownerID: "bob", draft, idempotencyKey: "key-1")
    #expect(bobs.id != first.id)
    _ = try await book.add(ownerID: "ada", draft)
    _ = try await book.add(ownerID: "ada", draft)
    #expect(try await book.list(userID: "ada").mine.count == 3)
    let long = await serviceError { _ = try await book.add(ownerID: "ada", draft, idempotencyKey: String(repeating: "k", count: 101)) }
    #expect(long?.description.contains("idempotency_key") == true)
  }

  @Test("only friends are shared with; a member cannot edit or delete but can withdraw")
  func sharing() async throws {
    let (ticketing, all) = try await Self.setUp()
    let stranger = await serviceError {
      _ = try await ticketing.subscriptions.add(
        ownerID: "ada",
        Self.draft("Netflix", .monthly, 1799, start: "2027-01-15", category: .moviesAndTV, sharedWith: ["dave"])
      )
    }
    #expect(stranger?.description.contains("dave is not your friend") == true)
    let edit = Self.draft("Disney+", .monthly, 999, start: "2027-03-12", category: .moviesAndTV, sharedWith: ["ada"])
    let denied = await serviceError { _ = try await ticketing.subscriptions.update(userID: "ada", subscriptionID: all[4].id, edit) }
    #expect(denied?.isPermissionDenied == true)
    let notDeleted = await serviceError { try await ticketing.subscriptions.delete(userID: "bob", subscriptionID: all[4].id) }
    #expect(notDeleted?.isPermissionDenied == true)
    try await ticketing.subscriptions.withdraw(userID: "ada", subscriptionID: all[4].id)
    let after = try await ticketing.subscriptions.subscription(userID: "carl", subscriptionID: all[4].id)
    #expect(after.memberIDs == ["bob"] && after.shares.map(\.share.amountMinor) == [600, 599])
    let gone = await serviceError { _ = try await ticketing.subscriptions.subscription(userID: "ada", subscriptionID: all[4].id) }
    if case .notFound = gone {} else { Issue.record("expected NOT_FOUND, got \(String(describing: gone))") }
    let ownerWithdraws = await serviceError { try await ticketing.subscriptions.withdraw(userID: "carl", subscriptionID: all[4].id) }
    #expect(ownerWithdraws?.isFailedPrecondition == true)
    let updated = try await ticketing.subscriptions.update(userID: "carl", subscriptionID: all[4].id, edit)
    #expect(updated.details.price.amountMinor == 999 && updated.memberIDs == ["ada"])
  }

  @Test("home: per currency, every period normalised, shared ones at the user's share; the next renewals")
  func home() async throws {
    let (ticketing, all) = try await Self.setUp()
    let home = try await ticketing.subscriptions.home(userID: "ada", renewals: 5)
    // EUR a year: Netflix 900×12 = 10,800; Spotify 3,000×4 = 12,000; Gym 500×52 = 26,000;
    // Disney+ (Ada's share) 400×12 = 4,800: 53,600, a month 4,466.67 → 4,467. USD: 10,900 → 908.33 → 908.
    #expect(home.totals.map(\.yearly) == [Money(amountMinor: 53_600, currency: "EUR"), Money(amountMinor: 10_900, currency: "USD")])
    #expect(home.totals.map(\.monthly.amountMinor) == [4_467, 908])
    #expect(home.subscriptions == 5)
    #expect(home.nextRenewals.map(\.subscription.id) == [all[4].id] + [all[0].id, all[2].id].sorted() + [all[1].id, all[3].id])
    #expect(home.nextRenewals.map(\.daysLeft) == [2, 5, 5, 52, 112])
    #expect(home.nextRenewals[0].yourShare.amountMinor == 400)
  }

  @Test("statistics per category: count, monthly spend and share, per currency")
  func statistics() async throws {
    let (ticketing, _) = try await Self.setUp()
    let figures = try await ticketing.subscriptions.statistics(userID: "ada")
    let shown = figures.perCurrency.map {
      "\($0.currency) \($0.category.rawValue) \($0.subscriptions) \($0.monthly.amountMinor) \($0.shareBasisPoints)"
    }
    // EUR: movies & TV 15,600 a year (1,300 a month, 29.10 %), music 12,000 (1,000, 22.39 %), other 26,000 (2,167, 48.51 %).
    #expect(shown == ["EUR moviesAndTV 2 1300 2910", "EUR music 1 1000 2239", "EUR other 1 2167 4851", "USD music 1 908 10000"])
  }

  @Test("a reminder goes out once per renewal, to owner and members, across restarts; automatic renewals move on")
  func reminders() async throws {
    let (ticketing, all) = try await Self.setUp()
    let notifier = RecordingNotificationSender()
    func job() -> RenewalReminders {
      RenewalReminders(store: ticketing.store, clock: ticketing.clock, notifier: notifier, zone: TestTicketing.zone, daysBefore: 3)
    }
    #expect(try await job().runOnce() == 1)  // Disney+ on 03-12
    #expect(try await job().runOnce() == 0)  // a restarted job sends nothing again
    #expect(notifier.delivered.map(\.userIDs) == [["carl"], ["ada"], ["bob"]])
    ticketing.clock.advance(by: 2 * 86_400)  // 03-12: Netflix and the gym (03-15) are 3 days away
    #expect(try await job().runOnce() == 2)
    #expect(notifier.delivered.count == 6)
    #expect(notifier.delivered.contains { $0.title == "Gym is due in 3 days (2027-03-15)" })
    ticketing.clock.advance(by: 4 * 86_400)  // 03-16
    try await job().runOnce()
    let netflix = try await ticketing.subscriptions.subscription(userID: "ada", subscriptionID: all[0].id)
    let gym = try await ticketing.subscriptions.subscription(userID: "ada", subscriptionID: all[2].id)
    #expect(netflix.nextRenewal.description == "2027-04-15" && gym.nextRenewal.description == "2027-03-15")
    let disney = try await ticketing.subscriptions.subscription(userID: "carl", subscriptionID: all[4].id)
    #expect(disney.nextRenewal.description == "2027-04-12")
  }
}
