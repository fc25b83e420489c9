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
        let registered = try await telemetry.registerDevice(.with { $0.name = "Erin's board" }, metadata: bearer(erin))
        let board: Metadata = ["authorization": .string("Device \(registered.token)")]
        func upload(_ index: Int) async throws -> Binario_Telemetry_V1_UploadReadingsResponse {
          try await telemetry.uploadReadings(.with { $0.readings = [Self.reading(index)] }, metadata: board)
        }
        #expect(try await upload(0).stored == 1)

        // Disabled by an admin: the board's uploads are refused, saying why.
        _ = try await identity.disableAccount(
          .with {
            $0.account.userID = userID
            $0.reason = "reported"
          },
          metadata: bearer(admin)
        )
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

        // Enabled again: the same token uploads again.
        _ = try await identity.enableAccount(.with { $0.account.userID = userID }, metadata: bearer(admin))
        let stored = try await eventually("telemetry takes the enabled account's board again") { try? await upload(2).stored }
        #expect(stored == 1)

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
        #expect(gone.message.contains("not valid"))

        // Scheduling: Erin's trip is cancelled for Bob, who is told why.
        let bobsLeft = try await eventually("scheduling cancels the deleted organiser's trip") { () -> [String]? in
          let trips = try await bobsTrips()
          return trips.contains(erinsTrip) ? nil : trips
        }
        #expect(bobsLeft.isEmpty)
        #expect(try await bobsInbox().contains("Erin's lakes was cancelled"))
        return (userID: userID, email: "erin@example.com", deviceID: registered.device.id)
      }

      // Nothing of the person is left in the databases of the services that have applied the
      // deletion (docs/data-map.md; identity keeps its audit log and, for a while, the event).
      for service in ["telemetry", "scheduling", "geo-offers"] {
        let leftovers = try DatabaseLeftovers.occurrences(
          of: [person.userID, person.email, person.deviceID, "erin-phone-token"],
          in: suite.folder.appendingPathComponent("data/\(service)/\(service).sqlite")
        )
        #expect(leftovers.isEmpty, "\(service): \(leftovers)")
      }
    }
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
