import AsyncHTTPClient
import BinarioProto
import BinarioServiceKit
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import NIOCore
import NIOSSL
import Testing

/// Geo-offers through the gateway over TLS, on one suite start: a passenger walking to Milano
/// Centrale with a ticket for a train in 30 minutes is welcomed once with the live platform and
/// offered the station's deals once; one with no ticket gets deals and no welcome; a passenger
/// cannot create deals; bad coordinates name the field; the quote applies the station's route
/// offer; internal methods are refused at the gateway; nearest stations over HTTP/JSON.
@Suite("Geo-offers, end to end through the gateway", .serialized)
struct GeoOffersTests {
  typealias GeoOffers = Binario_GeoOffers_V1_GeoOffers.Client<BinarioClientTransport>
  typealias Scheduling = Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>
  typealias Tickets = Binario_Ticketing_V1_Tickets.Client<BinarioClientTransport>
  typealias Notifications = Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>

  static let centrale = (latitude: 45.48606, longitude: 9.20448)

  /// `metres` north of Milano Centrale (negative: south).
  static func nearCentrale(north metres: Double) -> (latitude: Double, longitude: Double) {
    (centrale.latitude + metres / 111_195, centrale.longitude)
  }

  @Test func welcomeDealsAndRouteOffers() async throws {
    try await RunningSuite.with { suite in
      try await suite.waitUntilTheGatewaySeesServing("geo-offers")
      try await suite.waitUntilTheGatewaySeesServing("ticketing")
      try await suite.withGatewayConnection { connection in
        let identity = Binario_Identity_V1_Identity.Client(wrapping: connection)
        let geo = GeoOffers(wrapping: connection)
        let scheduling = Scheduling(wrapping: connection)
        let tickets = Tickets(wrapping: connection)
        let notifications = Notifications(wrapping: connection)
        let admin = try await identity.signInAdmin()
        let ada = try await identity.signUp(email: "ada@example.com", admin: admin)
        try await identity.addCard(to: ada)

        // A train from Milano Centrale to Como in 30 minutes, made by an admin so that the test
        // does not depend on the hour it runs at.
        let run = try await Self.trainToComo(scheduling, admin: admin, inMinutes: 30)
        let quote = try await tickets.quoteTicket(
          .with {
            $0.station = .with {
              $0.run = .with {
                $0.tripID = run.run.tripID
                $0.serviceDate = run.run.serviceDate
              }
              $0.fromStationID = "MI_CENTRALE"
              $0.toStationID = "COMO_SG"
            }
          },
          metadata: bearer(ada)
        ).quote
        // The demo's route offer from Centrale on every route: 5 % off, asked of geo-offers.
        #expect(quote.routeOffer.title == "Off-peak from Centrale" && quote.routeOffer.discountPercent == 5)
        #expect(quote.total.amountMinor == (quote.routeOffer.fullUnitPrice.amountMinor * 95 + 49) / 100)
        let ticket = try await tickets.purchaseTickets(
          .with {
            $0.quoteID = quote.quoteID
            $0.idempotencyKey = "ada-como"
          },
          metadata: bearer(ada)
        ).purchase.tickets[0]
        _ = try await scheduling.changePlatform(
          .with {
            $0.run = run.run
            $0.sequence = run.stops[0].sequence
            $0.platform = "4"
            $0.reason = "Track works"
          },
          metadata: bearer(admin)
        )

        // Walking towards the station: 700 m away, no welcome; at the entrance, one welcome
        // with the live platform, and the station's deals.
        let away = Self.nearCentrale(north: -700)
        let far = try await geo.reportLocation(
          .with {
            $0.latitude = away.latitude
            $0.longitude = away.longitude
            $0.accuracyMetres = 20
          },
          metadata: bearer(ada)
        )
        #expect(!far.hasWelcome && far.nearestStation.station.stationID == "MI_CENTRALE")
        let entrance = Self.nearCentrale(north: -60)
        let arrived = try await geo.reportLocation(
          .with {
            $0.latitude = entrance.latitude
            $0.longitude = entrance.longitude
            $0.accuracyMetres = 20
          },
          metadata: bearer(ada)
        )
        #expect(arrived.welcome.ticketID == ticket.ticketID && arrived.welcome.platform == "4")
        #expect(arrived.welcome.message.hasPrefix("Welcome to Milano Centrale — your "))
        #expect(arrived.welcome.message.contains(" to Como San Giovanni leaves from platform 4 in "), "\(arrived.welcome.message)")
        #expect((25 ... 30).contains(arrived.welcome.minutesToDeparture), "\(arrived.welcome.minutesToDeparture)")
        let dealShops = Set(arrived.deals.map(\.deal.shopName))
        #expect(dealShops.isSuperset(of: ["Caffè Centrale", "Libreria del Binario"]), "\(dealShops)")
        #expect(arrived.routeOffers.map(\.title).contains("Off-peak from Centrale"))
        #expect(arrived.places.map(\.place.name).contains("Grattacielo Pirelli"))

        let again = try await geo.reportLocation(
          .with {
            $0.latitude = Self.centrale.latitude
            $0.longitude = Self.centrale.longitude
            $0.accuracyMetres = 10
          },
          metadata: bearer(ada)
        )
        #expect(!again.hasWelcome && again.deals.isEmpty)
        let inbox = try await notifications.listNotifications(.with { $0.pageSize = 50 }, metadata: bearer(ada)).notifications
        let welcomes = inbox.filter { $0.kind == .welcome }
        #expect(welcomes.count == 1 && welcomes.first?.body == arrived.welcome.message)
        #expect(inbox.filter { $0.kind == .deal }.count == 1)
        let kept = try await geo.getMyLocation(.init(), metadata: bearer(ada)).location
        #expect(abs(kept.latitude - Self.centrale.latitude) < 1e-9)

        // Bob holds no ticket: the deals, no welcome.
        let bob = try await identity.signUp(email: "bob@example.com", firstName: "Bob", admin: admin)
        let bobs = try await geo.reportLocation(
          .with {
            $0.latitude = Self.centrale.latitude
            $0.longitude = Self.centrale.longitude
            $0.accuracyMetres = 10
          },
          metadata: bearer(bob)
        )
        #expect(!bobs.hasWelcome && !bobs.deals.isEmpty)

        try await Self.refusals(geo, bob: bob)
        try await Self.adminDeal(geo, admin: admin, bob: bob)
        try await Self.internalMethods(suite, geo: geo, tickets: tickets, admin: admin)
        try await Self.nearestOverHTTP(suite)
      }
    }
  }

