import AsyncHTTPClient
import BinarioDomain
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import BinarioWebPush
import Crypto
import Foundation
import GRPCCore
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing
import ZIPFoundation

/// Scheduling through the gateway over TLS, on one suite start: the demo network's boards and
/// runs, following a run and its live changes reaching the follower's open stream and inbox,
/// resuming a stream at its cursor, admin-only and internal-only methods refused, a malformed
/// feed refused without a change, the board over HTTP/JSON and notifications over SSE, and an
/// acknowledged delay surviving `kill -9`.
@Suite("Scheduling, end to end through the gateway", .serialized)
struct SchedulingTests {
  typealias Scheduling = Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>
  typealias Notifications = Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>

  @Test func liveChangesReachFollowersAndSurviveAKill() async throws {
    try await RunningSuite.with { suite in
      try await suite.withGatewayConnection { connection in
        let identity = Binario_Identity_V1_Identity.Client(wrapping: connection)
        let scheduling = Scheduling(wrapping: connection)
        let notifications = Notifications(wrapping: connection)
        let admin = try await identity.signInAdmin()
        let passenger = try await identity.signUp(email: "follower@example.com", admin: admin)

        // The demo network's busiest station has departures now, whatever the time of day.
        let board = try await scheduling.getDeparturesBoard(
          .with {
            $0.stationID = "MI_CENTRALE"
            $0.limit = 5
          }
        )
        #expect(board.station.name == "Milano Centrale")
        let departure = try #require(board.departures.first)
        let run = departure.run.run
        #expect(departure.run.stops.count >= 2)

        try await scheduling.followRun(.with { $0.run = run }, metadata: bearer(passenger))
        let followed = try await scheduling.listFollowedRuns(.init(), metadata: bearer(passenger))
        #expect(followed.runs.map(\.run) == [run])

        // Their browser subscribes to Web Push at a push service; an old one's subscription is gone.
        let pushService = try await StandInPushService.start(certificates: suite.certificates)
        let browser = try await WebPushBrowser.subscribe(notifications, passenger, at: pushService, path: "/push/firefox")
        let oldBrowser = try await WebPushBrowser.subscribe(notifications, passenger, at: pushService, path: "/push/gone")
        pushService.answer(410, at: "/push/gone")

        // A passenger may not change the timetable.
        let denied = await #expect(throws: RPCError.self) {
          _ = try await scheduling.delayRun(
            .with {
              $0.run = run
              $0.minutes = 5
              $0.reason = "no"
            },
            metadata: bearer(passenger)
          )
        }
        #expect(denied?.code == .permissionDenied)

        // The follower's stream, from the start of their (empty) inbox: the delay reaches it.
        let first = try await Self.firstNotifications(notifications, passenger, after: "0", count: 1) {
          let delayed = try await scheduling.delayRun(
            .with {
              $0.run = run
              $0.minutes = 12
              $0.reason = "Signal failure at Lambrate"
            },
            metadata: bearer(admin)
          )
          #expect(delayed.run.stops.allSatisfy { $0.delayMinutes == 12 })
        }
        let delay = try #require(first.first)
        #expect(delay.notification.kind == .tripDelay)
        #expect(delay.notification.title.contains("12 minutes late"))
        #expect(delay.notification.data["trip_id"] == run.tripID)
        let inbox = try await notifications.listNotifications(.init(), metadata: bearer(passenger))
        #expect(inbox.notifications.map(\.notificationID) == [delay.notification.notificationID])
        #expect(inbox.unreadCount == 1)

        // The delay reached the browser too, encrypted for its subscription and signed with the
        // server's VAPID key; the subscription that is gone was forgotten.
        try await browser.expectPush(from: pushService, suite: suite, titled: delay.notification.title)
        _ = try await eventually("the gone subscription is forgotten") {
          let devices = try await notifications.listPushDevices(.init(), metadata: bearer(passenger)).devices
          return devices.map(\.deviceID) == [browser.deviceID] ? devices : nil
        }
        #expect(oldBrowser.deviceID != browser.deviceID)
        await pushService.stop()

        // Disconnected, the follower misses a platform change; reconnecting with the cursor
        // they saw last brings exactly that, nothing twice.
        let sequence = departure.sequence
        _ = try await scheduling.changePlatform(
          .with {
            $0.run = run
            $0.sequence = sequence
            $0.platform = "21"
            $0.reason = "Track works"
          },
          metadata: bearer(admin)
        )
        let missed = try await Self.firstNotifications(notifications, passenger, after: delay.cursor, count: 1) {}
        #expect(missed.map(\.notification.kind) == [.platformChange])
        let history = try await scheduling.listRunChanges(.with { $0.run = run }, metadata: bearer(admin))
        #expect(history.changes.count == 2)
        #expect(history.changes.first?.reason == "Signal failure at Lambrate")

        // Notify is for the suite's services: not through the gateway, not with the gateway's
        // own certificate; a service's retry with the same key notifies nobody twice.
        let throughGateway = await #expect(throws: RPCError.self) {
          _ = try await notifications.notify(Self.notice(to: "anyone"), metadata: bearer(admin))
        }
        #expect(throughGateway?.code == .permissionDenied || throughGateway?.code == .unimplemented)
        let me = try await identity.getMe(.init(), metadata: bearer(passenger)).profile
        try await suite.withDirectSchedulingConnection(as: "gateway") { direct in
          let refused = await #expect(throws: RPCError.self) {
            _ = try await Notifications(wrapping: direct).notify(Self.notice(to: me.userID))
          }
          #expect(refused?.code == .permissionDenied)
        }
        try await suite.withDirectSchedulingConnection(as: "ticketing") { direct in
          let once = try await Notifications(wrapping: direct).notify(Self.notice(to: me.userID))
          let again = try await Notifications(wrapping: direct).notify(Self.notice(to: me.userID))
          #expect(once.notified == 1 && !once.duplicate)
          #expect(again.notified == 0 && again.duplicate)
        }
        #expect(try await notifications.listNotifications(.init(), metadata: bearer(passenger)).unreadCount == 3)

