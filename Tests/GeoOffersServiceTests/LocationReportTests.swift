import BinarioDomain
import Foundation
import Testing

@testable import GeoOffersService

@Suite("Location reports")
struct LocationReportTests {
  let run = RunReference(tripID: "RE80_2401", serviceDate: "2027-01-15")

  /// A ticket of `user`'s for a train leaving Milano Centrale `minutes` from the test's now.
  func holdTicket(
    _ test: TestGeoOffers,
    user: String,
    ticketID: String,
    minutes: Double,
    platform: String = "4",
    delay: Int = 0,
    toStationID: String = ""
  ) {
    let departure = test.clock.now().addingTimeInterval(minutes * 60)
    test.tickets.held.withLock {
      $0[user, default: []].append(
        DepartingTicket(
          ticketID: ticketID,
          run: run,
          trainNumber: "2401",
          fromStationID: "MI_CENTRALE",
          toStationID: toStationID,
          toStationName: "Como San Giovanni",
          scheduledDeparture: departure
        )
      )
    }
    test.timetable.departures.withLock {
      $0[run] = LiveDeparture(
        run: run,
        stationID: "MI_CENTRALE",
        scheduledDeparture: departure,
        expectedDeparture: departure.addingTimeInterval(Double(delay) * 60),
        platform: platform,
        delayMinutes: delay,
        cancelled: false
      )
    }
  }

  @Test("deals nearby are offered once within the no-repeat period, nearest first, and notified")
  func dealsOnce() async throws {
    let test = try await TestGeoOffers()
    let centrale = TestGeoOffers.centrale.position
    let near = try await test.shopWithDeal("Caffè Centrale", at: offset(centrale, north: 50))
    let nearer = try await test.shopWithDeal("Edicola", at: offset(centrale, north: -20), discount: 10)
    try await test.shopWithDeal("Far away", at: offset(centrale, north: 900))

    let first = try await test.domain.report(
      userID: "u1",
      latitude: centrale.latitude,
      longitude: centrale.longitude,
      accuracyMetres: 10,
      reportedAt: nil
    )
    #expect(first.stored && first.deals.map(\.item.id) == [nearer.id, near.id])
    #expect(first.nearestStation?.station.id == "MI_CENTRALE" && (first.nearestStation?.distanceMetres ?? 99) < 1)
    let sent = test.notifier.sent.withLock { $0 }
    #expect(sent.map(\.kind) == [.deal] && sent[0].title == "2 deals near you")
    #expect(sent[0].body.english.hasPrefix("10% off at Edicola, 20 m away; 20% off at Caffè Centrale, 50 m away"))
    #expect(sent[0].body.text(in: .italian).hasPrefix("sconto del 10% da Edicola, a 20 m; sconto del 20% da Caffè Centrale, a 50 m"))

    test.clock.advance(by: 600)
    let again = try await test.domain.report(
      userID: "u1",
      latitude: centrale.latitude,
      longitude: centrale.longitude,
      accuracyMetres: 10,
      reportedAt: nil
    )
    #expect(again.deals.isEmpty)
    #expect(test.notifier.sent.withLock { $0.count } == 1)
    // Someone else still gets them; and after the period, so does the first user.
    let other = try await test.domain.report(
      userID: "u2",
      latitude: centrale.latitude,
      longitude: centrale.longitude,
      accuracyMetres: 10,
      reportedAt: nil
    )
    #expect(other.deals.count == 2)
    test.clock.advance(by: 24 * 3600)
    let later = try await test.domain.report(
      userID: "u1",
      latitude: centrale.latitude,
      longitude: centrale.longitude,
      accuracyMetres: 10,
      reportedAt: nil
    )
    #expect(later.deals.count == 2)
  }

