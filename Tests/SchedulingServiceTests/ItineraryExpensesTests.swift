import BinarioDomain
import BinarioStorage
import Foundation
import Synchronization
import Testing

@testable import SchedulingService

/// A trip's money: parts that add up exactly, balances that add up to zero, the fewest transfers
/// to settle up; and the trip's edits, an invite removed, an event's field mask, the calendar.
@Suite("Itineraries: expenses, balances, settle-up and edits")
struct ItineraryExpensesTests {
  final class Clock: DomainClock {
    let now_ = Mutex(Date(timeIntervalSince1970: 1_809_000_000))
    func now() -> Date { now_.withLock { $0 } }
  }

  /// Everyone is everyone's friend; each named after their id.
  struct Directory: AccountDirectory {
    func accounts(ids userIDs: [String]) async throws -> [PeerAccount] {
      userIDs.map { PeerAccount(userID: $0, displayName: $0.capitalized, email: "\($0)@example.com") }
    }
    func accounts(emails: [String]) async throws -> [PeerAccount] { [] }
    func card(userID: String, paymentMethodID: String) async throws -> CardOnFile? { nil }
    func areFriends(_ userID: String, _ otherUserID: String) async throws -> Bool { true }
    func isPendingContact(userID: String, email: String) async throws -> Bool { false }
    func sendFriendRequest(from userID: String, to otherUserID: String) async throws -> Bool { false }
  }

  /// Delivered nowhere: what is told is read from the inbox.
  struct Nowhere: PushProvider, NotificationEmailProvider, NotificationTextProvider {
    func push(_ notification: UserNotification, to device: PushDevice) async throws -> PushOutcome { .sent }
    func email(_ notification: UserNotification, to address: String) async throws {}
    func text(_ notification: UserNotification, to phone: String) async throws {}
  }

  /// Ada's trip to Bellagio, with Bob and Carl as members.
  static func trip() async throws -> (ItineraryPlanner, NotificationCentre, String, TemporaryDatabase) {
    let database = try TemporaryDatabase(migrations: SchedulingMigrations.all)
    let store = SchedulingStore(pool: database.pool)
    let clock = Clock()
    let dispatcher = DeliveryDispatcher(store: store, directory: Directory(), push: Nowhere(), email: Nowhere(), text: Nowhere())
    let centre = NotificationCentre(store: store, clock: clock, dispatcher: dispatcher)
    let domain = try SchedulingDomain(store: store, clock: clock, zone: ServiceDayZone(identifier: "Europe/Rome")!, notifications: centre)
    let planner = ItineraryPlanner(store: store, clock: clock, directory: Directory(), notifications: centre, trains: domain)
    let trip = try await planner.create(
      userID: "ada",
      name: "Lake Como",
      destination: "Bellagio",
      startDate: "2027-05-01",
      endDate: "2027-05-02",
      estimatedCostMinor: 18_000,
      currency: "EUR"
    )
    for friend in ["bob", "carl"] {
      let invite = try await planner.invite(userID: "ada", itineraryID: trip.itinerary.id, inviteeUserID: friend, email: nil)
      _ = try await planner.respond(userID: friend, inviteID: invite.id, accept: true)
    }
    return (planner, centre, trip.itinerary.id, database)
  }

  static func euros(_ minor: Int64) -> Money { Money(amountMinor: minor, currency: "EUR") }

