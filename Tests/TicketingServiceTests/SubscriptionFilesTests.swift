import BinarioDomain
import BinarioTestSupport
import Foundation
import Testing

@testable import TicketingService

/// A person's subscriptions out and in: Binario's CSV read back as written, Wallos's exports read,
/// each bad row named. The clock starts on 2027-03-10 in Rome.
@Suite("Subscriptions as files")
struct SubscriptionFilesTests {
  /// As Wallos 5's "Export as JSON" writes it (its export endpoint's fields).
  static let wallosJSON = """
    [{"Name":"Netflix","Payment Cycle":"Monthly","Next Payment":"2027-03-25","Renewal":"Automatic","Category":"Entertainment",
      "Payment Method":"PayPal","Paid By":"Ada","Price":"€17.99","Notes":"","URL":"https://netflix.com","State":"Enabled",
      "Notifications":"Enabled","Cancellation Date":"","Active":"Yes"},
     {"Name":"Backblaze","Payment Cycle":"Yearly","Next Payment":"2027-06-01","Renewal":"Manual","Category":"Cloud Services",
      "Payment Method":"Card","Paid By":"Ada","Price":"$99","Notes":"B2 backups","URL":"","State":"Enabled",
      "Notifications":"Enabled","Cancellation Date":"","Active":"Yes"},
     {"Name":"Gym","Payment Cycle":"Every 2 Weeks","Next Payment":"2027-03-14","Renewal":"Automatic","Category":"Health & Wellbeing",
      "Payment Method":"Cash","Paid By":"Ada","Price":"€20","Notes":"","URL":"","State":"Enabled",
      "Notifications":"Enabled","Cancellation Date":"","Active":"Yes"},
     {"Name":"Old magazine","Payment Cycle":"Every 3 Months","Next Payment":"2027-04-01","Renewal":"Automatic","Category":"News & Magazines",
      "Payment Method":"Card","Paid By":"Ada","Price":"12 kr","Notes":"","URL":"","State":"Enabled",
      "Notifications":"Enabled","Cancellation Date":"","Active":"Yes"},
     {"Name":"Tidal","Payment Cycle":"Monthly","Next Payment":"2027-03-20","Renewal":"Automatic","Category":"Music",
      "Payment Method":"Card","Paid By":"Ada","Price":"10,99 €","Notes":"","URL":"","State":"Disabled",
      "Notifications":"Disabled","Cancellation Date":"2027-04-19","Active":"No"}]
    """