  /// An admin's run of line R_COMO leaving Milano Centrale `minutes` from now (on today's
  /// service date in Rome, past 24:00 after midnight), calling at Monza and Como San Giovanni.
  static func trainToComo(
    _ scheduling: Scheduling,
    admin: Binario_Identity_V1_TokenPair,
    inMinutes minutes: Int
  ) async throws
    -> Binario_Scheduling_V1_Run
  {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Rome")!
    let now = Date()
    let midnight = calendar.startOfDay(for: now)
    let day = calendar.dateComponents([.year, .month, .day], from: now)
    let departure = Int(now.timeIntervalSince(midnight) / 60) + minutes
    func clock(_ minute: Int) -> String { String(format: "%02d:%02d", minute / 60, minute % 60) }
    return try await scheduling.createRun(
      .with {
        $0.serviceDate = String(format: "%04d-%02d-%02d", day.year!, day.month!, day.day!)
        $0.lineID = "R_COMO"
        $0.trainNumber = "9901"
        $0.stops = [
          .with {
            $0.stationID = "MI_CENTRALE"
            $0.platform = "7"
            $0.departure = clock(departure)
          },
          .with {
            $0.stationID = "MONZA"
            $0.arrival = clock(departure + 15)
            $0.departure = clock(departure + 16)
          },
          .with {
            $0.stationID = "COMO_SG"
            $0.arrival = clock(departure + 45)
          },
        ]
      },
      metadata: bearer(admin)
    ).run
  }

