import BinarioDomain
import BinarioPayments
import BinarioStorage
import BinarioTestSupport
import Foundation
import Synchronization

@testable import DispatchService

/// Accounts and cards as identity would answer, set by hand.
final class FakeAccounts: AccountDirectory {
  let known = Mutex<[String: (account: PeerAccount, card: CardOnFile?)]>([:])
  /// How many times a card was asked for.
  let cardLookups = Mutex(0)

  func add(_ userID: String, name: String, verifiedPhone: Bool = true, card: Bool = true, driver: Bool = false, email: String? = nil) {
    known.withLock {
      $0[userID] = (
        PeerAccount(
          userID: userID,
          displayName: name,
          email: email ?? "\(userID)@example.com",
          verifiedPhone: verifiedPhone ? "+393331234567" : "",
          isDriver: driver
        ),
        card ? CardOnFile(paymentMethodID: "pm-\(userID)", providerToken: "tok_visa_\(userID)", last4: "4242") : nil
      )
    }
  }

  func accounts(ids userIDs: [String]) async throws -> [PeerAccount] {
    known.withLock { known in userIDs.compactMap { known[$0]?.account } }
  }

  func accounts(emails: [String]) async throws -> [PeerAccount] {
    known.withLock { known in known.values.map(\.account).filter { emails.contains($0.email) }.sorted { $0.userID < $1.userID } }
  }

  func areFriends(_ userID: String, _ otherUserID: String) async throws -> Bool { false }

  func isPendingContact(userID: String, email: String) async throws -> Bool { false }

  func sendFriendRequest(from userID: String, to otherUserID: String) async throws -> Bool { false }

  func card(userID: String, paymentMethodID: String) async throws -> CardOnFile? {
    cardLookups.withLock { $0 += 1 }
    return known.withLock { $0[userID]?.card }
  }
}

/// Dispatch's domain on a temporary database, a manual clock, fake identity and the real
/// recording payments, with Milan's nine demo zones and the demo addresses.
struct TestDispatch {
  let database: TemporaryDatabase
  let store: DispatchStore
  let clock: ManualClock
  let accounts = FakeAccounts()
  let notifier = RecordingNotificationSender()
  let domain: DispatchDomain

  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let zones = try! ZoneMap.decode(Data(contentsOf: repository.appendingPathComponent("Services/Dispatch/DemoData/zones.json")))
  static let gazetteer = try! AddressGazetteer.decode(
    Data(contentsOf: repository.appendingPathComponent("Services/Dispatch/DemoData/addresses.json"))
  )

  // Places in the demo zones.
  static let duomo = GeoPoint(latitude: 45.46419, longitude: 9.18960)  // C
  static let centrale = GeoPoint(latitude: 45.48558, longitude: 9.20320)  // C
  static let brera = GeoPoint(latitude: 45.47190, longitude: 9.18790)  // C
  static let bicocca = GeoPoint(latitude: 45.51370, longitude: 9.21120)  // NE
  static let isola = GeoPoint(latitude: 45.50290, longitude: 9.17540)  // N
  static let lodi = GeoPoint(latitude: 45.44540, longitude: 9.21050)  // E
  static let abbiategrasso = GeoPoint(latitude: 45.43180, longitude: 9.18010)  // S
  static let sanSiro = GeoPoint(latitude: 45.47810, longitude: 9.12390)  // W

  init(settings: DispatchSettings = DispatchSettings()) throws {
    database = try TemporaryDatabase(migrations: DispatchMigrations.all)
    store = DispatchStore(pool: database.pool)
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    self.clock = clock
    var settings = settings
    settings.alertEmails = ["admin@example.com"]
    domain = DispatchDomain(
      store: store,
      clock: clock,
      zones: Self.zones,
      accounts: accounts,
      payments: RecordingRidePayments(store: store, now: { clock.now() }),
      geocoder: SavedPlacesAndGazetteer(store: store, gazetteer: Self.gazetteer),
      settings: settings
    )
    accounts.add("admin", name: "Ada Admin", email: "admin@example.com")
  }

  /// A taxi `code` driven by `driver-<code>`, available at `position`.
  @discardableResult
  func taxi(_ code: String, at position: GeoPoint, capacity: Int = 4) async throws -> Taxi {
    accounts.add("driver-\(code)", name: "Driver \(code)", driver: true)
    _ = try await domain.createTaxi(code: code, plate: "PL\(code)", capacity: capacity, driverUserID: "driver-\(code)")
    _ = try await domain.reportPosition(driverUserID: "driver-\(code)", position: position, reportedAt: nil)
    clock.advance(by: 1)
    return try await domain.setAvailability(driverUserID: "driver-\(code)", available: true, reason: "")
  }

  /// A passenger `id` with a verified phone and a card.
  func passenger(_ id: String) {
    accounts.add(id, name: "Passenger \(id)")
  }

  func request(_ passenger: String, at position: GeoPoint, key: String = "", passengers: Int = 1) async throws -> Ride {
    try await party(passenger, at: position, key: key, passengers: passengers)[0]
  }

  /// Every ride of a request (several for a party larger than a taxi).
  func party(_ passenger: String, at position: GeoPoint, key: String = "", passengers: Int = 1) async throws -> [Ride] {
    try await domain.requestRide(
      passengerUserID: passenger,
      pickup: .position(position),
      destination: nil,
      passengers: passengers,
      idempotencyKey: key
    )
  }

  /// The taxi's pending offer, if any.
  func offer(of code: String) async throws -> OfferedJob? {
    try await domain.myTaxi(driverUserID: "driver-\(code)").offer
  }

  /// Codes of zone `id`'s queue, head first.
  func queue(_ zoneID: String) async throws -> [String] {
    try await domain.monitorSnapshot().zones.first { $0.zone.id == zoneID }!.queue.map(\.code)
  }

  func ride(_ id: String) async throws -> Ride {
    try await store.read { tx in try tx.ride(id: id) }!
  }

  /// Moves the taxi `code` to `position` as its driver reports it, `seconds` after the clock's
  /// now (the clock moves there first): a fix each report, never a duplicate.
  @discardableResult
  func move(
    _ code: String,
    to position: GeoPoint,
    after seconds: TimeInterval = 10,
    accuracy: Double? = nil
  ) async throws
    -> (taxi: Taxi, verdict: PositionVerdict)
  {
    clock.advance(by: seconds)
    return try await domain.reportPosition(driverUserID: "driver-\(code)", position: position, reportedAt: nil, accuracyMetres: accuracy)
  }

  /// A reservation of `passenger`'s, `seconds` from now.
  func reserve(
    _ passenger: String,
    from: GeoPoint = TestDispatch.duomo,
    to: GeoPoint = TestDispatch.bicocca,
    in seconds: TimeInterval = 3 * 3600,
    passengers: Int = 1,
    shared: Bool = false
  ) async throws -> Reservation {
    try await domain.createReservation(
      passengerUserID: passenger,
      pickup: .position(from),
      destination: .position(to),
      meetingAt: clock.now().addingTimeInterval(seconds),
      passengers: passengers,
      shared: shared,
      idempotencyKey: ""
    )
  }
}