  @Test("concurrent reports of one user offer each deal once")
  func concurrentReports() async throws {
    let test = try await TestGeoOffers()
    let centrale = TestGeoOffers.centrale.position
    for index in 0 ..< 5 { try await test.shopWithDeal("Shop \(index)", at: offset(centrale, north: Double(index * 30))) }
    let offered = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0 ..< 8 {
        group.addTask {
          try await test.domain.report(userID: "u1", latitude: centrale.latitude, longitude: centrale.longitude, accuracyMetres: 5, reportedAt: nil)
            .deals.count
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(offered == 5)
  }

  @Test("an expired or future deal is not offered; a deal goes with its shop")
  func activeOnly() async throws {
    let test = try await TestGeoOffers()
    let centrale = TestGeoOffers.centrale.position
    let shop = try await test.domain.createShop(Shop(id: "", name: "Bar", description: "", position: centrale, stationID: "MI_CENTRALE"))
    let now = test.clock.now()
    _ = try await test.domain.createDeal(
      DealDraft(
        shopID: shop.id,
        description: "old",
        discountPercent: 5,
        validFrom: now.addingTimeInterval(-7200),
        validUntil: now.addingTimeInterval(-3600)
      )
    )
    _ = try await test.domain.createDeal(
      DealDraft(
        shopID: shop.id,
        description: "soon",
        discountPercent: 5,
        validFrom: now.addingTimeInterval(3600),
        validUntil: now.addingTimeInterval(7200)
      )
    )
    #expect(try await test.domain.nearbyDeals(latitude: centrale.latitude, longitude: centrale.longitude, radius: 0).isEmpty)
    test.clock.advance(by: 3600)
    #expect(
      try await test.domain.nearbyDeals(latitude: centrale.latitude, longitude: centrale.longitude, radius: 0).map(\.item.description) == ["soon"]
    )
    // The shop moves 2 km away: its deals go with it.
    var moved = shop
    moved.position = offset(centrale, north: 2_000)
    _ = try await test.domain.updateShop(moved)
    #expect(try await test.domain.nearbyDeals(latitude: centrale.latitude, longitude: centrale.longitude, radius: 0).isEmpty)
    try await test.domain.deleteShop(id: shop.id)
    #expect(try await test.domain.nearbyDeals(latitude: moved.position.latitude, longitude: moved.position.longitude, radius: 0).isEmpty)
    #expect(try await test.domain.deals(shopID: "", pageSize: 0, pageToken: "").items.isEmpty)
  }

  @Test("a welcome at the station for a train within the hour, once per ticket, with the live platform")
  func welcomeOnce() async throws {
    let test = try await TestGeoOffers()
    holdTicket(test, user: "ada", ticketID: "tk_1", minutes: 25, platform: "4", delay: 7)
    holdTicket(test, user: "ada", ticketID: "tk_2", minutes: 25, platform: "4", delay: 7)  // a second passenger's ticket
    let centrale = TestGeoOffers.centrale.position

    // Walking towards the station: 600 m away, nothing; at the station, the welcome.
    let away = offset(centrale, north: -600)
    let far = try await test.domain.report(userID: "ada", latitude: away.latitude, longitude: away.longitude, accuracyMetres: 15, reportedAt: nil)
    #expect(far.welcome == nil && test.tickets.calls.load(ordering: .relaxed) == 0)
    let entrance = offset(centrale, north: -80)
    let arrived = try await test.domain.report(
      userID: "ada",
      latitude: entrance.latitude,
      longitude: entrance.longitude,
      accuracyMetres: 15,
      reportedAt: nil
    )
    let welcome = try #require(arrived.welcome)
    #expect(welcome.platform == "4" && welcome.minutesToDeparture == 32)
    // 1,800,000,000 s is 2027-01-15 08:00 UTC: 09:25 in Milan.
    #expect(welcome.message == "Welcome to Milano Centrale — your 09:25 to Como San Giovanni, 7 minutes late, leaves from platform 4 in 32 minutes")
    let welcomes = test.notifier.sent.withLock { $0.filter { $0.kind == .welcome } }
    #expect(welcomes.map(\.dedupeKey) == ["geo-offers:welcome:tk_1"] && welcomes[0].body == TranslatedText(welcome.message))
    #expect(
      welcome.message.rendered(in: .italian)
        == "Benvenuto a Milano Centrale — il tuo treno delle 09:25 per Como San Giovanni, con 7 minuti di ritardo, parte dal binario 4 tra 32 minuti"
    )

    test.clock.advance(by: 120)
    let stillThere = try await test.domain.report(
      userID: "ada",
      latitude: centrale.latitude,
      longitude: centrale.longitude,
      accuracyMetres: 15,
      reportedAt: nil
    )
    #expect(stillThere.welcome == nil)
    #expect(test.notifier.sent.withLock { $0.filter { $0.kind == .welcome }.count } == 1)
  }

