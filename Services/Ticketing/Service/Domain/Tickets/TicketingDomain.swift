import BinarioDomain
import BinarioPayments
import Foundation

/// Selling, keeping and validating tickets: quotes from the fare table, purchases paid through a
/// ``BinarioPayments/CardCharger`` with an idempotency key, the wallet with the trips' live
/// state, refunds and validation. Pure Swift: scheduling, identity and the payment provider are
/// reached through the ports in `TicketingPorts.swift`, the database through ``TicketingStore``.
public final class TicketingDomain: Sendable {
  let store: TicketingStore
  let clock: any DomainClock
  let timetable: any TimetableLookup
  let accounts: any AccountDirectory
  let charger: any CardCharger
  let codes: any TicketCodes
  let routeOffers: any RouteOfferLookup
  /// The time zone of service dates and pass days (Europe/Rome for Trenord).
  let zone: TimeZone
  let inFlight = InFlightPurchases()

  /// How long a quote holds its price.
  public static let quoteLifetime: TimeInterval = 15 * 60

  public init(
    store: TicketingStore,
    clock: any DomainClock,
    timetable: any TimetableLookup,
    accounts: any AccountDirectory,
    charger: any CardCharger,
    codes: any TicketCodes,
    zone: TimeZone,
    routeOffers: any RouteOfferLookup = NoRouteOffers()
  ) {
    self.routeOffers = routeOffers
    self.store = store
    self.clock = clock
    self.timetable = timetable
    self.accounts = accounts
    self.charger = charger
    self.codes = codes
    self.zone = zone
  }

  /// The fare table in force.
  /// - Throws: ``BinarioDomain/ServiceError/failedPrecondition(_:)`` when none was ever loaded.
  public func fareTable() async throws -> FareTable {
    guard let table = try await store.fareTable() else {
      throw ServiceError.failedPrecondition("no fare table is loaded: start ticketing with --fare-table")
    }
    return table
  }

  /// Loads a fare table (a JSON file's bytes) unless the same one is in force.
  /// - Returns: Whether it replaced the one in force.
  @discardableResult
  public func loadFareTable(_ data: Data) async throws -> Bool {
    let table = try FareTable.decode(data)
    if try await store.fareTable() == table { return false }
    try await store.replaceFareTable(table, at: clock.now())
    return true
  }

  /// The instant `date` starts in the service's zone.
  func start(of date: CalendarDate) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!
  }

  static func newID(_ prefix: String) -> String {
    prefix + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
  }
}

/// Purchases in progress, by user and idempotency key: a second submission with a key already
/// being bought waits for the first's outcome instead of charging again.
actor InFlightPurchases {
  private var running: [String: Task<PurchaseRecord, any Error>] = [:]

  func run(key: String, _ body: @escaping @Sendable () async throws -> PurchaseRecord) async throws -> PurchaseRecord {
    if let task = running[key] { return try await task.value }
    let task = Task { try await body() }
    running[key] = task
    defer { running[key] = nil }
    return try await task.value
  }
}
