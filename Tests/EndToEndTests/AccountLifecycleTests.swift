import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import SwiftProtobuf
import Testing

/// An account's life across the suite, through the gateway, with one suite start of its own (it
/// reads every service's database file afterwards for what is left of the person): friends part,
/// an admin disables an account and enables it again, its owner deletes it; each service follows
/// identity's events (Shared/Events) and the outcome is checked where its users would see it.
@Suite("An account's life across the suite", .serialized)
struct AccountLifecycleTests {
  typealias Identity = Binario_Identity_V1_Identity.Client<BinarioClientTransport>
  typealias Telemetry = Binario_Telemetry_V1_Telemetry.Client<BinarioClientTransport>
  typealias Itineraries = Binario_Scheduling_V1_Itineraries.Client<BinarioClientTransport>
  typealias Notifications = Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>
  typealias GeoOffers = Binario_GeoOffers_V1_GeoOffers.Client<BinarioClientTransport>
  typealias Tickets = Binario_Ticketing_V1_Tickets.Client<BinarioClientTransport>
  typealias Subscriptions = Binario_Ticketing_V1_Subscriptions.Client<BinarioClientTransport>
  typealias Dispatch = Binario_Dispatch_V1_Dispatch.Client<BinarioClientTransport>

  static let password = "a-good-password-1"

  static func reading(_ index: Int) -> Binario_Telemetry_V1_Reading {
    .with {
      $0.time = Google_Protobuf_Timestamp(date: Date().addingTimeInterval(Double(index - 1000)))
      $0.latitude = 45.4705
      $0.longitude = 9.1975
      $0.pm25 = 12
    }
  }