  @Test("Wallos's JSON: each row read (a symbol's currency, a cycle, the next payment, a cancellation), the others named with why")
  func wallosJSON() async throws {
    let ticketing = try await TestTicketing()
    let book = ticketing.subscriptions
    let result = try await book.importFile(userID: "ada", content: Self.wallosJSON)
    #expect(result.format == .wallosJSON)
    let shown = result.added.map {
      "\($0.details.serviceName) \($0.details.price) \($0.details.period.rawValue) \($0.details.category.rawValue) \($0.nextRenewal) \($0.status(on: book.today).rawValue)"
    }
    #expect(
      shown == [
        "Netflix 17.99 EUR monthly moviesAndTV 2027-03-25 active",
        "Backblaze 99.00 USD yearly tech 2027-06-01 active",
        "Tidal 10.99 EUR monthly music 2027-03-20 cancelled",
      ]
    )
    #expect(result.added[0].details.startDate.description == "2027-02-25" && result.added[0].details.automaticRenewal)
    #expect(!result.added[1].details.automaticRenewal && result.added[1].details.planType == "B2 backups")
    #expect(result.added[2].endsOn?.description == "2027-04-19")
    #expect(result.problems.map(\.line) == [3, 4] && result.problems.map(\.name) == ["Gym", "Old magazine"])
    #expect(result.problems[0].reason.description.contains("not \"Every 2 Weeks\""))
    #expect(result.problems[1].reason.description.contains("write its code"))
    // The same file again adds nothing.
    let again = try await book.importFile(userID: "ada", content: Self.wallosJSON)
    #expect(again.added.map(\.id) == result.added.map(\.id))
    #expect(try await book.list(userID: "ada").mine.count == 3)
  }

  @Test("Wallos's CSV as it writes it (unquoted, commas made spaces) is read too")
  func wallosCSV() async throws {
    let ticketing = try await TestTicketing()
    let csv = """
      Name,Payment Cycle,Next Payment,Renewal,Category,Payment Method,Paid By,Price,Notes,URL,State,Notifications,Cancellation Date,Active
      Spotify,Monthly,2027-03-15,Automatic,Music,PayPal,Ada,€10.99,,,Enabled,Enabled,,Yes
      YouTube Premium,Yearly,2027-12-01,Automatic,Entertainment,Card,Ada,CHF 139.00,family plan,,Disabled,Enabled,,No

      """
    let result = try await ticketing.subscriptions.importFile(userID: "ada", content: csv)
    #expect(result.format == .wallosCSV && result.problems.isEmpty)
    #expect(result.added.map(\.details.price) == [Money(amountMinor: 1099, currency: "EUR"), Money(amountMinor: 13_900, currency: "CHF")])
    #expect(result.added[1].status(on: ticketing.subscriptions.today) == .paused && result.added[1].details.serviceName == "YouTube Premium")
  }

  @Test("Binario's CSV: exported and imported by another person, every field as it was; a member not their friend left out, said so")
  func roundTrip() async throws {
    let ticketing = try await TestTicketing()
    ticketing.accounts.befriend("ada", "bob")
    let book = ticketing.subscriptions
    var netflix = SubscriptionsTests.draft("Netflix", .monthly, 1799, start: "2027-01-15", category: .moviesAndTV, sharedWith: ["bob"])
    netflix.cardLast4 = "4242"
    netflix.reminderDays = 5
    _ = try await book.add(ownerID: "ada", netflix)
    var trial = SubscriptionsTests.draft("Disney+", .yearly, 8990, start: "2027-03-10", category: .moviesAndTV, automatic: false)
    trial.trialEndsOn = "2027-03-24"
    _ = try await book.add(ownerID: "ada", trial)
    let yen = try await book.add(
      ownerID: "ada",
      SubscriptionsTests.draft("Crunchyroll, Premium", .quarterly, 1500, currency: "JPY", start: "2027-02-01", category: .other, custom: true)
    )
    _ = try await book.pause(userID: "ada", subscriptionID: yen.id)
    let gym = try await book.add(
      ownerID: "ada",
      SubscriptionsTests.draft("Gym", .weekly, 500, start: "2027-03-03", category: .other, automatic: false, custom: true)
    )
    _ = try await book.cancel(userID: "ada", subscriptionID: gym.id, endsOn: "2027-03-31")

    let (csv, count) = try await book.export(userID: "ada", format: .binarioCSV)
    #expect(count == 4)
    #expect(csv.hasPrefix("service,plan,category,period,price,currency,start_date,automatic_renewal,card_last4,"))
    #expect(csv.contains("\"Crunchyroll, Premium\",individual,other,quarterly,1500,JPY,2027-02-01,yes,4242,,,paused,"))
    #expect(csv.contains("Netflix,individual,movies-and-tv,monthly,17.99,EUR,2027-01-15,yes,4242,,5,active,2027-03-15,,,bob@example.com\r\n"))

    // Carl is not Bob's friend: Netflix comes in unshared, and the row says so.
    let result = try await book.importFile(userID: "carl", content: csv)
    #expect(result.format == .binarioCSV && result.added.count == 4)
    #expect(result.problems.map(\.name) == ["Netflix"] && result.problems[0].reason.description.contains("added without sharing"))
    func key(_ subscription: Subscription) -> String {
      let details = subscription.details
      return [
        details.serviceName, details.planType, details.category.rawValue, details.period.rawValue, "\(details.price)",
        details.startDate.description, "\(details.automaticRenewal)", details.cardLast4, details.trialEndsOn?.description ?? "",
        details.reminderDays.map(String.init) ?? "", subscription.status(on: book.today).rawValue, subscription.nextRenewal.description,
        subscription.endsOn?.description ?? "",
      ].joined(separator: "|")
    }
    let adas = try await book.list(userID: "ada").mine.map(key).sorted()
    let carls = try await book.list(userID: "carl").mine.map(key).sorted()
    #expect(carls == adas)
    // Wallos's exports of the same: JSON with the symbol, CSV as Wallos writes it.
    let (json, _) = try await book.export(userID: "ada", format: .wallosJSON)
    #expect(json.contains("\"Price\":\"€17.99\"") && json.contains("\"Payment Cycle\":\"Every 3 Months\"") && json.contains("\"Price\":\"¥1500\""))
    let (wallos, _) = try await book.export(userID: "ada", format: .wallosCSV)
    #expect(wallos.contains("\nCrunchyroll  Premium,Every 3 Months,"))
  }

  @Test("a file that is not one is refused as a whole; a bad row by its line")
  func refusals() async throws {
    let ticketing = try await TestTicketing()
    let book = ticketing.subscriptions
    let notJSON = await serviceError { _ = try await book.importFile(userID: "ada", content: "{nope") }
    #expect(notJSON?.description.contains("content") == true)
    let noColumns = await serviceError { _ = try await book.importFile(userID: "ada", content: "a,b\n1,2\n") }
    #expect(noColumns?.description.contains("no column service") == true)
    let csv = """
      service,plan,category,period,price,currency,start_date
      Netflix,,movies-and-tv,monthly,17.999,EUR,2027-01-15
      Netflix,,movies-and-tv,fortnightly,17.99,EUR,2027-01-15
      Netflix,,films,monthly,17.99,EUR,2027-01-15
      Netflix,,movies-and-tv,monthly,17.99,EUR,2027-02-30
      """
    let result = try await book.importFile(userID: "ada", content: csv)
    #expect(result.added.isEmpty && result.problems.map(\.line) == [2, 3, 4, 5])
    #expect(result.problems[3].reason.description.contains("details.start_date"))
  }

  @Test("amounts read exactly in the currency's minor units")
  func amounts() {
    #expect(SubscriptionFile.minorUnits("17.99", currency: "EUR") == 1799)
    #expect(SubscriptionFile.minorUnits("17,9", currency: "EUR") == 1790)
    #expect(SubscriptionFile.minorUnits("1,299.00", currency: "USD") == 129_900)
    #expect(SubscriptionFile.minorUnits("1500", currency: "JPY") == 1500)
    #expect(SubscriptionFile.minorUnits("15.5", currency: "JPY") == nil)
    #expect(SubscriptionFile.minorUnits("1.234", currency: "KWD") == 1234)
    #expect(SubscriptionFile.minorUnits("-3", currency: "EUR") == nil)
    #expect(SubscriptionFile.wallosPrice("€9.99")! == ("EUR", "9.99") && SubscriptionFile.wallosPrice("12.50 gbp")! == ("GBP", "12.50"))
    #expect(SubscriptionFile.wallosPrice("12 kr") == nil && SubscriptionFile.wallosPrice("free") == nil)
    #expect(SubscriptionFile.decimal(Money(amountMinor: 5, currency: "EUR")) == "0.05")
  }
}
