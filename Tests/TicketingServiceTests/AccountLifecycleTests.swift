import BinarioDomain
import BinarioEvents
import BinarioTestSupport
import Foundation
import GRDB
import Testing

@testable import TicketingService

@Suite("Identity's events in ticketing")
struct AccountLifecycleTests {
  static let (ada, bob, carl) = ("usr-ada-5e1f", "usr-bob-07c2", "usr-carl-9a4d")

  /// Ada bought a ticket and holds an unbought quote; she owns Netflix shared with Bob, and is a
  /// member of Carl's Disney+ with Bob.
  static func setUp() async throws -> (TestTicketing, AccountLifecycle, RecordingNotificationSender, netflix: Subscription, disney: Subscription) {
    let ticketing = try await TestTicketing()
    let run = ticketing.timetable.addRun("R4_2301", date: "2027-03-10", departure: TestTicketing.start.addingTimeInterval(7200))
    try await ticketing.accounts.addCard(ada)
    ticketing.accounts.befriend(ada, bob)
    ticketing.accounts.befriend(carl, ada)
    ticketing.accounts.befriend(carl, bob)
    let journey = QuoteRequest.station(outbound: run, from: "MONZA", to: "BERGAMO", returnRun: nil, travelClass: .second)
    let quote = try await ticketing.domain.quote(userID: ada, journey, passengers: 1)
    _ = try await ticketing.domain.purchase(userID: ada, quoteID: quote.id, idempotencyKey: "k", paymentMethodID: "")
    _ = try await ticketing.domain.quote(userID: ada, journey, passengers: 2)
    let netflix = try await ticketing.subscriptions.add(
      ownerID: ada,
      SubscriptionsTests.draft("Netflix", .monthly, 1799, start: "2027-01-15", category: .moviesAndTV, sharedWith: [bob])
    )
    let disney = try await ticketing.subscriptions.add(
      ownerID: carl,
      SubscriptionsTests.draft("Disney+", .monthly, 1199, start: "2027-03-12", category: .moviesAndTV, sharedWith: [ada, bob])
    )
    let notifier = RecordingNotificationSender()
    return (ticketing, AccountLifecycle(store: ticketing.store, clock: ticketing.clock, notifier: notifier), notifier, netflix, disney)
  }

  @Test("a deleted account: quotes and subscriptions erased, purchases kept without the buyer, members and owners told, once")
  func accountDeleted() async throws {
    let (ticketing, lifecycle, notifier, netflix, disney) = try await Self.setUp()
    let token = try #require(ticketing.accounts.cards.withLock { $0[Self.ada]?.first?.providerToken })
    let position = EventPosition(producer: "identity", sequence: 7)
    let erased = try await lifecycle.accountDeleted(userID: Self.ada, position: position)
    #expect(erased == TicketingErasure(subscriptions: 1, memberships: 1, purchases: 1, tickets: 1))

    // Nothing in the file names her or her card; the sale itself is still on record.
    let leftovers = try DatabaseLeftovers.occurrences(of: [Self.ada, token], in: URL(fileURLWithPath: ticketing.database.path))
    #expect(leftovers.isEmpty, "\(leftovers)")
    let sales = try await ticketing.database.pool.read { db in
      try String.fetchAll(db, sql: "SELECT total_minor || ' ' || currency || ' card ' || card_last4 FROM purchase")
    }
    #expect(sales == ["450 EUR card "])
    #expect(try await ticketing.store.charges().map(\.receipt.amountMinor) == [450])

    // Bob no longer sees Netflix and was told; Carl's Disney+ is split between two now.
    let (_, bobsShared) = try await ticketing.subscriptions.list(userID: Self.bob)
    #expect(bobsShared.map(\.id) == [disney.id])
    #expect(bobsShared[0].memberIDs == [Self.bob] && bobsShared[0].shares.map(\.share.amountMinor) == [600, 599])
    #expect(notifier.messages(to: Self.bob).map(\.title) == ["Netflix is no longer shared with you"])
    let toCarl = notifier.messages(to: Self.carl)
    #expect(toCarl.map(\.title) == ["A member left Disney+"] && toCarl[0].body.english.hasSuffix("Your share is now 6.00 EUR."))
    #expect(notifier.messages(to: Self.ada).isEmpty)
    #expect(notifier.sent.withLock { $0.allSatisfy { !$0.dedupeKey.contains(Self.ada) } })
    _ = netflix

    // Delivered again (a crash before the consumer's commit was recorded): nothing happens twice.
    await #expect(throws: EventAlreadyApplied.self) { _ = try await lifecycle.accountDeleted(userID: Self.ada, position: position) }
    #expect(notifier.delivered.count == 2)
  }

  @Test("friends who part leave each other's shared subscriptions, both told, and the owner's next edit goes through")
  func friendshipEnded() async throws {
    let (ticketing, lifecycle, notifier, _, disney) = try await Self.setUp()
    ticketing.accounts.friendships.withLock { _ = $0.remove([Self.ada, Self.carl].sorted()) }
    // Before the event, Carl's edit is refused: Ada is no longer his friend.
    let refused = await serviceError {
      _ = try await ticketing.subscriptions.update(userID: Self.carl, subscriptionID: disney.id, Self.disneyDraft(disney))
    }
    #expect(refused?.description.contains("is not your friend") == true)

    try await lifecycle.friendshipEnded(Self.carl, Self.ada, position: EventPosition(producer: "identity", sequence: 3))
    let after = try await ticketing.subscriptions.subscription(userID: Self.carl, subscriptionID: disney.id)
    #expect(after.memberIDs == [Self.bob])
    #expect(notifier.messages(to: Self.ada).map(\.title) == ["You no longer share Disney+"])
    #expect(notifier.messages(to: Self.carl).map(\.title) == ["Disney+ is shared with one person fewer"])
    let (_, adasShared) = try await ticketing.subscriptions.list(userID: Self.ada)
    #expect(adasShared.isEmpty)
    let edited = try await ticketing.subscriptions.update(userID: Self.carl, subscriptionID: disney.id, Self.disneyDraft(after))
    #expect(edited.memberIDs == [Self.bob])
  }

  /// Disney+ as it is, shared with whom it is shared now: what Carl's edit sends.
  static func disneyDraft(_ subscription: Subscription) -> SubscriptionsDomain.Draft {
    SubscriptionsTests.draft("Disney+", .monthly, 1299, start: "2027-03-12", category: .moviesAndTV, sharedWith: subscription.memberIDs)
  }
}