  @Test func disabledEnabledThenDeletedEverywhere() async throws {
    try await RunningSuite.with { suite in
      try await suite.waitUntilTheGatewaySeesServing("telemetry")
      let person = try await suite.withGatewayConnection { connection in
        let (identity, telemetry) = (Identity(wrapping: connection), Telemetry(wrapping: connection))
        let (itineraries, notifications) = (Itineraries(wrapping: connection), Notifications(wrapping: connection))
        let admin = try await identity.signInAdmin()
        let erin = try await identity.signUp(email: "erin@example.com", password: Self.password, firstName: "Erin", admin: admin)
        let userID = try await identity.getMe(.init(), metadata: bearer(erin)).profile.userID
        // Ready to ride (her phone verified before others sign up with the same number, a card).
        try await DispatchTests.makeReady(identity, erin, admin: admin)
        let bob = try await identity.signUp(email: "bob@example.com", firstName: "Bob", admin: admin)
        let ines = try await identity.signUp(email: "ines@example.com", firstName: "Ines", admin: admin)

        // Scheduling: Erin and Ines each organise a trip Bob has joined; Erin has a push device.
        let erinsTrip = try await Self.tripJoined(by: bob, "bob@example.com", organiser: erin, named: "Erin's lakes", identity, itineraries)
        let inesTrip = try await Self.tripJoined(by: bob, "bob@example.com", organiser: ines, named: "Ines's hills", identity, itineraries)
        _ = try await notifications.registerPushDevice(
          .with {
            $0.platform = .fcm
            $0.token = "erin-phone-token"
            $0.name = "Erin's phone"
          },
          metadata: bearer(erin)
        )
        // Geo-offers: Erin is near Milano Centrale (a position and the deals offered there).
        _ = try await GeoOffers(wrapping: connection).reportLocation(
          .with {
            $0.latitude = 45.4858
            $0.longitude = 9.2044
            $0.accuracyMetres = 15
          },
          metadata: bearer(erin)
        )
        // Ticketing: Erin bought a ticket; Erin and Ines each share a subscription with Bob.
        let (tickets, subscriptions) = (Tickets(wrapping: connection), Subscriptions(wrapping: connection))
        let quote = try await tickets.quoteTicket(.with { $0.zone = .with { $0.zones = "Mi1-Mi3" } }, metadata: bearer(erin)).quote
        _ = try await tickets.purchaseTickets(
          .with {
            $0.quoteID = quote.quoteID
            $0.idempotencyKey = "erin-first-ticket"
          },
          metadata: bearer(erin)
        )
        let erinsNetflix = try await Self.subscription("Netflix", sharedWith: bob, by: erin, subscriptions)
        let inesSpotify = try await Self.subscription("Spotify", sharedWith: bob, by: ines, subscriptions)
        func bobsShared() async throws -> [String] {
          try await subscriptions.listSubscriptions(.init(), metadata: bearer(bob)).sharedWithMe.map(\.subscriptionID)
        }
        #expect(Set(try await bobsShared()) == [erinsNetflix, inesSpotify])
        // Dispatch: Erin saved her home and booked a taxi for later.
        let dispatch = Dispatch(wrapping: connection)
        _ = try await dispatch.savePlace(
          .with {
            $0.place.name = "Home"
            $0.place.position = .with {
              $0.latitude = 45.5029
              $0.longitude = 9.1754
            }
          },
          metadata: bearer(erin)
        )
        let reservation = try await Self.reservation(by: erin, dispatch)
        func bobsTrips() async throws -> [String] {
          try await itineraries.listItineraries(.init(), metadata: bearer(bob)).itineraries.map(\.itineraryID)
        }
        func bobsInbox() async throws -> [String] {
          try await notifications.listNotifications(.init(), metadata: bearer(bob)).notifications.map(\.title)
        }
        #expect(Set(try await bobsTrips()) == [erinsTrip, inesTrip])

        // Ines and Bob stop being friends: Bob is no longer part of her trip, and each is told.
        let bobID = try await identity.getMe(.init(), metadata: bearer(bob)).profile.userID
        _ = try await identity.removeFriend(.with { $0.userID = bobID }, metadata: bearer(ines))
        let afterParting = try await eventually("scheduling takes Bob out of Ines's trip") { () -> [String]? in
          let trips = try await bobsTrips()
          return trips.contains(inesTrip) ? nil : trips
        }
        #expect(afterParting == [erinsTrip])
        #expect(try await bobsInbox().contains("You left Ines's hills"))
        let inesInbox = try await notifications.listNotifications(.init(), metadata: bearer(ines)).notifications.map(\.title)
        #expect(inesInbox.contains("A member left Ines's hills"))
        // … nor does Bob share her Spotify any more; both are told.
        let sharedAfterParting = try await eventually("ticketing takes Bob out of Ines's Spotify") { () -> [String]? in
          let shared = try await bobsShared()
          return shared.contains(inesSpotify) ? nil : shared
        }
        #expect(sharedAfterParting == [erinsNetflix])
        _ = try await eventually("Bob is told he no longer shares Spotify") {
          try await bobsInbox().contains("You no longer share Spotify") ? true : nil
        }
        let inesTold = try await notifications.listNotifications(.init(), metadata: bearer(ines)).notifications.map(\.title)
        #expect(inesTold.contains("Spotify is shared with one person fewer"))
        let registered = try await telemetry.registerDevice(.with { $0.name = "Erin's board" }, metadata: bearer(erin))
        let board: Metadata = ["authorization": .string("Device \(registered.token)")]
        func upload(_ index: Int) async throws -> Binario_Telemetry_V1_UploadReadingsResponse {
          try await telemetry.uploadReadings(.with { $0.readings = [Self.reading(index)] }, metadata: board)
        }
        #expect(try await upload(0).stored == 1)

        // Disabled by an admin while Erin watches her notifications: the stream ends at once,
        // and the board's uploads are refused, saying why.
        let erinsInboxBefore = try await notifications.listNotifications(.init(), metadata: bearer(erin)).notifications
        try #require(!erinsInboxBefore.isEmpty, "Erin has notifications (Bob joined her trip): the watch below replays them")
        let streamEnd = try await withThrowingTaskGroup(of: RPCError?.self) { group in
          let (opened, open) = AsyncStream<Void>.makeStream()
          group.addTask {
            do {
              try await notifications.watchNotifications(.with { $0.cursor = "0" }, metadata: bearer(erin)) { response in
                for try await _ in response.messages { open.yield() }
              }
              return nil
            } catch let error as RPCError {
              return error
            }
          }
          var delivered = opened.makeAsyncIterator()
          _ = await delivered.next()  // the stream is open: her inbox is being replayed
          _ = try await identity.disableAccount(
            .with {
              $0.account.userID = userID
              $0.reason = "reported"
            },
            metadata: bearer(admin)
          )
          return try await group.next() ?? nil
        }
        #expect(streamEnd?.code == .unauthenticated)
        let refusal = try await eventually("telemetry refuses a disabled account's board") { () -> RPCError? in
          do {
            _ = try await upload(1)
            return nil
          } catch let error as RPCError {
            return error
          }
        }
        #expect(refusal.code == .permissionDenied)
        #expect(refusal.message.contains("disabled"))

        // Enabled again: the same token uploads again; the taxi she had booked was cancelled
        // without a fee while she was disabled.
        _ = try await identity.enableAccount(.with { $0.account.userID = userID }, metadata: bearer(admin))
        let stored = try await eventually("telemetry takes the enabled account's board again") { try? await upload(2).stored }
        #expect(stored == 1)
        let back = try await identity.login(
          .with {
            $0.email = "erin@example.com"
            $0.password = Self.password
          }
        ).tokens
        let booked = try await eventually("dispatch cancels a disabled account's reservation") { () -> [String]? in
          let ids = try await dispatch.listReservations(.init(), metadata: bearer(back)).reservations.map(\.reservationID)
          return ids.contains(reservation) ? nil : ids
        }
        #expect(booked.isEmpty)
        let erinsInbox = try await notifications.listNotifications(.init(), metadata: bearer(back)).notifications.map(\.title)
        #expect(erinsInbox.contains("Reservation cancelled"))
        _ = try await Self.reservation(by: back, dispatch)

        // An admin deletes a driver: the taxi leaves its queue at once, without a driver.
        let driver = try await DispatchTests.driver(identity, dispatch, admin: admin, taxi: "LIFE-1", at: (45.4642, 9.1896))
        func taxi() async throws -> Binario_Dispatch_V1_Taxi? {
          try await dispatch.listTaxis(.init(), metadata: bearer(admin)).taxis.first { $0.code == "LIFE-1" }
        }
        #expect(try await taxi()?.state == .waiting)
        _ = try await identity.deleteDriver(.with { $0.account.userID = driver.userID }, metadata: bearer(admin))
        let unlinked = try await eventually("dispatch takes a deleted driver's taxi out of its queue") { () -> Binario_Dispatch_V1_Taxi? in
          guard let taxi = try await taxi(), taxi.driverUserID.isEmpty else { return nil }
          return taxi
        }
        #expect(unlinked.state == .unavailable && unlinked.queuePosition == 0)

        // Deleted by its owner: the board is gone, token and readings with it.
        let again = try await identity.login(
          .with {
            $0.email = "erin@example.com"
            $0.password = Self.password
          }
        ).tokens
        _ = try await identity.deleteMe(.with { $0.password = Self.password }, metadata: bearer(again))
        let gone = try await eventually("telemetry forgets a deleted account's board") { () -> RPCError? in
          do {
            _ = try await upload(3)
            return nil
          } catch let error as RPCError where error.code == .unauthenticated {
            return error
          }
        }
        // Refused at the token check, or, when the erasure commits between that check and the
        // insert, by the reading's foreign key: either way nothing is stored.
        #expect(gone.message.contains("not valid") || gone.message.contains("deleted"), "\(gone.message)")

        // Scheduling: Erin's trip is cancelled for Bob, who is told why.
        let bobsLeft = try await eventually("scheduling cancels the deleted organiser's trip") { () -> [String]? in
          let trips = try await bobsTrips()
          return trips.contains(erinsTrip) ? nil : trips
        }
        #expect(bobsLeft.isEmpty)
        #expect(try await bobsInbox().contains("Erin's lakes was cancelled"))
        // Ticketing: Netflix is no longer shared with Bob, who is told.
        let sharedAtTheEnd = try await eventually("ticketing ends the deleted owner's shared subscription") { () -> [String]? in
          let shared = try await bobsShared()
          return shared.contains(erinsNetflix) ? nil : shared
        }
        #expect(sharedAtTheEnd.isEmpty)
        _ = try await eventually("Bob is told Netflix is no longer shared") {
          try await bobsInbox().contains("Netflix is no longer shared with you") ? true : nil
        }
        // Every consumer has applied everything identity recorded (the last event is the deletion).
        try await EventProgress.waitUntilApplied(
          by: ["telemetry", "scheduling", "geo-offers", "ticketing", "dispatch"],
          from: "identity",
          folder: suite.folder
        )
        return (userID: userID, email: "erin@example.com", deviceID: registered.device.id, driverID: driver.userID)
      }

      // Nothing of the person is left in any service's database (docs/data-map.md): identity
      // keeps its audit log and, for a while, the events that carry the deletion.
      for service in ["identity", "telemetry", "scheduling", "geo-offers", "ticketing", "dispatch"] {
        let leftovers = try DatabaseLeftovers.occurrences(
          of: [person.userID, person.email, person.deviceID, "erin-phone-token", person.driverID],
          in: suite.folder.appendingPathComponent("data/\(service)/\(service).sqlite")
        ).filter { service != "identity" || !($0.hasPrefix("audit_entry.") || $0.hasPrefix("event_log.")) }
        #expect(leftovers.isEmpty, "\(service): \(leftovers)")
      }
    }
  }