  @Test("equal parts, shares, percentages and exact amounts add up to the amount in minor units")
  func division() throws {
    func parts(_ split: ItineraryExpense.Split, _ amount: Int64, _ values: [Int64]) -> [Int64]? {
      let people = values.enumerated().map { ("p\($0.offset)", $0.element) }
      return try? ItineraryExpense.divide(Self.euros(amount), by: split, among: people).get().map(\.amount.amountMinor)
    }
    #expect(parts(.equal, 10_000, [0, 0, 0]) == [3334, 3333, 3333])
    // 2:1:1 of 10.01: 5.005, 2.5025, 2.5025 → 5.00, 2.50, 2.50 and the cent left to the largest remainder.
    #expect(parts(.shares, 1001, [2, 1, 1]) == [501, 250, 250])
    #expect(parts(.percentages, 100, [3333, 3333, 3334]) == [33, 33, 34])
    #expect(parts(.percentages, 1000, [5000, 2500, 2500]) == [500, 250, 250])
    #expect(parts(.exact, 1000, [600, 400]) == [600, 400])
    #expect(parts(.exact, 1000, [600, 300]) == nil && parts(.percentages, 1000, [5000, 4000]) == nil && parts(.shares, 1000, [1, 0]) == nil)
    let short = ItineraryExpense.divide(Self.euros(1000), by: .percentages, among: [("a", 5000), ("b", 4000)])
    if case .failure(let problem) = short { #expect(problem.reason.description == "the percentages add up to 90 %, not 100 %") }
  }

  @Test("settle-up: the fewest transfers, where the largest-first greedy needs one more")
  func fewestTransfers() {
    // −8, +6, −2, +3, +4, −3: greedily five transfers; as {−3, +3} and {−8, +6, −2, +4}, four.
    let values: [Int64] = [-800, 600, -200, 300, 400, -300]
    let balances = values.enumerated().map { index, value in
      ItineraryBalance(userID: "p\(index)", paid: Self.euros(max(value, 0)), share: Self.euros(max(-value, 0)))
    }
    let transfers = SettleUp.transfers(balances)
    #expect(transfers.count == 4)
    var after = Dictionary(uniqueKeysWithValues: balances.map { ($0.userID, $0.balance.amountMinor) })
    for transfer in transfers {
      after[transfer.from, default: 0] += transfer.amount.amountMinor
      after[transfer.to, default: 0] -= transfer.amount.amountMinor
    }
    #expect(after.values.allSatisfy { $0 == 0 })
    #expect(transfers.contains(SettleUpTransfer(from: "p5", to: "p3", amount: Self.euros(300))))
  }

  @Test("expenses in two currencies: balances add up to zero, settle-up, a settlement, a member who leaves stays in the balances")
  func balances() async throws {
    let (planner, centre, trip, database) = try await Self.trip()
    defer { try? database.remove() }
    // Ada paid the hotel, 100.00 EUR for all three: 33.34, 33.33, 33.33.
    let hotel = try await planner.addExpense(
      userID: "ada",
      itineraryID: trip,
      ItineraryExpenseDraft(description: "Hotel", amountMinor: 10_000, currency: "EUR", paidBy: "", split: .equal, parts: []),
      idempotencyKey: "hotel-1"
    )
    #expect(hotel.shares.map(\.amount.amountMinor) == [3334, 3333, 3333] && hotel.paidBy == "ada")
    let again = try await planner.addExpense(
      userID: "ada",
      itineraryID: trip,
      ItineraryExpenseDraft(description: "Hotel", amountMinor: 10_000, currency: "EUR", paidBy: "", split: .equal, parts: []),
      idempotencyKey: "hotel-1"
    )
    #expect(again.id == hotel.id)
    // Bob paid the ferry, 30.00 EUR, for himself and Carl, shares 1 and 2.
    _ = try await planner.addExpense(
      userID: "bob",
      itineraryID: trip,
      ItineraryExpenseDraft(
        description: "Ferry",
        amountMinor: 3000,
        currency: "EUR",
        paidBy: "bob",
        split: .shares,
        parts: [("bob", 1), ("carl", 2)]
      )
    )
    // Carl paid a museum in Switzerland, 20.00 CHF: 5.00 Ada's, 15.00 Bob's.
    _ = try await planner.addExpense(
      userID: "carl",
      itineraryID: trip,
      ItineraryExpenseDraft(
        description: "Museum",
        amountMinor: 2000,
        currency: "CHF",
        paidBy: "carl",
        split: .exact,
        parts: [("ada", 500), ("bob", 1500)]
      )
    )
    var money = try await planner.balances(userID: "bob", itineraryID: trip)
    #expect(money.currencies.map(\.currency) == ["CHF", "EUR"])
    let euros = money.currencies[1]
    // Ada +100.00 − 33.34 = +66.66; Bob 30.00 − 33.33 − 10.00 = −13.33; Carl −33.33 − 20.00 = −53.33.
    #expect(euros.balances.map(\.userID) == ["ada", "bob", "carl"])
    #expect(euros.balances.map(\.balance.amountMinor) == [6666, -1333, -5333] && euros.spent == Self.euros(13_000))
    #expect(euros.transfers.map { "\($0.from)→\($0.to) \($0.amount.amountMinor)" } == ["carl→ada 5333", "bob→ada 1333"])
    #expect(money.currencies[0].balances.map(\.balance.amountMinor) == [-500, -1500, 2000])
    #expect(money.currencies.allSatisfy { $0.balances.reduce(0) { $0 + $1.balance.amountMinor } == 0 })

    // Carl settles up with Ada; Ada and Bob are told.
    _ = try await planner.addExpense(
      userID: "carl",
      itineraryID: trip,
      ItineraryExpenseDraft(
        description: "Settle up",
        amountMinor: 5333,
        currency: "EUR",
        paidBy: "carl",
        split: .exact,
        parts: [("ada", 0)],
        settlement: true
      )
    )
    money = try await planner.balances(userID: "ada", itineraryID: trip)
    #expect(money.currencies[1].balances.map(\.balance.amountMinor) == [1333, -1333, 0] && money.currencies[1].spent == Self.euros(13_000))
    let told = try centre.inbox(userID: "ada", pageSize: 0, pageToken: "", unreadOnly: false).notifications.map(\.content.title.english)
    #expect(told.contains("Lake Como: Carl paid 53.33 EUR to settle up"))

    // Bob leaves owing 13.33: he is still in the balances, no longer a member.
    try await planner.leave(userID: "bob", itineraryID: trip)
    money = try await planner.balances(userID: "ada", itineraryID: trip)
    #expect(money.currencies[1].balances.map(\.userID) == ["ada", "carl", "bob"] && !money.memberIDs.contains("bob"))
    #expect(money.currencies[1].transfers.map { "\($0.from)→\($0.to) \($0.amount.amountMinor)" } == ["bob→ada 1333"])

    // Refused: a payer not on the trip, a part for someone who left, a settlement to oneself.
    let stranger = await #expect(throws: ServiceError.self) {
      _ = try await planner.addExpense(
        userID: "ada",
        itineraryID: trip,
        ItineraryExpenseDraft(
          description: "Taxi",
          amountMinor: 1000,
          currency: "EUR",
          paidBy: "dave",
          split: .equal,
          parts: [("ada", 0), ("bob", 0)]
        )
      )
    }
    #expect(stranger?.description.contains("expense.paid_by_user_id") == true && stranger?.description.contains("expense.shares[1].user_id") == true)
    let toSelf = await #expect(throws: ServiceError.self) {
      _ = try await planner.addExpense(
        userID: "ada",
        itineraryID: trip,
        ItineraryExpenseDraft(
          description: "Back",
          amountMinor: 1000,
          currency: "EUR",
          paidBy: "ada",
          split: .exact,
          parts: [("ada", 0)],
          settlement: true
        )
      )
    }
    #expect(toSelf?.description.contains("a settlement is paid to one other person") == true)
  }

  @Test("the organiser edits the trip's named fields and removes a member; an event's mask changes only what it names; the calendar")
  func edits() async throws {
    let (planner, centre, trip, database) = try await Self.trip()
    defer { try? database.remove() }
    let edited = try await planner.update(
      userID: "ada",
      itineraryID: trip,
      fields: [.name, .estimatedCost],
      name: "Lake Como, again",
      destination: "",
      startDate: "",
      endDate: "",
      estimatedCostMinor: 24_001,
      currency: ""
    )
    #expect(edited.itinerary.name == "Lake Como, again" && edited.itinerary.destination == "Bellagio")
    #expect(
      edited.members.map(\.costShare.amountMinor) == [8001, 8000, 8000]
        && edited.members.map(\.email) == ["ada@example.com", "bob@example.com", "carl@example.com"]
    )
    let backwards = await #expect(throws: ServiceError.self) {
      _ = try await planner.update(
        userID: "ada",
        itineraryID: trip,
        fields: [.endDate],
        name: "",
        destination: "",
        startDate: "",
        endDate: "2027-04-30",
        estimatedCostMinor: 0,
        currency: ""
      )
    }
    #expect(backwards?.description.contains("end_date") == true)
    let notOrganiser = await #expect(throws: ServiceError.self) {
      _ = try await planner.update(
        userID: "bob",
        itineraryID: trip,
        fields: [.name],
        name: "Mine",
        destination: "",
        startDate: "",
        endDate: "",
        estimatedCostMinor: 0,
        currency: ""
      )
    }
    if case .permissionDenied = notOrganiser {} else { Issue.record("expected PERMISSION_DENIED, got \(String(describing: notOrganiser))") }

    let start = Date(timeIntervalSince1970: 1_809_160_200)  // 2027-05-01 08:30 UTC
    let ferry = try await planner.addEvent(
      userID: "bob",
      itineraryID: trip,
      ItineraryEventDraft(
        title: "Ferry to Bellagio",
        place: "Varenna, pier 2",
        latitude: 46.0106,
        longitude: 9.2840,
        startsAt: start,
        endsAt: start.addingTimeInterval(1200),
        notes: "Buy the ticket at the pier; cash only",
        cost: Self.euros(920)
      )
    )
    let retitled = try await planner.updateEvent(
      userID: "carl",
      itineraryID: trip,
      eventID: ferry.id,
      ItineraryEventDraft(title: "Fast ferry", place: "", latitude: 0, longitude: 0, startsAt: nil, endsAt: nil, notes: "", cost: Self.euros(0)),
      fields: [.title]
    )
    #expect(retitled.title == "Fast ferry" && retitled.place == "Varenna, pier 2" && retitled.cost == Self.euros(920) && retitled.startsAt == start)

    let (calendar, fileName) = try await planner.calendar(userID: "carl", itineraryID: trip)
    #expect(fileName == "lake-como-again.ics")
    #expect(calendar.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") && calendar.hasSuffix("END:VCALENDAR\r\n"))
    #expect(calendar.contains("\r\nDTSTART:20270501T083000Z\r\nDTEND:20270501T085000Z\r\nSUMMARY:Fast ferry\r\nLOCATION:Varenna\\, pier 2\r\n"))
    #expect(calendar.contains("GEO:46.010600;9.284000") && calendar.contains("DESCRIPTION:Buy the ticket at the pier\\; cash only\\n9.20 EUR"))
    #expect(calendar.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })

    let carlsInvite = try await planner.get(userID: "ada", itineraryID: trip).invites.first { $0.inviteeUserID == "carl" }!
    try await planner.removeInvite(userID: "ada", itineraryID: trip, inviteID: carlsInvite.id)
    #expect(try await planner.get(userID: "ada", itineraryID: trip).members.map(\.userID) == ["ada", "bob"])
    let gone = await #expect(throws: ServiceError.self) { _ = try await planner.get(userID: "carl", itineraryID: trip) }
    if case .notFound = gone {} else { Issue.record("expected NOT_FOUND, got \(String(describing: gone))") }
    let carlTold = try centre.inbox(userID: "carl", pageSize: 0, pageToken: "", unreadOnly: false).notifications.map(\.content.title.english)
    #expect(carlTold.first == "You are no longer on Lake Como, again")
  }

  @Test("iCalendar lines fold at 75 octets without splitting a character")
  func folding() {
    let line = "SUMMARY:" + String(repeating: "è", count: 60)
    let folded = ItineraryCalendar.fold(line).components(separatedBy: "\r\n")
    #expect(folded.count == 2 && folded.allSatisfy { $0.utf8.count <= 75 } && folded[1].hasPrefix(" "))
    #expect(folded.joined().replacingOccurrences(of: " è", with: "è") == line)
  }

  @Test("a trip and an event created again with their idempotency key are the same, told once")
  func keyedCreates() async throws {
    let (planner, centre, trip, database) = try await Self.trip()
    _ = database
    let key = try IdempotencyKey(caller: "ada", key: "trip-2")
    let created = try await planner.create(
      userID: "ada",
      name: "Bergamo",
      destination: "Città Alta",
      startDate: "2027-06-01",
      endDate: "2027-06-01",
      estimatedCostMinor: 0,
      currency: "EUR",
      key: key
    )
    let again = try await planner.create(
      userID: "ada",
      name: "Bergamo",
      destination: "Città Alta",
      startDate: "2027-06-01",
      endDate: "2027-06-01",
      estimatedCostMinor: 0,
      currency: "EUR",
      key: key
    )
    #expect(again.itinerary.id == created.itinerary.id)
    #expect(try await planner.list(userID: "ada").filter { $0.itinerary.name == "Bergamo" }.count == 1)

    let bobsKey = try IdempotencyKey(caller: "bob", key: "ferry")
    let start = Date(timeIntervalSince1970: 1_809_160_200)  // 2027-05-01 08:30 UTC
    let draft = ItineraryEventDraft(
      title: "Ferry",
      place: "",
      latitude: 0,
      longitude: 0,
      startsAt: start,
      endsAt: start.addingTimeInterval(1200),
      notes: "",
      cost: Self.euros(0)
    )
    let told = { try centre.inbox(userID: "carl", pageSize: 0, pageToken: "", unreadOnly: false).notifications.count }
    let before = try told()
    let ferry = try await planner.addEvent(userID: "bob", itineraryID: trip, draft, key: bobsKey)
    let resent = try await planner.addEvent(userID: "bob", itineraryID: trip, draft, key: bobsKey)
    #expect(resent.id == ferry.id)
    #expect(try await planner.get(userID: "bob", itineraryID: trip).events.filter { $0.title == "Ferry" }.count == 1)
    #expect(try told() == before + 1, "Carl is told of the ferry once")
  }
}
