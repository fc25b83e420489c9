import BinarioDomain
import BinarioPayments
import BinarioStorage
import BinarioTestSupport
import Foundation
import Synchronization
import Testing

@testable import TicketingService

/// A timetable of hand-made runs: what scheduling would answer, and who follows what.
final class FakeTimetable: TimetableLookup {
  let runs = Mutex<[RunReference: TimetableRun]>([:])
  let following = Mutex<[String: Set<RunReference>]>([:])
  /// While set, follow changes fail (scheduling unreachable).
  let unreachable = Atomic<Bool>(false)

  static let stations = [
    TimetableStation(id: "MI_CENTRALE", name: "Milano Centrale", latitude: 45.4854, longitude: 9.2035),
    TimetableStation(id: "MONZA", name: "Monza", latitude: 45.5785, longitude: 9.2727),
    TimetableStation(id: "BERGAMO", name: "Bergamo", latitude: 45.6907, longitude: 9.6750),
  ]

  func station(id: String) async throws -> TimetableStation {
    guard let station = Self.stations.first(where: { $0.id == id }) else { throw ServiceError.notFound("no station \(id)") }
    return station
  }

  func run(_ run: RunReference) async throws -> TimetableRun {
    guard let found = runs.withLock({ $0[run] }) else { throw ServiceError.notFound("no run \(run)") }
    return found
  }

  func runs(_ references: [RunReference]) async throws -> [TimetableRun] {
    if unreachable.load(ordering: .relaxed) { throw ServiceError.failedPrecondition("scheduling is unreachable") }
    return runs.withLock { runs in references.compactMap { runs[$0] } }
  }

  func setFollowing(_ change: RunFollowChange) async throws {
    let (following, userID, run) = (change.following, change.userID, change.run)
    if unreachable.load(ordering: .relaxed) { throw ServiceError.failedPrecondition("scheduling is unreachable") }
    if runs.withLock({ $0[run] == nil }) { throw ServiceError.notFound("no run \(run)") }
    self.following.withLock {
      if following { $0[userID, default: []].insert(run) } else { $0[userID]?.remove(run) }
    }
  }

  /// A run Milano Centrale → Monza → Bergamo (or back, `reversed`) leaving at `departure`.
  @discardableResult
  func addRun(_ tripID: String, date: String, departure: Date, reversed: Bool = false) -> RunReference {
    let reference = RunReference(tripID: tripID, serviceDate: date)
    let stops = (reversed ? Self.stations.reversed() : Self.stations).enumerated().map { index, station in
      TimetableRun.Stop(
        stationID: station.id,
        stationName: station.name,
        latitude: station.latitude,
        longitude: station.longitude,
        scheduledArrival: index == 0 ? nil : departure.addingTimeInterval(Double(index) * 1200),
        scheduledDeparture: index == 2 ? nil : departure.addingTimeInterval(Double(index) * 1200 + 60),
        expectedDeparture: index == 2 ? nil : departure.addingTimeInterval(Double(index) * 1200 + 60),
        platform: "\(index + 3)",
        platformChanged: false,
        delayMinutes: 0,
        cancelled: false
      )
    }
    runs.withLock { $0[reference] = TimetableRun(run: reference, trainNumber: "2301", cancelled: false, stops: stops) }
    return reference
  }

  func change(_ run: RunReference, _ edit: (inout TimetableRun) -> Void) {
    runs.withLock { edit(&$0[run]!) }
  }
}

/// Identity as ticketing sees it: cards, friendships, names.
final class FakeAccounts: AccountDirectory {
  let cards = Mutex<[String: [CardOnFile]]>([:])
  let friendships = Mutex<Set<[String]>>([])

  func card(userID: String, paymentMethodID: String) async throws -> CardOnFile? {
    let cards = self.cards.withLock { $0[userID] ?? [] }
    if paymentMethodID.isEmpty { return cards.first }
    guard let card = cards.first(where: { $0.paymentMethodID == paymentMethodID }) else {
      throw ServiceError.notFound("no payment method \(paymentMethodID)")
    }
    return card
  }

  func areFriends(_ userID: String, _ otherUserID: String) async throws -> Bool {
    friendships.withLock { $0.contains([userID, otherUserID].sorted()) }
  }