  /// A monthly subscription `owner` adds, shared with `member` (a friend); its id.
  static func subscription(
    _ name: String,
    sharedWith member: Binario_Identity_V1_TokenPair,
    by owner: Binario_Identity_V1_TokenPair,
    _ subscriptions: Subscriptions
  ) async throws -> String {
    try await subscriptions.addSubscription(
      .with {
        $0.details = .with {
          $0.serviceName = name
          $0.planType = "family"
          $0.startDate = romeDate(daysFromToday: -10)
          $0.period = .monthly
          $0.price = .with {
            $0.amountMinor = 1799
            $0.currency = "EUR"
          }
          $0.automaticRenewal = true
          $0.category = name == "Spotify" ? .music : .moviesAndTv
        }
        $0.sharedWithUserIds = [member.userID]
      },
      metadata: bearer(owner)
    ).subscription.subscriptionID
  }

  /// A taxi booked three hours ahead from the Duomo to Bicocca; its id.
  static func reservation(by passenger: Binario_Identity_V1_TokenPair, _ dispatch: Dispatch) async throws -> String {
    try await dispatch.createReservation(
      .with {
        $0.pickup.position = .with {
          $0.latitude = 45.4642
          $0.longitude = 9.1896
        }
        $0.destination.position = .with {
          $0.latitude = 45.5137
          $0.longitude = 9.2112
        }
        $0.meetingAt = Google_Protobuf_Timestamp(date: Date().addingTimeInterval(3 * 3600))
        $0.idempotencyKey = UUID().uuidString
      },
      metadata: bearer(passenger)
    ).reservation.reservationID
  }

