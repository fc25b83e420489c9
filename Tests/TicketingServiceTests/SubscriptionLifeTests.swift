import BinarioDomain
import BinarioTestSupport
import Foundation
import Testing

@testable import TicketingService

/// A subscription's life (due, paid, overdue, paused, cancelled, a free trial), its settings, and
/// the grand total converted with the ECB's rates. The clock starts on 2027-03-10 in Rome.
@Suite("Subscriptions through their life")
struct SubscriptionLifeTests {
  typealias Draft = SubscriptionsDomain.Draft

  static func job(_ ticketing: TestTicketing, _ notifier: RecordingNotificationSender) -> RenewalReminders {
    RenewalReminders(store: ticketing.store, clock: ticketing.clock, notifier: notifier, zone: TestTicketing.zone, daysBefore: 3)
  }

  static let ecbXML = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
      <gesmes:subject>Reference rates</gesmes:subject>
      <gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
      <Cube>
        <Cube time='2027-03-09'>
          <Cube currency='USD' rate='1.0512'/>
          <Cube currency='JPY' rate='162.39'/>
          <Cube currency='GBP' rate='0.83510'/>
        </Cube>
        <Cube time='2027-03-08'>
          <Cube currency='USD' rate='1.2'/>
        </Cube>
      </Cube>
    </gesmes:Envelope>
    """

  @Test("a subscription paid by hand falls due, is told overdue once, is marked paid by a member and moves on one period")
  func paidByHand() async throws {
    let ticketing = try await TestTicketing()
    ticketing.accounts.befriend("ada", "bob")
    let notifier = RecordingNotificationSender()
    let book = ticketing.subscriptions
    // Started a week ago, weekly, paid by hand: due today, 03-10. Shared with Bob by his email.
    var draft = SubscriptionsTests.draft("Gym", .weekly, 500, start: "2027-03-03", category: .other, automatic: false, custom: true)
    draft.planType = ""
    draft.sharedWithEmails = ["Bob@example.com"]
    let gym = try await book.add(ownerID: "ada", draft)
    #expect(gym.memberIDs == ["bob"] && gym.details.planType == "")
    #expect(gym.nextRenewal.description == "2027-03-10" && gym.isDue(on: book.today) && gym.daysOverdue(on: book.today) == 0)
    #expect(try await book.home(userID: "ada", renewals: 0).due.map(\.subscription.id) == [gym.id])

    ticketing.clock.advance(by: 2 * 86_400)  // 03-12
    try await Self.job(ticketing, notifier).runOnce()
    try await Self.job(ticketing, notifier).runOnce()
    let overdue = notifier.delivered.filter { $0.title == "Gym is overdue since 2027-03-10" }
    #expect(overdue.map(\.userIDs) == [["ada"], ["bob"]])
    let seen = try await book.subscription(userID: "ada", subscriptionID: gym.id)
    #expect(seen.daysOverdue(on: book.today) == 2)

    let (paid, payment) = try await book.markPaid(userID: "bob", subscriptionID: gym.id, dueDate: "2027-03-10", paidOn: "")
    #expect(paid.nextRenewal.description == "2027-03-17" && !paid.isDue(on: book.today))
    #expect(payment.paidBy == "bob" && payment.amount == Money(amountMinor: 500, currency: "EUR") && payment.paidOn.description == "2027-03-12")
    // The same date again: the same payment, nothing moves.
    let (again, repeated) = try await book.markPaid(userID: "ada", subscriptionID: gym.id, dueDate: "2027-03-10", paidOn: "2027-03-11")
    #expect(repeated == payment && again.nextRenewal.description == "2027-03-17")
    let wrongDate = await serviceError { _ = try await book.markPaid(userID: "ada", subscriptionID: gym.id, dueDate: "2027-03-24", paidOn: "") }
    #expect(wrongDate?.isFailedPrecondition == true && wrongDate?.description.contains("2027-03-17") == true)
    let future = await serviceError {
      _ = try await book.markPaid(userID: "ada", subscriptionID: gym.id, dueDate: "2027-03-17", paidOn: "2027-03-13")
    }
    #expect(future?.description.contains("paid_on") == true)
    let stranger = await serviceError { _ = try await book.markPaid(userID: "carl", subscriptionID: gym.id, dueDate: "2027-03-17", paidOn: "") }
    if case .notFound = stranger {} else { Issue.record("expected NOT_FOUND, got \(String(describing: stranger))") }
    // Paid ahead: the next one.
    _ = try await book.markPaid(userID: "ada", subscriptionID: gym.id, dueDate: "2027-03-17", paidOn: "")
    let (payments, total) = try await book.payments(userID: "bob", subscriptionID: gym.id)
    #expect(payments.map(\.dueDate.description) == ["2027-03-17", "2027-03-10"] && payments.map(\.paidBy) == ["ada", "bob"])
    #expect(total == Money(amountMinor: 1000, currency: "EUR"))
  }

  @Test(
    "an automatic renewal records each payment as its date passes; a cancelled one renews up to its end, then is ended, kept and out of the totals"
  )
  func automaticAndCancelled() async throws {
    let ticketing = try await TestTicketing()
    let notifier = RecordingNotificationSender()
    let book = ticketing.subscriptions
    let netflix = try await book.add(ownerID: "ada", SubscriptionsTests.draft("Netflix", .monthly, 1799, start: "2027-01-15", category: .moviesAndTV))
    let spotify = try await book.add(ownerID: "ada", SubscriptionsTests.draft("Spotify", .monthly, 1099, start: "2027-01-20", category: .music))
    let byHand = await serviceError { _ = try await book.markPaid(userID: "ada", subscriptionID: netflix.id, dueDate: "2027-03-15", paidOn: "") }
    #expect(byHand?.isFailedPrecondition == true)

    let cancelled = try await book.cancel(userID: "ada", subscriptionID: spotify.id, endsOn: "2027-04-25")
    #expect(cancelled.status(on: book.today) == .cancelled)
    #expect(try await book.home(userID: "ada", renewals: 0).totals.map(\.monthly.amountMinor) == [1799])
    let beforeStart = await serviceError { _ = try await book.cancel(userID: "ada", subscriptionID: spotify.id, endsOn: "2027-01-01") }
    #expect(beforeStart?.description.contains("ends_on") == true)

    ticketing.clock.advance(by: 67 * 86_400)  // 05-16
    try await Self.job(ticketing, notifier).runOnce()
    try await Self.job(ticketing, notifier).runOnce()
    let (netflixPayments, netflixTotal) = try await book.payments(userID: "ada", subscriptionID: netflix.id)
    #expect(netflixPayments.map(\.dueDate.description) == ["2027-05-15", "2027-04-15", "2027-03-15"])
    #expect(netflixPayments.allSatisfy { $0.automatic && $0.paidBy == nil } && netflixTotal.amountMinor == 3 * 1799)
    #expect(try await book.subscription(userID: "ada", subscriptionID: netflix.id).nextRenewal.description == "2027-06-15")
    let (spotifyPayments, _) = try await book.payments(userID: "ada", subscriptionID: spotify.id)
    #expect(spotifyPayments.map(\.dueDate.description) == ["2027-04-20", "2027-03-20"])
    let ended = try await book.subscription(userID: "ada", subscriptionID: spotify.id)
    #expect(ended.status(on: book.today) == .ended)
    #expect(try await book.list(userID: "ada").mine.map(\.id).contains(spotify.id))
    let pauseEnded = await serviceError { _ = try await book.pause(userID: "ada", subscriptionID: spotify.id) }
    #expect(pauseEnded?.isFailedPrecondition == true)
    // Resumed, it renews from its next date on or after today; nothing of the gap is owed.
    let resumed = try await book.resume(userID: "ada", subscriptionID: spotify.id)
    #expect(resumed.status(on: book.today) == .active && resumed.nextRenewal.description == "2027-05-20")
  }

  @Test("paused: nothing due, reminded or counted; resumed from the next date, the paused dates not owed; only the owner")
  func pausedAndResumed() async throws {
    let ticketing = try await TestTicketing()
    ticketing.accounts.befriend("ada", "bob")
    let notifier = RecordingNotificationSender()
    let book = ticketing.subscriptions
    let gym = try await book.add(
      ownerID: "ada",
      SubscriptionsTests.draft("Gym", .weekly, 500, start: "2027-03-03", category: .other, automatic: false, custom: true, sharedWith: ["bob"])
    )
    let notOwner = await serviceError { _ = try await book.pause(userID: "bob", subscriptionID: gym.id) }
    #expect(notOwner?.isPermissionDenied == true)
    let paused = try await book.pause(userID: "ada", subscriptionID: gym.id)
    #expect(paused.status(on: book.today) == .paused && !paused.isDue(on: book.today))
    #expect(try await book.pause(userID: "ada", subscriptionID: gym.id) == paused)
    let home = try await book.home(userID: "ada", renewals: 0)
    #expect(home.due.isEmpty && home.totals.isEmpty && home.nextRenewals.isEmpty)
    let whilePaused = await serviceError { _ = try await book.markPaid(userID: "ada", subscriptionID: gym.id, dueDate: "2027-03-10", paidOn: "") }
    #expect(whilePaused?.isFailedPrecondition == true)
    ticketing.clock.advance(by: 20 * 86_400)  // 03-30
    #expect(try await Self.job(ticketing, notifier).runOnce() == 0)
    #expect(notifier.delivered.isEmpty)
    let resumed = try await book.resume(userID: "ada", subscriptionID: gym.id)
    #expect(resumed.status(on: book.today) == .active && resumed.nextRenewal.description == "2027-03-31" && resumed.pausedOn == nil)
    #expect(try await book.resume(userID: "ada", subscriptionID: gym.id) == resumed)
  }

  @Test("a free trial: first charged on its last day, reminded its own lead time before with the price it converts to, counted at that price")
  func freeTrial() async throws {
    let ticketing = try await TestTicketing()
    let notifier = RecordingNotificationSender()
    let book = ticketing.subscriptions
    var draft = SubscriptionsTests.draft("Disney+", .monthly, 899, start: "2027-03-10", category: .moviesAndTV)
    draft.trialEndsOn = "2027-03-20"
    draft.reminderDays = 5
    let trial = try await book.add(ownerID: "ada", draft)
    #expect(trial.status(on: book.today) == .trial && trial.nextRenewal.description == "2027-03-20")
    #expect(try await book.home(userID: "ada", renewals: 0).totals.map(\.monthly.amountMinor) == [899])
    #expect(try await Self.job(ticketing, notifier).runOnce() == 0)  // ten days ahead, reminded five before
    ticketing.clock.advance(by: 5 * 86_400)  // 03-15
    #expect(try await Self.job(ticketing, notifier).runOnce() == 1)
    let reminder = try #require(notifier.delivered.first)
    #expect(reminder.title == "Your free trial of Disney+ ends in 5 days (2027-03-20)")
    #expect(reminder.body.english.contains("8.99 EUR monthly"))
    ticketing.clock.advance(by: 6 * 86_400)  // 03-21
    try await Self.job(ticketing, notifier).runOnce()
    let converted = try await book.subscription(userID: "ada", subscriptionID: trial.id)
    #expect(converted.status(on: book.today) == .active && converted.nextRenewal.description == "2027-04-20")
    #expect(try await book.payments(userID: "ada", subscriptionID: trial.id).payments.map(\.dueDate.description) == ["2027-03-20"])
    draft.trialEndsOn = "2027-03-01"
    let early = await serviceError { _ = try await book.add(ownerID: "ada", draft) }
    #expect(early?.description.contains("details.trial_ends_on") == true)
  }

  @Test("the owner's default lead time when the subscription has none; settings checked field by field")
  func settings() async throws {
    let ticketing = try await TestTicketing()
    let notifier = RecordingNotificationSender()
    let book = ticketing.subscriptions
    #expect(try await book.settings(userID: "ada") == .defaults(reminderDays: 3))
    // Netflix renews on 03-15, five days away: not yet with three days' notice, at once with seven.
    _ = try await book.add(ownerID: "ada", SubscriptionsTests.draft("Netflix", .monthly, 1799, start: "2027-01-15", category: .moviesAndTV))
    #expect(try await Self.job(ticketing, notifier).runOnce() == 0)
    _ = try await book.updateSettings(
      userID: "ada",
      reminderDays: 7,
      homeRenewals: 2,
      mainCurrency: "eur",
      monthlyBudgetMinor: 0,
      categoryBudgets: []
    )
    #expect(try await Self.job(ticketing, notifier).runOnce() == 1)
    #expect(notifier.delivered.map(\.title) == ["Netflix renews in 5 days (2027-03-15)"])
    let bad = await serviceError {
      _ = try await book.updateSettings(
        userID: "ada",
        reminderDays: 61,
        homeRenewals: 0,
        mainCurrency: "euro",
        monthlyBudgetMinor: -1,
        categoryBudgets: [(.music, 100), (.music, 200), (nil, 5)]
      )
    }
    for field in [
      "settings.reminder_days", "settings.home_renewals", "settings.main_currency", "settings.monthly_budget_minor",
      "settings.category_budgets[1].category", "settings.category_budgets[2].category",
    ] {
      #expect(bad?.description.contains(field) == true, "\(field)")
    }
  }

  @Test("the ECB's rates read from its XML and CSV files; amounts converted between minor units exactly")
  func exchangeRates() throws {
    let xml = try ExchangeRates.parse(Self.ecbXML)
    #expect(
      xml.date.description == "2027-03-09"
        && xml.perEuro == ["USD": Decimal(string: "1.0512")!, "JPY": Decimal(string: "162.39")!, "GBP": Decimal(string: "0.8351")!]
    )
    let csv = try ExchangeRates.parse("Date, USD, JPY, BGN, CYP, \n9 March 2027, 1.0512, 162.39, N/A, N/A, \n")
    #expect(csv.date.description == "2027-03-09" && csv.perEuro.keys.sorted() == ["JPY", "USD"])
    let history = try ExchangeRates.parse("Date,USD,JPY\n2027-03-09,1.0512,162.39\n2027-03-08,1.2,160\n")
    #expect(history.date.description == "2027-03-09" && history.rate("USD") == Decimal(string: "1.0512"))
    // 1,000 yen (no minor unit) in euro cents: 615.80 → 616; 10 euros in yen: 1,623.9 → 1,624.
    #expect(ExchangeRates.rounded(xml.convert(1000, from: "JPY", to: "EUR")!) == 616)
    #expect(ExchangeRates.rounded(xml.convert(1000, from: "EUR", to: "JPY")!) == 1624)
    #expect(xml.convert(100, from: "CHF", to: "EUR") == nil)
    for bad in ["", "<html></html>", "Date,USD\nyesterday,1.1\n", "Date,USD\n2027-03-09,-1\n"] {
      #expect(throws: ServiceError.self) { try ExchangeRates.parse(bad) }
    }
  }

  @Test("home: one grand total in the main currency besides the per-currency ones, the budgets passed, as many renewals as set")
  func grandTotalAndBudgets() async throws {
    let (ticketing, _) = try await SubscriptionsTests.setUp()
    let book = ticketing.subscriptions
    // Without rates: no grand total, the currency without one named.
    let unrated = try await book.home(userID: "ada", renewals: 0)
    #expect(unrated.grandTotal == nil && unrated.unconverted == ["USD"] && unrated.nextRenewals.count == 2)
    _ = try await book.loadExchangeRates(Self.ecbXML)
    // EUR 53,600 a year + USD 10,900 / 1.0512 = 10,369.10: 63,969 a year, 5,330.75 → 5,331 a month.
    let home = try await book.home(userID: "ada", renewals: 0)
    #expect(home.totals.map(\.yearly.amountMinor) == [53_600, 10_900])
    #expect(home.grandTotal?.yearly == Money(amountMinor: 63_969, currency: "EUR") && home.grandTotal?.monthly.amountMinor == 5_331)
    #expect(home.ratesDate?.description == "2027-03-09" && home.unconverted.isEmpty && home.budgetNotices.isEmpty)
    _ = try await book.updateSettings(
      userID: "ada",
      reminderDays: 3,
      homeRenewals: 4,
      mainCurrency: "USD",
      monthlyBudgetMinor: 5_000,
      categoryBudgets: [(.moviesAndTV, 1_300), (.music, 1_000)]
    )
    // In dollars: 53,600 × 1.0512 = 56,344.32 + 10,900: 67,244 a year, 5,603.67 → 5,604 a month.
    let inDollars = try await book.home(userID: "ada", renewals: 0)
    #expect(inDollars.grandTotal?.monthly == Money(amountMinor: 5_604, currency: "USD") && inDollars.nextRenewals.count == 4)
    // Movies & TV 15,600 × 1.0512 = 16,398.72 a year, 1,366.58 → 1,367 a month, past 1,300; music
    // 12,000 × 1.0512 + 10,900 = 23,514.4 → 1,959.5 → 1,960, past 1,000.
    #expect(
      inDollars.budgetNotices == [
        .init(category: nil, budget: Money(amountMinor: 5_000, currency: "USD"), spent: Money(amountMinor: 5_604, currency: "USD")),
        .init(category: .moviesAndTV, budget: Money(amountMinor: 1_300, currency: "USD"), spent: Money(amountMinor: 1_367, currency: "USD")),
        .init(category: .music, budget: Money(amountMinor: 1_000, currency: "USD"), spent: Money(amountMinor: 1_960, currency: "USD")),
      ]
    )
  }

  @Test("statistics: each category's share of the subscriptions and of the money, per currency and converted")
  func statistics() async throws {
    let (ticketing, _) = try await SubscriptionsTests.setUp()
    let book = ticketing.subscriptions
    #expect(try await book.statistics(userID: "ada").converted.isEmpty)
    _ = try await book.loadExchangeRates(Self.ecbXML)
    let figures = try await book.statistics(userID: "ada")
    // Five subscriptions: two movies & TV, two music, one other.
    #expect(figures.perCurrency.map(\.subscriptionsShareBasisPoints) == [4000, 4000, 2000, 4000])
    // In euros a month: movies & TV 1,300; music 12,000 + 10,369.10 = 22,369 a year → 1,864; other 2,167.
    let converted = figures.converted.map {
      "\($0.category.rawValue) \($0.subscriptions) \($0.monthly) \($0.shareBasisPoints) \($0.subscriptionsShareBasisPoints)"
    }
    #expect(converted == ["moviesAndTV 2 13.00 EUR 2439 4000", "music 2 18.64 EUR 3497 4000", "other 1 21.67 EUR 4065 2000"])
    #expect(figures.ratesDate?.description == "2027-03-09")
  }

  @Test("shared by email: a registered friend joins; an unknown email or a stranger's is refused by its field")
  func sharedByEmail() async throws {
    let ticketing = try await TestTicketing()
    ticketing.accounts.befriend("ada", "bob")
    let book = ticketing.subscriptions
    var draft = SubscriptionsTests.draft("Netflix", .monthly, 1799, start: "2027-01-15", category: .moviesAndTV, sharedWith: ["bob"])
    draft.sharedWithEmails = ["bob@example.com"]
    #expect(try await book.add(ownerID: "ada", draft).memberIDs == ["bob"])
    draft.sharedWithEmails = ["zed@elsewhere.org"]
    let unknown = await serviceError { _ = try await book.add(ownerID: "ada", draft) }
    #expect(unknown?.description.contains("shared_with_emails[0]") == true && unknown?.description.contains("no one has registered") == true)
    draft.sharedWithEmails = ["dave@example.com"]
    let stranger = await serviceError { _ = try await book.add(ownerID: "ada", draft) }
    #expect(stranger?.description.contains("dave@example.com is not your friend") == true)
    let people = await book.people(in: [try await book.list(userID: "ada").mine[0]])
    #expect(people["bob"]?.email == "bob@example.com")
  }
}