        // A malformed feed is refused with the file at fault and changes nothing.
        let malformed = await #expect(throws: RPCError.self) {
          _ = try await scheduling.importTimetable(.with { $0.feedZip = Data("not a zip".utf8) }, metadata: bearer(admin))
        }
        #expect(malformed?.code == .invalidArgument)
        let unchanged = try await scheduling.getDeparturesBoard(
          .with {
            $0.stationID = "MI_CENTRALE"
            $0.limit = 5
          }
        )
        #expect(unchanged.departures.map(\.run.run) == board.departures.map(\.run.run))

        // The board over HTTP/JSON, and the inbox's stream as Server-Sent Events.
        try await Self.overHTTP(suite, stationBoard: board, passenger: passenger.accessToken, cursor: delay.cursor)

        // kill -9 after acknowledged changes: they and their notifications are on disk.
        let port = suite.schedulingPort
        suite.killScheduling()
        try await suite.startScheduling(port: port)
        try await suite.waitUntilTheGatewaySeesServing("scheduling")
        let again = try await scheduling.getRun(.with { $0.run = run })
        #expect(again.run.stops.first(where: { $0.sequence == sequence })?.platform == "21")
        #expect(again.run.stops.allSatisfy { $0.delayMinutes == 12 })
        let kept = try await notifications.listNotifications(.init(), metadata: bearer(passenger))
        #expect(kept.notifications.count == 3)

        try await Self.importANightTrainWithCalendarExceptions(scheduling, admin: admin)
      }
    }
  }

  /// An admin replaces the timetable with a small feed through the gateway: a night train whose
  /// second stop is past 24:00, a service with a date taken out and one added.
  static func importANightTrainWithCalendarExceptions(
    _ scheduling: Scheduling,
    admin: Binario_Identity_V1_TokenPair
  ) async throws {
    let feed: [String: String] = [
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nTN,Trenord,https://www.trenord.it,Europe/Rome\n",
      "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,45.48,9.20\nB,Beta,45.69,9.67\n",
      "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nL1,TN,S9,Alpha - Beta,2\n",
      "trips.txt": "route_id,service_id,trip_id,trip_headsign,trip_short_name\nL1,NIGHT,N1,Beta,9001\n",
      "stop_times.txt":
        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nN1,23:50:00,23:50:00,A,1\nN1,24:20:00,24:20:00,B,2\n",
      // Weekdays of 4-10 January 2027; not on Epiphany (the 6th), and on Saturday the 9th too.
      "calendar.txt":
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nNIGHT,1,1,1,1,1,0,0,20270104,20270110\n",
      "calendar_dates.txt": "service_id,date,exception_type\nNIGHT,20270106,2\nNIGHT,20270109,1\n",
    ]
    let archive = try Archive(data: Data(), accessMode: .create)
    for (name, text) in feed.sorted(by: { $0.key < $1.key }) {
      let data = Data(text.utf8)
      try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) {
        position,
        size in data.subdata(in: Int(position) ..< Int(position) + size)
      }
    }
    let imported = try await scheduling.importTimetable(
      .with { $0.feedZip = try #require(archive.data) },
      metadata: bearer(admin)
    )
    #expect(imported.stations == 2 && imported.lines == 1 && imported.trips == 1 && imported.serviceDays == 5)

    // Past midnight: the second stop belongs to the service day the train left on.
    let tuesday = try await scheduling.getRun(
      .with {
        $0.run.tripID = "N1"
        $0.run.serviceDate = "2027-01-05"
      }
    ).run
    #expect(tuesday.stops.map(\.station.name) == ["Alpha", "Beta"])
    #expect(tuesday.stops[0].scheduledDeparture.date == Date(timeIntervalSince1970: 1_799_189_400))  // 2027-01-05T22:50Z
    #expect(tuesday.stops[1].scheduledArrival.date == Date(timeIntervalSince1970: 1_799_191_200))  // 2027-01-05T23:20Z
    let epiphany = await #expect(throws: RPCError.self) {
      _ = try await scheduling.getRun(
        .with {
          $0.run.tripID = "N1"
          $0.run.serviceDate = "2027-01-06"
        }
      )
    }
    #expect(epiphany?.code == .notFound)
    _ = try await scheduling.getRun(
      .with {
        $0.run.tripID = "N1"
        $0.run.serviceDate = "2027-01-09"
      }
    )
    // From Alpha after Tuesday's train: the next is Thursday's (none on Epiphany).
    let board = try await scheduling.getDeparturesBoard(
      .with {
        $0.stationID = "A"
        $0.after = .init(date: Date(timeIntervalSince1970: 1_799_189_401))
        $0.limit = 1
      }
    )
    #expect(board.departures.map(\.run.run.serviceDate) == ["2027-01-07"])
  }

  typealias Itineraries = Binario_Scheduling_V1_Itineraries.Client<BinarioClientTransport>

  /// Itineraries through the gateway: only friends are invited; a stranger can neither see nor
  /// change one (NOT_FOUND); an invite to a contact who has not registered appears once they
  /// do; joining splits the cost; events are the members' to change.
  @Test func itinerariesAreTheirMembersAloneAndInvitesWaitForAccounts() async throws {
    try await RunningSuite.with { suite in
      try await suite.withGatewayConnection { connection in
        let identity = Binario_Identity_V1_Identity.Client(wrapping: connection)
        let itineraries = Itineraries(wrapping: connection)
        let notifications = Notifications(wrapping: connection)
        let admin = try await identity.signInAdmin()
        let organiser = try await identity.signUp(email: "olga@example.com", firstName: "Olga", admin: admin)
        let friend = try await identity.signUp(email: "fred@example.com", firstName: "Fred", admin: admin)
        let stranger = try await identity.signUp(email: "sam@example.com", firstName: "Sam", admin: admin)
        let request = try await identity.sendFriendRequest(.with { $0.email = "fred@example.com" }, metadata: bearer(organiser))
        _ = try await identity.respondToFriendRequest(
          .with {
            $0.requestID = request.request.requestID
            $0.accept = true
          },
          metadata: bearer(friend)
        )
        _ = try await identity.addContact(
          .with {
            $0.name = "Kay"
            $0.email = "kay@example.com"
          },
          metadata: bearer(organiser)
        )

        let created = try await itineraries.createItinerary(
          .with {
            $0.name = "Lake Como weekend"
            $0.destination = "Bellagio"
            $0.startDate = "2027-05-01"
            $0.endDate = "2027-05-02"
            $0.estimatedCost = .with {
              $0.amountMinor = 10_001
              $0.currency = "EUR"
            }
          },
          metadata: bearer(organiser)
        ).itinerary
        let id = created.itineraryID

        // By id only friends: a stranger's id is refused. The friend and the contact by email are
        // invited; the stranger by email is sent a friend request, and the invite waits for it.
        let samID = try await identity.getMe(.init(), metadata: bearer(stranger)).profile.userID
        let notFriends = await #expect(throws: RPCError.self) {
          _ = try await itineraries.inviteToItinerary(
            .with {
              $0.itineraryID = id
              $0.userID = samID
            },
            metadata: bearer(organiser)
          )
        }
        #expect(notFriends?.code == .failedPrecondition)
        let toSam = try await itineraries.inviteToItinerary(
          .with {
            $0.itineraryID = id
            $0.email = "sam@example.com"
          },
          metadata: bearer(organiser)
        ).invite
        #expect(toSam.awaitsFriendship && toSam.inviteeUserID == samID && toSam.status == .pending)
        #expect(try await itineraries.listItineraryInvites(.init(), metadata: bearer(stranger)).invites.isEmpty)
        // Sam is told of the request, not of the trip.
        let olgaID = try await identity.getMe(.init(), metadata: bearer(organiser)).profile.userID
        let asked = try await notifications.listNotifications(.init(), metadata: bearer(stranger)).notifications
        #expect(asked.map(\.data) == [["friend_request_from": olgaID]] && !asked[0].body.contains("Lake Como"))
        let fredID = try await identity.getMe(.init(), metadata: bearer(friend)).profile.userID
        _ = try await itineraries.inviteToItinerary(
          .with {
            $0.itineraryID = id
            $0.userID = fredID
          },
          metadata: bearer(organiser)
        )
        let toKay = try await itineraries.inviteToItinerary(
          .with {
            $0.itineraryID = id
            $0.email = "kay@example.com"
          },
          metadata: bearer(organiser)
        ).invite
        #expect(toKay.inviteeUserID.isEmpty && toKay.status == .pending)

        // A stranger cannot see, change or delete it: to them it does not exist.
        for attempt in [
          { _ = try await itineraries.getItinerary(.with { $0.itineraryID = id }, metadata: bearer(stranger)) },
          {
            _ = try await itineraries.addItineraryEvent(
              .with {
                $0.itineraryID = id
                $0.event.title = "Crash"
                $0.event.startsAt = .init(date: Date())
              },
              metadata: bearer(stranger)
            )
          },
          { _ = try await itineraries.deleteItinerary(.with { $0.itineraryID = id }, metadata: bearer(stranger)) },
        ] as [@Sendable () async throws -> Void] {
          let refused = await #expect(throws: RPCError.self) { try await attempt() }
          #expect(refused?.code == .notFound)
        }
        // Invited but not yet joined: the friend sees the invite (and its notification), not the plan.
        let invites = try await itineraries.listItineraryInvites(.init(), metadata: bearer(friend)).invites
        #expect(invites.map(\.itinerary.name) == ["Lake Como weekend"])
        let inbox = try await notifications.listNotifications(.init(), metadata: bearer(friend))
        #expect(inbox.notifications.first?.kind == .itineraryInvite)
        let notYet = await #expect(throws: RPCError.self) {
          _ = try await itineraries.getItinerary(.with { $0.itineraryID = id }, metadata: bearer(friend))
        }
        #expect(notYet?.code == .notFound)

        // Joining splits the estimated cost; the member may add events, the stranger still not.
        _ = try await itineraries.respondToItineraryInvite(
          .with {
            $0.inviteID = invites[0].invite.inviteID
            $0.accept = true
          },
          metadata: bearer(friend)
        )
        let joined = try await itineraries.getItinerary(.with { $0.itineraryID = id }, metadata: bearer(friend)).itinerary
        #expect(joined.members.map(\.costShare.amountMinor) == [5_001, 5_000])
        #expect(joined.members.map(\.displayName).first?.hasPrefix("Olga") == true)
        let event = try await itineraries.addItineraryEvent(
          .with {
            $0.itineraryID = id
            $0.event.title = "Villa Melzi gardens"
            $0.event.place = "Bellagio"
            $0.event.latitude = 45.9830
            $0.event.longitude = 9.2570
            $0.event.startsAt = .init(date: Date(timeIntervalSince1970: 1_809_000_000))
            $0.event.cost = .with {
              $0.amountMinor = 1_000
              $0.currency = "EUR"
            }
          },
          metadata: bearer(friend)
        ).event
        let organiserInbox = try await notifications.listNotifications(.init(), metadata: bearer(organiser))
        #expect(organiserInbox.notifications.map(\.title).contains { $0.contains("Villa Melzi gardens") })

        // Sam accepts Olga's friend request: identity's FriendshipStarted hands Sam the invite.
        let samsRequest = try await identity.listFriendRequests(.init(), metadata: bearer(stranger)).incoming
        #expect(samsRequest.map(\.from.email) == ["olga@example.com"])
        _ = try await identity.respondToFriendRequest(
          .with {
            $0.requestID = samsRequest[0].requestID
            $0.accept = true
          },
          metadata: bearer(stranger)
        )
        let samsInvites = try await eventually("the invite waiting for the friendship reaches Sam") {
          let invites = try await itineraries.listItineraryInvites(.init(), metadata: bearer(stranger)).invites
          return invites.isEmpty ? nil : invites
        }
        #expect(samsInvites.map(\.invite.inviteID) == [toSam.inviteID] && !samsInvites[0].invite.awaitsFriendship)
        let samsInbox = try await notifications.listNotifications(.init(), metadata: bearer(stranger)).notifications
        #expect(samsInbox.first?.kind == .itineraryInvite && samsInbox.first?.data["invite_id"] == toSam.inviteID)

        // Dan, a stranger too, declines the friend request: the invite is declined with it.
        let dan = try await identity.signUp(email: "dan@example.com", firstName: "Dan", admin: admin)
        let toDan = try await itineraries.inviteToItinerary(
          .with {
            $0.itineraryID = id
            $0.email = "dan@example.com"
          },
          metadata: bearer(organiser)
        ).invite
        #expect(toDan.awaitsFriendship)
        let dansRequest = try await identity.listFriendRequests(.init(), metadata: bearer(dan)).incoming[0]
        _ = try await identity.respondToFriendRequest(
          .with {
            $0.requestID = dansRequest.requestID
            $0.accept = false
          },
          metadata: bearer(dan)
        )
        _ = try await eventually("the invite is declined with the friend request") {
          let invites = try await itineraries.getItinerary(.with { $0.itineraryID = id }, metadata: bearer(organiser)).itinerary.invites
          return invites.first { $0.inviteID == toDan.inviteID && $0.status == .rejected }
        }
        #expect(try await itineraries.listItineraryInvites(.init(), metadata: bearer(dan)).invites.isEmpty)

        // Kay registers with the invited address: identity's AddressConfirmed makes the invite
        // theirs, and tells the organiser.
        let kay = try await identity.signUp(email: "kay@example.com", firstName: "Kay", admin: admin)
        _ = try await eventually("the organiser hears Kay joined") {
          let inbox = try await notifications.listNotifications(.init(), metadata: bearer(organiser)).notifications
          return inbox.first { $0.title.hasPrefix("Kay") && $0.title.hasSuffix("joined Binario") }
        }
        let kaysInvites = try await itineraries.listItineraryInvites(.init(), metadata: bearer(kay)).invites
        #expect(kaysInvites.map(\.invite.inviteID) == [toKay.inviteID])
        _ = try await itineraries.respondToItineraryInvite(
          .with {
            $0.inviteID = toKay.inviteID
            $0.accept = true
          },
          metadata: bearer(kay)
        )
        let three = try await itineraries.getItinerary(.with { $0.itineraryID = id }, metadata: bearer(organiser)).itinerary
        #expect(three.members.map(\.costShare.amountMinor) == [3_334, 3_334, 3_333])
        #expect(three.events.map(\.eventID) == [event.eventID])

        // Kay adds their train there, three days on (a run no other test changes): the event's
        // times and place are the timetable's, and a delay the operator records shows on the trip.
        let scheduling = Scheduling(wrapping: connection)
        let board = try await scheduling.getDeparturesBoard(
          .with {
            $0.stationID = "MI_CENTRALE"
            $0.after = .init(date: Date().addingTimeInterval(3 * 86_400))
            $0.limit = 1
          }
        )
        let departure = try #require(board.departures.first)
        let toStation = try #require(departure.run.stops.last).station
        let train = try await itineraries.addItineraryEvent(
          .with {
            $0.itineraryID = id
            $0.event.train = .with {
              $0.tripID = departure.run.run.tripID
              $0.serviceDate = departure.run.run.serviceDate
              $0.fromStationID = "MI_CENTRALE"
              $0.toStationID = toStation.stationID
              $0.ticketID = "ticket-in-kays-wallet"
            }
          },
          metadata: bearer(kay)
        ).event
        #expect(train.place == "Milano Centrale" && train.title.hasSuffix("→ \(toStation.name)"))
        #expect(train.startsAt == departure.run.stops[0].scheduledDeparture && train.train.ride.delayMinutes == 0)
        #expect(train.latitude != 0 && train.train.ticketID == "ticket-in-kays-wallet")
        _ = try await scheduling.delayRun(
          .with {
            $0.run = departure.run.run
            $0.minutes = 7
            $0.reason = "Late connecting train"
          },
          metadata: bearer(admin)
        )
        let live = try await itineraries.getItinerary(.with { $0.itineraryID = id }, metadata: bearer(organiser)).itinerary
        let ride = try #require(live.events.first { $0.eventID == train.eventID }).train.ride
        #expect(ride.delayMinutes == 7 && ride.expectedDeparture.date == train.startsAt.date.addingTimeInterval(7 * 60))
        let nowhere = await #expect(throws: RPCError.self) {
          _ = try await itineraries.addItineraryEvent(
            .with {
              $0.itineraryID = id
              $0.event.train = .with {
                $0.tripID = departure.run.run.tripID
                $0.serviceDate = departure.run.run.serviceDate
                $0.fromStationID = toStation.stationID
                $0.toStationID = "MI_CENTRALE"
              }
            },
            metadata: bearer(kay)
          )
        }
        #expect(nowhere?.code == .invalidArgument)
        _ = try await itineraries.deleteItineraryEvent(
          .with {
            $0.itineraryID = id
            $0.eventID = train.eventID
          },
          metadata: bearer(kay)
        )

        try await Self.tripMoney(
          suite,
          itineraries,
          notifications,
          id: id,
          eventID: event.eventID,
          organiser: organiser,
          friend: friend,
          kay: kay
        )

        // The organiser deletes it: gone for everyone, and the members are told.
        _ = try await itineraries.deleteItinerary(.with { $0.itineraryID = id }, metadata: bearer(organiser))
        #expect(try await itineraries.listItineraries(.init(), metadata: bearer(kay)).itineraries.isEmpty)
        let told = try await notifications.listNotifications(.init(), metadata: bearer(organiser))
        #expect(told.notifications.contains { $0.title.hasPrefix("Lake Como") })
      }
    }
  }

  /// A trip's money and edits through the gateway: expenses in two currencies split every way,
  /// balances to the cent, the settle-up transfers and one made; an event's field mask and the
  /// calendar over the HTTP door; the trip edited; a member who paid removed, still in the
  /// balances.
  static func tripMoney(
    _ suite: RunningSuite,
    _ itineraries: Itineraries,
    _ notifications: Notifications,
    id: String,
    eventID: String,
    organiser: Binario_Identity_V1_TokenPair,
    friend: Binario_Identity_V1_TokenPair,
    kay: Binario_Identity_V1_TokenPair
  ) async throws {
    func money(_ minor: Int64, _ currency: String = "EUR") -> Binario_Type_V1_Money {
      .with {
        $0.amountMinor = minor
        $0.currency = currency
      }
    }
    func share(_ user: String, _ value: Int64 = 0) -> Binario_Scheduling_V1_ExpenseShare {
      .with {
        $0.userID = user
        $0.value = value
      }
    }
    let (olga, fred, kayID) = (organiser.userID, friend.userID, kay.userID)
    // Olga paid dinner for three, 100.00: 33.34, 33.33, 33.33 (the odd cent to the first).
    let dinner = try await itineraries.addItineraryExpense(
      .with {
        $0.itineraryID = id
        $0.expense.description_p = "Dinner at Bilacus"
        $0.expense.amount = money(10_000)
        $0.expense.eventID = eventID
        $0.idempotencyKey = "dinner-1"
      },
      metadata: bearer(organiser)
    ).expense
    #expect(dinner.shares.map(\.amount.amountMinor) == [3334, 3333, 3333] && dinner.paidByUserID == olga && !dinner.paidByName.isEmpty)
    // Fred paid the ferry for Fred and Kay by shares 1:2, 10.01: 3.34 and 6.67.
    _ = try await itineraries.addItineraryExpense(
      .with {
        $0.itineraryID = id
        $0.expense.description_p = "Ferry"
        $0.expense.amount = money(1001)
        $0.expense.split = .shares
        $0.expense.shares = [share(fred, 1), share(kayID, 2)]
      },
      metadata: bearer(friend)
    )
    // Kay paid in francs, 30.00 by percentages 50/25/25.
    _ = try await itineraries.addItineraryExpense(
      .with {
        $0.itineraryID = id
        $0.expense.description_p = "Funicular"
        $0.expense.amount = money(3000, "CHF")
        $0.expense.split = .percentages
        $0.expense.shares = [share(olga, 5000), share(fred, 2500), share(kayID, 2500)]
      },
      metadata: bearer(kay)
    )
    let bad = await #expect(throws: RPCError.self) {
      _ = try await itineraries.addItineraryExpense(
        .with {
          $0.itineraryID = id
          $0.expense.description_p = "Wine"
          $0.expense.amount = money(1000)
          $0.expense.split = .exact
          $0.expense.shares = [share(olga, 600), share(fred, 300)]
        },
        metadata: bearer(kay)
      )
    }
    #expect(bad?.code == .invalidArgument && bad?.message.contains("add up to 9.00 EUR") == true)

    var balances = try await itineraries.getItineraryBalances(.with { $0.itineraryID = id }, metadata: bearer(friend))
    #expect(balances.currencies.map(\.currency) == ["CHF", "EUR"])
    let euros = balances.currencies[1]
    // Olga +100.00 − 33.34 = +66.66; Fred 10.01 − 33.33 − 3.34 = −26.66; Kay −33.33 − 6.67 = −40.00.
    #expect(euros.members.map(\.balance.amountMinor) == [6666, -2666, -4000] && euros.spent.amountMinor == 11_001)
    #expect(
      euros.transfers.map { "\($0.fromUserID == kayID ? "kay" : "fred")→\($0.toUserID == olga ? "olga" : "?") \($0.amount.amountMinor)" } == [
        "kay→olga 4000", "fred→olga 2666",
      ]
    )
    #expect(balances.currencies[0].members.map(\.balance.amountMinor) == [-1500, -750, 2250])
    #expect(balances.currencies.allSatisfy { $0.members.reduce(0) { $0 + $1.balance.amountMinor } == 0 })
    #expect(balances.eventsCost.map(\.amountMinor) == [1000] && balances.estimatedCost.amountMinor == 10_001)
    // Kay settles up with Olga: 40.00.
    _ = try await itineraries.addItineraryExpense(
      .with {
        $0.itineraryID = id
        $0.expense.description_p = "Settle up"
        $0.expense.amount = money(4000)
        $0.expense.settlement = true
        $0.expense.shares = [share(olga)]
      },
      metadata: bearer(kay)
    )
    balances = try await itineraries.getItineraryBalances(.with { $0.itineraryID = id }, metadata: bearer(organiser))
    #expect(balances.currencies[1].members.map(\.balance.amountMinor) == [2666, -2666, 0] && balances.currencies[1].transfers.count == 1)

    // Over the HTTP door: a PATCH naming one field changes only it; the calendar; the trip edited.
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(suite.caFile)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
    defer { _ = client.shutdown() }
    let base = "https://localhost:\(suite.gatewayHTTPPort)/v1/itineraries/\(id)"
    func send(_ method: HTTPMethod, _ path: String, _ body: String?) async throws -> (HTTPResponseStatus, String) {
      var request = HTTPClientRequest(url: base + path)
      request.method = method
      request.headers.add(name: "authorization", value: "Bearer \(friend.accessToken)")
      if let body {
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
      }
      let response = try await client.execute(request, timeout: .seconds(30))
      return (response.status, String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }
    let (patched, patchBody) = try await send(
      .PATCH,
      "/events/\(eventID)",
      #"{"event": {"title": "Villa Melzi, gardens and lake"}, "updateMask": "title"}"#
    )
    #expect(patched == .ok, "\(patchBody)")
    let (_, viewed) = try await send(.GET, "", nil)
    #expect(viewed.contains("Villa Melzi, gardens and lake") && viewed.contains("\"place\":\"Bellagio\""), "\(viewed)")
    let (_, unmasked) = try await send(.PATCH, "/events/\(eventID)", #"{"event": {"notes": "Book ahead"}}"#)
    #expect(unmasked.contains("Villa Melzi, gardens and lake") && unmasked.contains("Book ahead"), "\(unmasked)")
    let (refused, refusal) = try await send(.PATCH, "/events/\(eventID)", #"{"event": {"title": "x"}, "updateMask": "colour"}"#)
    #expect(refused == .badRequest && refusal.contains("update_mask"), "\(refusal)")
    let (calendarStatus, calendar) = try await send(.GET, "/calendar", nil)
    #expect(calendarStatus == .ok && calendar.contains("BEGIN:VEVENT") && calendar.contains("Villa Melzi\\\\, gardens and lake"), "\(calendar)")
    let edit = await #expect(throws: RPCError.self) {
      _ = try await itineraries.updateItinerary(
        .with {
          $0.itineraryID = id
          $0.name = "Mine now"
        },
        metadata: bearer(friend)
      )
    }
    #expect(edit?.code == .permissionDenied)
    let renamed = try await itineraries.updateItinerary(
      .with {
        $0.itineraryID = id
        $0.name = "Lake Como, long weekend"
        $0.endDate = "2027-05-03"
        $0.updateMask = .with { $0.paths = ["name", "end_date"] }
      },
      metadata: bearer(organiser)
    ).itinerary
    #expect(renamed.name == "Lake Como, long weekend" && renamed.endDate == "2027-05-03" && renamed.destination == "Bellagio")
    #expect(renamed.invites.allSatisfy { $0.invitedByUserID == olga && !$0.invitedByName.isEmpty && !$0.inviteeName.isEmpty })
    #expect(renamed.members.allSatisfy { $0.email.hasSuffix("@example.com") })

    // Fred, who owes 26.66, is removed: told, out of the trip, still in the balances.
    let fredsInvite = try #require(renamed.invites.first { $0.inviteeUserID == fred })
    _ = try await itineraries.removeItineraryInvite(
      .with {
        $0.itineraryID = id
        $0.inviteID = fredsInvite.inviteID
      },
      metadata: bearer(organiser)
    )
    let fredsInbox = try await notifications.listNotifications(.init(), metadata: bearer(friend))
    #expect(fredsInbox.notifications.first?.title == "You are no longer on Lake Como, long weekend")
    balances = try await itineraries.getItineraryBalances(.with { $0.itineraryID = id }, metadata: bearer(kay))
    let fredStanding = try #require(balances.currencies[1].members.first { $0.userID == fred })
    #expect(!fredStanding.member && fredStanding.balance.amountMinor == -2666)
  }

  static func notice(to userID: String) -> Binario_Scheduling_V1_NotifyRequest {
    .with {
      $0.userIds = [userID]
      $0.kind = .ticket
      $0.title = "Your ticket is ready"
      $0.dedupeKey = "ticketing:test:\(userID)"
    }
  }

  /// Opens the user's notification stream after `cursor`, runs `action`, and returns the first
  /// `count` notifications the stream brings.
  static func firstNotifications(
    _ notifications: Notifications,
    _ tokens: Binario_Identity_V1_TokenPair,
    after cursor: String,
    count: Int,
    action: @Sendable () async throws -> Void
  ) async throws -> [Binario_Scheduling_V1_WatchNotificationsResponse] {
    try await withThrowingTaskGroup(of: [Binario_Scheduling_V1_WatchNotificationsResponse].self) { group in
      group.addTask {
        try await notifications.watchNotifications(.with { $0.cursor = cursor }, metadata: bearer(tokens)) { response in
          var received: [Binario_Scheduling_V1_WatchNotificationsResponse] = []
          for try await message in response.messages {
            received.append(message)
            if received.count == count { break }
          }
          return received
        }
      }
      // The stream starts after the cursor, so what the action causes arrives whether or not
      // the stream was open yet.
      try await action()
      let received = try await group.next() ?? []
      group.cancelAll()
      return received
    }
  }

  static func overHTTP(
    _ suite: RunningSuite,
    stationBoard: Binario_Scheduling_V1_GetDeparturesBoardResponse,
    passenger: String,
    cursor: String
  ) async throws {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(suite.caFile)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
    defer { _ = client.shutdown() }
    let base = "https://localhost:\(suite.gatewayHTTPPort)"
    let board = try await client.execute(HTTPClientRequest(url: "\(base)/v1/stations/MI_CENTRALE/departures?limit=3"), timeout: .seconds(30))
    #expect(board.status == .ok)
    let body = try await board.body.collect(upTo: 1 << 20)
    let json = try JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)) as? [String: Any]
    let departures = json?["departures"] as? [[String: Any]] ?? []
    #expect(departures.count == 3)
    #expect((json?["station"] as? [String: Any])?["name"] as? String == "Milano Centrale")

    var watch = HTTPClientRequest(url: "\(base)/v1/me/notifications:watch")
    watch.headers.add(name: "accept", value: "text/event-stream")
    watch.headers.add(name: "authorization", value: "Bearer \(passenger)")
    watch.headers.add(name: "last-event-id", value: cursor)
    let stream = try await client.execute(watch, timeout: .seconds(30))
    #expect(stream.status == .ok)
    var received = ""
    for try await chunk in stream.body {
      received += String(buffer: chunk)
      if received.contains("\n\n") { break }
    }
    #expect(received.contains("PLATFORM_CHANGE"), "\(received)")
  }
}