  /// A trip `organiser` plans and `member` (befriended first) has joined; its id.
  static func tripJoined(
    by member: Binario_Identity_V1_TokenPair,
    _ memberEmail: String,
    organiser: Binario_Identity_V1_TokenPair,
    named name: String,
    _ identity: Identity,
    _ itineraries: Itineraries
  ) async throws -> String {
    let request = try await identity.sendFriendRequest(.with { $0.email = memberEmail }, metadata: bearer(organiser))
    _ = try await identity.respondToFriendRequest(
      .with {
        $0.requestID = request.request.requestID
        $0.accept = true
      },
      metadata: bearer(member)
    )
    let memberID = try await identity.getMe(.init(), metadata: bearer(member)).profile.userID
    let created = try await itineraries.createItinerary(
      .with {
        $0.name = name
        $0.destination = "Bellagio"
        $0.startDate = "2027-05-01"
        $0.endDate = "2027-05-02"
        $0.estimatedCost = .with {
          $0.amountMinor = 10_000
          $0.currency = "EUR"
        }
      },
      metadata: bearer(organiser)
    ).itinerary
    let invite = try await itineraries.inviteToItinerary(
      .with {
        $0.itineraryID = created.itineraryID
        $0.userID = memberID
      },
      metadata: bearer(organiser)
    ).invite
    _ = try await itineraries.respondToItineraryInvite(
      .with {
        $0.inviteID = invite.inviteID
        $0.accept = true
      },
      metadata: bearer(member)
    )
    return created.itineraryID
  }
}
