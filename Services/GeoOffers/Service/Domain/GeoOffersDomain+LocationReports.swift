import BinarioDomain
import Foundation

/// What a location report answers.
public struct LocationReport: Sendable, Hashable {
  /// False when a newer report was already kept (this one was answered, not stored).
  public var stored: Bool
  /// Deals nearby not offered recently, nearest first; now recorded as offered.
  public var deals: [Nearby<Deal>]
  public var nearestStation: NearestStation?
  /// Active route offers from the nearest station.
  public var routeOffers: [RouteOffer]
  public var places: [Nearby<Place>]
  public var welcome: Welcome?
}

/// A welcome at the station of a train the user holds a ticket for.
public struct Welcome: Sendable, Hashable {
  public var ticketID: String
  public var station: GeoStation
  public var run: RunReference
  public var trainNumber: String
  public var destinationName: String
  public var scheduledDeparture: Date
  public var expectedDeparture: Date
  public var platform: String
  public var minutesToDeparture: Int
  /// Places to visit near the station the ticket goes to, nearest first.
  public var placesAtDestination: [Nearby<Place>] = []
  /// "Welcome to Milano Centrale — your 10:25 to Como San Giovanni leaves from platform 4 in 18
  /// minutes. At Como San Giovanni: Duomo di Como (450 m), Villa Olmo (1.2 km)"
  public var message: PersonText
}

extension GeoOffersDomain {
  /// The most places to visit a report suggests.
  static let placesPerReport = 10
  /// The most places near the destination a welcome names.
  static let placesPerWelcome = 3
  /// How far in the future a device's clock may be.
  static let clockSkew: TimeInterval = 5 * 60

  /// Records where `userID` is and answers with what is around: deals not offered recently
  /// (also sent as a notification), the nearest station and its route offers, places to
  /// visit, and a welcome when they are at the station of a train they hold a ticket for
  /// (sent as a notification too, once per ticket).
  ///
  /// The report is acknowledged once its location and offered deals are committed. Lookups
  /// and notifications that fail do not fail it: the welcome is tried again on the next
  /// report.
  public func report(
    userID: String,
    latitude: Double,
    longitude: Double,
    accuracyMetres: Double,
    reportedAt: Date?
  ) async throws -> LocationReport {
    let now = clock.now()
    var check = InputValidation()
    let point = check.position(latitude: latitude, longitude: longitude)
    if !accuracyMetres.isFinite || !(0 ... 100_000).contains(accuracyMetres) {
      check.fail("accuracy_metres", "\(accuracyMetres) m is not an accuracy (0 to 100000 m; 0: unknown)")
    }
    if let reportedAt, reportedAt > now.addingTimeInterval(Self.clockSkew) {
      check.fail("reported_at", "\(reportedAt.ISO8601Format()) is in the future")
    }
    try check.finish()

    let location = UserLocation(position: point, accuracyMetres: accuracyMetres, reportedAt: reportedAt ?? now)
    let recorded = try await store.recordReport(
      userID: userID,
      location: location,
      now: now,
      dealRadius: settings.dealRadiusMetres,
      notOfferedSince: now.addingTimeInterval(-settings.noRepeatPeriod),
      limit: Self.dealsPerReport
    )
    let nearest = try await store.nearestStations(to: point, count: 1).first
    var routeOffers: [RouteOffer] = []
    if let nearest { routeOffers = try await store.routeOffers(from: nearest.item.id, activeAt: now) }
    let places = try await store.places(
      within: settings.placesRadiusMetres,
      of: point,
      category: nil,
      limit: Self.placesPerReport
    )
    await notifyDeals(recorded.deals, userID: userID, now: now)

    var welcome: Welcome?
    if let nearest, nearest.distanceMetres <= settings.stationRadiusMetres, accuracyMetres <= settings.stationRadiusMetres {
      do {
        welcome = try await self.welcome(userID: userID, at: nearest.item, now: now)
      } catch {
        logger.warning(
          "no welcome this time: a lookup failed",
          metadata: ["user": "\(userID)", "station": "\(nearest.item.id)", "error": "\(error)"]
        )
      }
    }
    return LocationReport(
      stored: recorded.stored,
      deals: recorded.deals,
      nearestStation: nearest.map { NearestStation($0, from: point) },
      routeOffers: routeOffers,
      places: places,
      welcome: welcome
    )
  }

  /// The user's last known location; `NOT_FOUND` when none is kept.
  public func location(userID: String) async throws -> UserLocation {
    guard let location = try await store.location(userID: userID) else {
      throw ServiceError.notFound("no location of yours is kept")
    }
    return location
  }

  /// Forgets the user's last known location and the deals offered to them.
  public func forgetLocation(userID: String) async throws {
    try await store.forgetLocation(userID: userID)
  }

  /// Forgets offers older than the no-repeat period (housekeeping).
  @discardableResult
  public func removeExpiredOffers() async throws -> Int {
    try await store.removeOffers(madeBefore: clock.now().addingTimeInterval(-settings.noRepeatPeriod))
  }

  // MARK: - Deals