  /// Bad coordinates name each field; a passenger may not create deals.
  static func refusals(_ geo: GeoOffers, bob: Binario_Identity_V1_TokenPair) async throws {
    let bad = await #expect(throws: RPCError.self) {
      _ = try await geo.reportLocation(
        .with {
          $0.latitude = 123
          $0.longitude = -200
        },
        metadata: bearer(bob)
      )
    }
    #expect(bad?.code == .invalidArgument)
    #expect(bad?.fieldViolations.map(\.field) == ["latitude", "longitude"], "\(String(describing: bad))")
    let nearest = await #expect(throws: RPCError.self) {
      _ = try await geo.listNearestStations(
        .with {
          $0.latitude = .nan
          $0.longitude = 9
        }
      )
    }
    #expect(nearest?.code == .invalidArgument && nearest?.message.contains("latitude") == true)
    let passenger = await #expect(throws: RPCError.self) {
      _ = try await geo.createShop(
        .with {
          $0.shop = .with {
            $0.name = "Mine"
            $0.latitude = 45
            $0.longitude = 9
          }
        },
        metadata: bearer(bob)
      )
    }
    #expect(passenger?.code == .permissionDenied)
    let deal = await #expect(throws: RPCError.self) {
      _ = try await geo.createDeal(
        .with {
          $0.deal = .with {
            $0.shopID = "sh_x"
            $0.description_p = "x"
            $0.discountPercent = 50
          }
        },
        metadata: bearer(bob)
      )
    }
    #expect(deal?.code == .permissionDenied)
  }

  /// An admin's shop and deal by Milano Cadorna are offered there; deleting the shop removes it.
  static func adminDeal(_ geo: GeoOffers, admin: Binario_Identity_V1_TokenPair, bob: Binario_Identity_V1_TokenPair) async throws {
    let shop = try await geo.createShop(
      .with {
        $0.shop = .with {
          $0.name = "Edicola Cadorna"
          $0.latitude = 45.46810
          $0.longitude = 9.17560
          $0.stationID = "MI_CADORNA"
        }
      },
      metadata: bearer(admin)
    ).shop
    let deal = try await geo.createDeal(
      .with {
        $0.deal = .with {
          $0.shopID = shop.shopID
          $0.description_p = "Two newspapers for one"
          $0.discountPercent = 50
        }
      },
      metadata: bearer(admin)
    ).deal
    let near = try await geo.listNearbyDeals(
      .with {
        $0.latitude = 45.46802
        $0.longitude = 9.17550
        $0.radiusMetres = 50
      }
    )
    #expect(near.deals.map(\.deal.dealID) == [deal.dealID])
    let offered = try await geo.reportLocation(
      .with {
        $0.latitude = 45.46802
        $0.longitude = 9.17550
      },
      metadata: bearer(bob)
    )
    #expect(offered.deals.first?.deal.dealID == deal.dealID)
    _ = try await geo.deleteShop(.with { $0.shopID = shop.shopID }, metadata: bearer(admin))
    #expect(
      try await geo.listNearbyDeals(
        .with {
          $0.latitude = 45.46802
          $0.longitude = 9.17550
          $0.radiusMetres = 50
        }
      ).deals.isEmpty
    )
  }

  /// The internal methods answer their one caller only, never the gateway.
  static func internalMethods(
    _ suite: RunningSuite,
    geo: GeoOffers,
    tickets: Tickets,
    admin: Binario_Identity_V1_TokenPair
  ) async throws {
    let find = await #expect(throws: RPCError.self) {
      _ = try await geo.findRouteOffer(
        .with {
          $0.fromStationID = "MI_CENTRALE"
          $0.toStationID = "BERGAMO"
        },
        metadata: bearer(admin)
      )
    }
    #expect(find?.code == .permissionDenied || find?.code == .unimplemented)
    let departing = await #expect(throws: RPCError.self) {
      _ = try await tickets.listDepartingTickets(
        .with {
          $0.userID = "x"
          $0.stationID = "MI_CENTRALE"
        },
        metadata: bearer(admin)
      )
    }
    #expect(departing?.code == .permissionDenied || departing?.code == .unimplemented)
    let asGateway = await #expect(throws: RPCError.self) {
      try await suite.withDirectGeoOffersConnection(as: "gateway") { direct in
        _ = try await GeoOffers(wrapping: direct).findRouteOffer(
          .with {
            $0.fromStationID = "MI_CENTRALE"
            $0.toStationID = "BERGAMO"
          }
        )
      }
    }
    #expect(asGateway?.code == .permissionDenied)
    let asTicketing = try await suite.withDirectGeoOffersConnection(as: "ticketing") { direct in
      try await GeoOffers(wrapping: direct).findRouteOffer(
        .with {
          $0.fromStationID = "MI_CENTRALE"
          $0.toStationID = "BERGAMO"
        }
      )
    }
    #expect(asTicketing.found && asTicketing.offer.discountPercent == 20)
  }

  /// The nearest stations as a web page would ask: JSON over HTTPS, with directions.
  static func nearestOverHTTP(_ suite: RunningSuite) async throws {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(suite.caFile)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
    defer { _ = client.shutdown() }
    let response = try await client.execute(
      HTTPClientRequest(url: "https://localhost:\(suite.gatewayHTTPPort)/v1/nearby/stations?latitude=45.4642&longitude=9.19&count=2"),
      timeout: .seconds(30)
    )
    #expect(response.status == .ok)
    let body = try await response.body.collect(upTo: 1 << 20)
    let json = try JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)) as? [String: Any]
    let stations = json?["stations"] as? [[String: Any]] ?? []
    #expect(stations.count == 2)
    #expect((stations.first?["station"] as? [String: Any])?["stationId"] as? String == "MI_CADORNA")
    #expect((stations.first?["directionsUrl"] as? String)?.hasPrefix("https://www.google.com/maps/dir/?api=1&origin=45.464200%2C9.190000") == true)
  }
}