  @Test("the welcome names places to visit near the station the ticket goes to, in the reader's language")
  func welcomeWithPlacesAtTheDestination() async throws {
    let test = try await TestGeoOffers()
    holdTicket(test, user: "ada", ticketID: "tk_como", minutes: 20, toStationID: "COMO_SG")
    let como = TestGeoOffers.como.position
    _ = try await test.domain.createPlace(
      Place(id: "", name: "Duomo di Como", description: "The cathedral", category: .church, position: offset(como, north: 450))
    )
    _ = try await test.domain.createPlace(
      Place(id: "", name: "Villa Olmo", description: "A villa on the lake", category: .park, position: offset(como, north: 900))
    )
    // Near Milano Centrale: not where the ticket goes.
    _ = try await test.domain.createPlace(
      Place(id: "", name: "Pirellone", description: "A tower", category: .monument, position: offset(TestGeoOffers.centrale.position, north: 300))
    )
    let centrale = TestGeoOffers.centrale.position
    let report = try await test.domain.report(
      userID: "ada",
      latitude: centrale.latitude,
      longitude: centrale.longitude,
      accuracyMetres: 10,
      reportedAt: nil
    )
    let welcome = try #require(report.welcome)
    #expect(welcome.placesAtDestination.map(\.item.name) == ["Duomo di Como", "Villa Olmo"])
    #expect(
      welcome.message
        == "Welcome to Milano Centrale — your 09:20 to Como San Giovanni leaves from platform 4 in 20 minutes. At Como San Giovanni: Duomo di Como (450 m), Villa Olmo (900 m)"
    )
    #expect(welcome.message.rendered(in: .italian).hasSuffix(". A Como San Giovanni: Duomo di Como (450 m), Villa Olmo (900 m)"))
    let sent = test.notifier.sent.withLock { $0.filter { $0.kind == .welcome } }
    #expect(sent.first?.body == TranslatedText(welcome.message))
  }

  @Test("no welcome without a ticket, for a train beyond the hour, a cancelled one, or a vague position")
  func noWelcome() async throws {
    let test = try await TestGeoOffers()
    let centrale = TestGeoOffers.centrale.position
    #expect(
      try await test.domain.report(userID: "bob", latitude: centrale.latitude, longitude: centrale.longitude, accuracyMetres: 10, reportedAt: nil)
        .welcome == nil
    )
    holdTicket(test, user: "bob", ticketID: "tk_later", minutes: 75)
    #expect(
      try await test.domain.report(userID: "bob", latitude: centrale.latitude, longitude: centrale.longitude, accuracyMetres: 10, reportedAt: nil)
        .welcome == nil
    )
    holdTicket(test, user: "cy", ticketID: "tk_soon", minutes: 20)
    #expect(
      try await test.domain.report(userID: "cy", latitude: centrale.latitude, longitude: centrale.longitude, accuracyMetres: 900, reportedAt: nil)
        .welcome == nil
    )
    test.timetable.departures.withLock { $0[run]?.cancelled = true }
    #expect(
      try await test.domain.report(userID: "cy", latitude: centrale.latitude, longitude: centrale.longitude, accuracyMetres: 10, reportedAt: nil)
        .welcome == nil
    )
    test.timetable.departures.withLock { $0[run]?.cancelled = false }
    #expect(
      try await test.domain.report(userID: "cy", latitude: centrale.latitude, longitude: centrale.longitude, accuracyMetres: 10, reportedAt: nil)
        .welcome != nil
    )
  }

  @Test("bad coordinates name the field; the location is the newest report's; forgetting it")
  func validationAndLocation() async throws {
    let test = try await TestGeoOffers()
    let bad = await #expect(throws: ServiceError.self) {
      _ = try await test.domain.report(userID: "u", latitude: 91, longitude: .nan, accuracyMetres: -1, reportedAt: nil)
    }
    guard case .invalid(let problems) = bad else {
      Issue.record("expected invalid, got \(String(describing: bad))")
      return
    }
    #expect(problems.map(\.field) == ["latitude", "longitude", "accuracy_metres"])
    let future = await #expect(throws: ServiceError.self) {
      _ = try await test.domain.report(
        userID: "u",
        latitude: 45,
        longitude: 9,
        accuracyMetres: 0,
        reportedAt: test.clock.now().addingTimeInterval(3600)
      )
    }
    #expect(future == .invalid("reported_at", "\(test.clock.now().addingTimeInterval(3600).ISO8601Format()) is in the future"))
    let radius = await #expect(throws: ServiceError.self) {
      _ = try await test.domain.nearbyDeals(latitude: 45, longitude: 9, radius: 60_000)
    }
    #expect(radius == .invalid("radius_metres", "60000.0 m is not a radius (more than 0, at most 50000 m)"))

    let now = test.clock.now()
    _ = try await test.domain.report(userID: "u", latitude: 45.1, longitude: 9.1, accuracyMetres: 5, reportedAt: now)
    let older = try await test.domain.report(userID: "u", latitude: 45.2, longitude: 9.2, accuracyMetres: 5, reportedAt: now.addingTimeInterval(-60))
    #expect(!older.stored)
    #expect(try await test.domain.location(userID: "u").position == GeoPoint(latitude: 45.1, longitude: 9.1))
    try await test.domain.forgetLocation(userID: "u")
    await #expect(throws: ServiceError.notFound("no location of yours is kept")) { _ = try await test.domain.location(userID: "u") }
  }
}