  /// Anyone asked for exists, named after their id.
  func accounts(ids userIDs: [String]) async throws -> [PeerAccount] {
    userIDs.map { PeerAccount(userID: $0, displayName: $0.capitalized, email: "\($0)@example.com") }
  }

  /// Those at example.com exist, their id before the @.
  func accounts(emails: [String]) async throws -> [PeerAccount] {
    emails.filter { $0.hasSuffix("@example.com") }.map { PeerAccount(userID: String($0.prefix { $0 != "@" }), displayName: "", email: $0) }
  }

  func isPendingContact(userID: String, email: String) async throws -> Bool { false }

  func sendFriendRequest(from userID: String, to otherUserID: String) async throws -> Bool { false }

  func befriend(_ a: String, _ b: String) {
    _ = friendships.withLock { $0.insert([a, b].sorted()) }
  }

  /// A card the test provider charges (or declines, for ``TestPaymentProvider/chargeDeclinedCardNumber``).
  func addCard(_ userID: String, number: String = "4242424242424242", id: String? = nil) async throws {
    let token = try await TestPaymentProvider().tokenize(
      PaymentCard(number: number, expiryMonth: 12, expiryYear: 2035, securityCode: "123"),
      currentMonth: CalendarMonth(year: 2027, month: 1)
    )
    cards.withLock {
      $0[userID, default: []].append(CardOnFile(paymentMethodID: id ?? "pm-\(token.last4)", providerToken: token.token, last4: token.last4))
    }
  }
}

/// Geo-offers' route offers as a table by journey (`from`-`to`).
final class FakeRouteOffers: RouteOfferLookup {
  let offers = Mutex<[String: RouteOfferMatch]>([:])

  func bestOffer(from: String, to: String, line: String, at instant: Date) async -> RouteOfferMatch? {
    offers.withLock { $0["\(from)-\(to)"] }
  }
}

/// Ticketing's domain on a temporary database, the demo fare table loaded, its peers faked.
struct TestTicketing {
  let database: TemporaryDatabase
  let store: TicketingStore
  let clock: ManualClock
  let timetable = FakeTimetable()
  let accounts = FakeAccounts()
  let routeOffers = FakeRouteOffers()
  let domain: TicketingDomain
  let subscriptions: SubscriptionsDomain
  let codes: SignedTicketCodes
  static let zone = TimeZone(identifier: "Europe/Rome")!

  /// 2027-03-10 08:00 in Rome.
  static let start = Date(timeIntervalSince1970: 1_804_662_000)

  init(database: TemporaryDatabase? = nil, clock: ManualClock = ManualClock(TestTicketing.start)) async throws {
    self.database = try database ?? TemporaryDatabase(migrations: TicketingMigrations.all)
    self.store = TicketingStore(pool: self.database.pool)
    self.clock = clock
    self.codes = try await SignedTicketCodes.load(from: store, now: clock.now())
    self.domain = TicketingDomain(
      store: store,
      clock: clock,
      timetable: timetable,
      accounts: accounts,
      charger: RecordingCardCharger(store: store, now: { clock.now() }),
      codes: codes,
      zone: Self.zone,
      routeOffers: routeOffers
    )
    self.subscriptions = SubscriptionsDomain(store: store, clock: clock, accounts: accounts, zone: Self.zone)
    try await domain.loadFareTable(Self.demoFares)
  }

  static let demoFares: Data = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Services/Ticketing/DemoFares/fares.json")
    return FileManager.default.contents(atPath: url.path)!
  }()
}

/// The refusal `body` threw, or `nil` (recorded as a failure) when it did not throw one.
func serviceError(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> ServiceError? {
  do {
    try await body()
    Issue.record("expected a refusal", sourceLocation: sourceLocation)
    return nil
  } catch let error as ServiceError {
    return error
  } catch {
    Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

extension ServiceError {
  var isFailedPrecondition: Bool { if case .failedPrecondition = self { true } else { false } }
  var isInvalid: Bool { if case .invalid = self { true } else { false } }
  var isPermissionDenied: Bool { if case .permissionDenied = self { true } else { false } }
}