  /// One notification for a report's new deals (best effort: they are in the answer anyway).
  private func notifyDeals(_ deals: [Nearby<Deal>], userID: String, now: Date) async {
    guard let first = deals.first else { return }
    let title: PersonText = deals.count == 1 ? Self.headline(first.item) : "\(deals.count) deals near you"
    let listed = PersonText.list(
      deals.prefix(5).map { "\(Self.headline($0.item)), \(Self.distance($0.distanceMetres)) away" as PersonText },
      separator: "; "
    )
    let body: PersonText = deals.count > 5 ? "\(listed); and \(deals.count - 5) more" : listed
    let notification = PeerNotification(
      userIDs: [userID],
      kind: .deal,
      title: TranslatedText(title),
      body: TranslatedText(body),
      data: ["deal_ids": deals.map(\.item.id).joined(separator: ",")],
      dedupeKey:
        "geo-offers:deals:\(userID):\(deals.map(\.item.id).sorted().joined(separator: ",").hashValueHex):\(Int64(now.timeIntervalSince1970 * 1000))"
    )
    do {
      try await notifier.send(notification)
    } catch {
      logger.warning("the deals' notification was not sent", metadata: ["user": "\(userID)", "error": "\(error)"])
    }
  }

  static func headline(_ deal: Deal) -> PersonText {
    "\(deal.discountPercent)% off at \(deal.shopName)"
  }

  static func distance(_ metres: Double) -> String {
    metres < 1_000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1_000)
  }

  // MARK: - Welcome

  /// Welcomes the user at `station` for the soonest train they hold a ticket for leaving it
  /// within the welcome window, unless already welcomed for that ticket. Every ticket of theirs
  /// for the same train counts as welcomed with it.
  func welcome(userID: String, at station: GeoStation, now: Date) async throws -> Welcome? {
    // Scheduled up to three hours ago (a delayed train may not have left yet) to the window's end.
    let held = try await tickets.departingTickets(
      userID: userID,
      stationID: station.id,
      in: now.addingTimeInterval(-3 * 3600) ..< now.addingTimeInterval(settings.welcomeWindow)
    )
    let welcomed = try await store.welcomedTickets(among: held.map(\.ticketID))
    var best: (ticket: DepartingTicket, departure: LiveDeparture, expected: Date)?
    for ticket in held where !welcomed.contains(ticket.ticketID) {
      if let best, best.ticket.run == ticket.run { continue }
      guard let live = try await timetable.departure(of: ticket.run, from: station.id), !live.cancelled else { continue }
      let expected = live.expectedDeparture ?? ticket.scheduledDeparture
      guard expected > now, ticket.scheduledDeparture <= now.addingTimeInterval(settings.welcomeWindow) else { continue }
      if best == nil || expected < best!.expected { best = (ticket, live, expected) }
    }
    guard let best else { return nil }
    let minutes = max(0, Int((best.expected.timeIntervalSince(now) / 60).rounded(.down)))
    var welcome = Welcome(
      ticketID: best.ticket.ticketID,
      station: station,
      run: best.ticket.run,
      trainNumber: best.ticket.trainNumber,
      destinationName: best.ticket.toStationName,
      scheduledDeparture: best.ticket.scheduledDeparture,
      expectedDeparture: best.expected,
      platform: best.departure.platform,
      minutesToDeparture: minutes,
      message: ""
    )
    if let destination = try await store.station(id: best.ticket.destinationStationID) {
      welcome.placesAtDestination = try await store.places(
        within: settings.placesRadiusMetres,
        of: destination.position,
        category: nil,
        limit: Self.placesPerWelcome
      )
    }
    welcome.message = message(for: welcome, delayMinutes: best.departure.delayMinutes)
    try await notifier.send(
      PeerNotification(
        userIDs: [userID],
        kind: .welcome,
        title: "Welcome to \(station.name)",
        body: TranslatedText(welcome.message),
        data: [
          "ticket_id": welcome.ticketID, "trip_id": welcome.run.tripID, "service_date": welcome.run.serviceDate,
          "station_id": station.id,
        ],
        dedupeKey: "geo-offers:welcome:\(welcome.ticketID)"
      )
    )
    let sameTrain = held.filter { $0.run == best.ticket.run }.map(\.ticketID)
    try await store.recordWelcome(ticketIDs: sameTrain, userID: userID, stationID: station.id, at: now)
    return welcome
  }

  /// "Welcome to Milano Centrale — your 10:25 to Como San Giovanni leaves from platform 4 in 18 minutes"
  func message(for welcome: Welcome, delayMinutes: Int) -> PersonText {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = settings.zone
    let time = calendar.dateComponents([.hour, .minute], from: welcome.scheduledDeparture)
    let clock = String(format: "%02d:%02d", time.hour!, time.minute!)
    let destination = welcome.destinationName
    let train: PersonText =
      switch delayMinutes {
      case ...0: "your \(clock) to \(destination)"
      case 1: "your \(clock) to \(destination), 1 minute late,"
      default: "your \(clock) to \(destination), \(delayMinutes) minutes late,"
      }
    let leaves: PersonText = welcome.platform.isEmpty ? "leaves" : "leaves from platform \(welcome.platform)"
    let when: PersonText =
      switch welcome.minutesToDeparture {
      case 0: "now"
      case 1: "in 1 minute"
      default: "in \(welcome.minutesToDeparture) minutes"
      }
    let greeting: PersonText = "Welcome to \(welcome.station.name) — \(train) \(leaves) \(when)"
    guard !welcome.placesAtDestination.isEmpty else { return greeting }
    let places = welcome.placesAtDestination.map { "\($0.item.name) (\(Self.distance($0.distanceMetres)))" }.joined(separator: ", ")
    return "\(greeting). At \(destination): \(places)"
  }
}

extension String {
  /// A short, stable (FNV-1a) fingerprint: for keys that must not grow with their input.
  fileprivate var hashValueHex: String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}
