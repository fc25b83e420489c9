import BinarioDomain
import BinarioProto
import BinarioStorage
import Foundation
import GRDB
import Synchronization
import Testing

@testable import SchedulingService

/// The timetable's domain on the demo network, at a fixed instant: boards, journeys, run edits
/// seen at once by the next board (the store's trip cache), changes reaching followers.
@Suite("The timetable's domain: boards, journeys, run edits, changes reaching followers")
struct SchedulingDomainTests {
  /// Wednesday 25 November 2026, 08:00 in Milan.
  struct FixedClock: DomainClock {
    func now() -> Date { Date(timeIntervalSince1970: 1_795_590_000) }
  }

  struct NoAccounts: AccountDirectory {
    func accounts(ids userIDs: [String]) async throws -> [PeerAccount] { [] }
    func accounts(emails: [String]) async throws -> [PeerAccount] { [] }
    func card(userID: String, paymentMethodID: String) async throws -> CardOnFile? { nil }
    func areFriends(_ userID: String, _ otherUserID: String) async throws -> Bool { false }
    func isPendingContact(userID: String, email: String) async throws -> Bool { false }
    func sendFriendRequest(from userID: String, to otherUserID: String) async throws -> Bool { false }
  }

  struct Outbox: PushProvider, NotificationEmailProvider, NotificationTextProvider {
    func push(_ notification: UserNotification, to device: PushDevice) async throws -> PushOutcome { .sent }
    func email(_ notification: UserNotification, to address: String) async throws {}
    func text(_ notification: UserNotification, to phone: String) async throws {}
  }

  private func withDomain(_ body: (SchedulingDomain) async throws -> Void) async throws {
    let database = try TemporaryDatabase(migrations: SchedulingMigrations.all)
    defer { try? database.remove() }
    let store = SchedulingStore(pool: database.pool)
    let dispatcher = DeliveryDispatcher(store: store, directory: NoAccounts(), push: Outbox(), email: Outbox(), text: Outbox())
    let centre = NotificationCentre(store: store, clock: FixedClock(), dispatcher: dispatcher)
    let domain = try SchedulingDomain(
      store: store,
      clock: FixedClock(),
      zone: ServiceDayZone(identifier: "Europe/Rome")!,
      notifications: centre
    )
    #expect(try await domain.importIfEmpty(folder: GTFSFeedReaderTests.demoFolder.path) != nil)
    #expect(try await domain.importIfEmpty(folder: GTFSFeedReaderTests.demoFolder.path) == nil)
    try await body(domain)
  }

  @Test func aWatchedBoardWakesOnEveryLiveChangeAndStopsWhenEnded() async throws {
    try await withDomain { domain in
      // A recheck interval longer than the test: every wake-up here comes from a change.
      let watch = try domain.watchDepartures(stationID: "MI_CENTRALE", limit: 3, recheckInterval: .seconds(3600))
      let run = try #require(watch.first.departures.first).run
      #expect(domain.store.timetableChanges.watcherCount == 1)
      var wakeUps = watch.wakeUps.makeAsyncIterator()
      _ = try await domain.delay(
        adminID: "admin",
        tripID: run.tripID,
        date: run.serviceDate.description,
        fromSequence: 0,
        minutes: 7,
        reason: "Fog"
      )
      #expect(await wakeUps.next() != nil)
      let delayed = try watch.current()
      #expect(delayed.departures.first { $0.run.tripID == run.tripID }?.run.state.stops.first?.delayMinutes == 7)
      #expect(delayed.edition != watch.first.edition)
      watch.end()
      #expect(await wakeUps.next() == nil)
      #expect(domain.store.timetableChanges.watcherCount == 0)
      let unknown = await #expect(throws: ServiceError.self) { _ = try domain.watchDepartures(stationID: "NOWHERE", limit: 3) }
      #expect(unknown == .notFound("no station NOWHERE"))
    }
  }

  @Test func aBoardShowsTheNextDeparturesInOrderWithTheirCallingPoints() async throws {
    try await withDomain { domain in
      let result = try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 5)
      let (station, board) = (result.station, result.departures)
      #expect(station.name == "Milano Centrale")
      #expect(board.count == 5)
      let times = board.compactMap { departure in departure.run.stop(departure.sequence).map { departure.run.instant($0.planned.departure) } }
      #expect(times == times.sorted() && times.allSatisfy { $0 >= FixedClock().now() })
      let unknown = await #expect(throws: ServiceError.self) { _ = try domain.departures(stationID: "NOWHERE", after: nil, limit: 5) }
      #expect(unknown == .notFound("no station NOWHERE"))
    }
  }

  @Test func anEditedRunIsWhatTheNextBoardShows() async throws {
    try await withDomain { domain in
      let first = try #require(try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 1).departures.first)
      let edited = try await domain.updateRun(
        tripID: first.run.tripID,
        date: first.run.serviceDate.description,
        trainNumber: "99999",
        headsign: "Edited",
        stops: []
      )
      // The trip runs on other dates too: this date's run became a trip of its own.
      #expect(edited.tripID == "\(first.run.tripID)@\(first.run.serviceDate)")
      let board = try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 10).departures
      #expect(board.map(\.run.tripID).contains(edited.tripID))
      #expect(!board.map(\.run.tripID).contains(first.run.tripID))
      #expect(board.first { $0.run.tripID == edited.tripID }?.run.headsign == "Edited")
      let again = try await domain.updateRun(
        tripID: edited.tripID,
        date: first.run.serviceDate.description,
        trainNumber: "",
        headsign: "Edited twice",
        stops: []
      )
      #expect(again.tripID == edited.tripID)
      #expect(
        try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 10).departures.first { $0.run.tripID == edited.tripID }?.run.headsign
          == "Edited twice"
      )
    }
  }

  @Test func timetableChangesAreRecordedForOtherServicesAndFollowersHearOfNewTimes() async throws {
    try await withDomain { domain in
      func recorded() async throws -> [(type: String, payload: Data)] {
        try await domain.store.database.read { db in
          try Row.fetchAll(db, sql: "SELECT type, payload FROM event_log ORDER BY sequence").map { ($0["type"], $0["payload"]) }
        }
      }
      // The import at first start.
      #expect(try await recorded().map(\.type) == [Binario_Scheduling_V1_TimetableReplaced.protoMessageName])
      let first = try #require(try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 1).departures.first)
      let (trip, date) = (first.run.tripID, first.run.serviceDate.description)
      try await domain.follow(userID: "ada", tripID: trip, date: date)
      // Ada's trip has this train on it, to its last stop.
      let planner = ItineraryPlanner(
        store: domain.store,
        clock: FixedClock(),
        directory: NoAccounts(),
        notifications: domain.notifications,
        trains: domain
      )
      let itinerary = try await planner.create(
        userID: "ada",
        name: "Bergamo",
        destination: "Bergamo",
        startDate: date,
        endDate: date,
        estimatedCostMinor: 0,
        currency: "EUR"
      ).itinerary
      let lastStation = try #require(first.run.state.stops.last?.planned.stationID)
      let onTheTrip = try await planner.addEvent(
        userID: "ada",
        itineraryID: itinerary.id,
        ItineraryEventDraft(
          title: "",
          place: "",
          latitude: 0,
          longitude: 0,
          startsAt: nil,
          endsAt: nil,
          notes: "",
          cost: Money(amountMinor: 0, currency: "EUR"),
          train: ItineraryTrain(tripID: trip, serviceDate: first.run.serviceDate, fromStationID: "MI_CENTRALE", toStationID: lastStation)
        )
      )
      // Ten minutes later at every stop: the trip runs on other dates too, so this date's run
      // becomes `<trip>@<date>`; both facts are recorded, and Ada hears of the new times.
      let later = try domain.liveRun(tripID: trip, on: first.run.serviceDate).state.run.stops.map {
        RunStopInput(
          stationID: $0.stationID,
          platform: $0.platform,
          arrival: String(ServiceTime(seconds: $0.arrival.secondsSinceServiceDayStart + 600).description.prefix(5)),
          departure: String(ServiceTime(seconds: $0.departure.secondsSinceServiceDayStart + 600).description.prefix(5))
        )
      }
      let edited = try await domain.updateRun(tripID: trip, date: date, trainNumber: "", headsign: "", stops: later)
      let events = try await recorded().dropFirst()
      #expect(events.map(\.type) == [Binario_Scheduling_V1_RunRenamed.protoMessageName, Binario_Scheduling_V1_RunEdited.protoMessageName])
      let renamed = try Binario_Scheduling_V1_RunRenamed(serializedBytes: try #require(events.first).payload)
      #expect(renamed.tripID == trip && renamed.serviceDate == date && renamed.newTripID == edited.tripID)
      let told = try domain.notifications.inbox(userID: "ada", pageSize: 0, pageToken: "", unreadOnly: true).notifications
      #expect(told.map(\.content.title.english).first?.hasSuffix("new times") == true)
      #expect(told.first?.content.data["trip_id"] == edited.tripID)
      // The trip's train follows the renamed run, with its new times.
      let moved = try await planner.get(userID: "ada", itineraryID: itinerary.id)
      #expect(moved.events.first?.train?.tripID == edited.tripID)
      #expect(moved.trainLegs[onTheTrip.id]?.scheduledDeparture == onTheTrip.startsAt.addingTimeInterval(600))
      // A new headsign alone tells nobody; removing the run is recorded.
      _ = try await domain.updateRun(tripID: edited.tripID, date: date, trainNumber: "", headsign: "Elsewhere", stops: [])
      try await domain.removeRun(adminID: "admin", tripID: edited.tripID, date: date, reason: "Strike")
      #expect(try domain.notifications.inbox(userID: "ada", pageSize: 0, pageToken: "", unreadOnly: true).notifications.count == 2)
      let removed = try Binario_Scheduling_V1_RunRemoved(serializedBytes: try #require(try await recorded().last).payload)
      #expect(removed.tripID == edited.tripID && removed.reason == "Strike")
    }
  }

  @Test func journeysAreDirectOrWithOneChangeEarliestArrivalFirst() async throws {
    try await withDomain { domain in
      let direct = try await domain.journeys(from: "MI_CENTRALE", to: "BERGAMO", after: nil, limit: 3)
      #expect(!direct.isEmpty && direct.allSatisfy { $0.legs.count == 1 })
      #expect(direct.map(\.arrival) == direct.map(\.arrival).sorted())
      let changing = try await domain.journeys(from: "MALPENSA_T1", to: "BERGAMO", after: nil, limit: 2)
      #expect(!changing.isEmpty && changing.allSatisfy { $0.legs.count == 2 })
      for journey in changing {
        let change = journey.legs[1].departure!.timeIntervalSince(journey.legs[0].arrival!)
        #expect(change >= 300)
      }
    }
  }

  @Test func lateAtNightAJourneySearchFindsTheNextMorningsTrains() async throws {
    try await withDomain { domain in
      // 23:55 in Milan, after the day's last train to Bergamo: the search looks into tomorrow.
      let today = domain.zone.serviceTime(at: FixedClock().now()).date
      let lateEvening = domain.zone.start(of: today).addingTimeInterval(23 * 3600 + 55 * 60)
      let direct = try await domain.journeys(from: "MI_CENTRALE", to: "BERGAMO", after: lateEvening, limit: 2)
      #expect(direct.count == 2 && direct.allSatisfy { $0.legs.count == 1 && $0.departure >= lateEvening })
      #expect(direct.first?.legs.first?.run.serviceDate == today.adding(days: 1))
      let changing = try await domain.journeys(from: "MALPENSA_T1", to: "BERGAMO", after: lateEvening, limit: 1)
      #expect(changing.count == 1 && changing.allSatisfy { $0.departure >= lateEvening })
    }
  }

  @Test func aDelayIsRecordedAndReachesTheRunsFollowersOnly() async throws {
    try await withDomain { domain in
      let run = try #require(try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 1).departures.first).run
      let before = try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 1)
      #expect(before.departures.first?.run.state.isChanged == false)
      // Asked again unchanged, the same board.
      #expect(try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 1).edition == before.edition)
      try await domain.follow(userID: "ada", tripID: run.tripID, date: run.serviceDate.description)
      let delayed = try await domain.delay(
        adminID: "admin",
        tripID: run.tripID,
        date: run.serviceDate.description,
        fromSequence: 0,
        minutes: 9,
        reason: "Signal failure"
      )
      #expect(delayed.state.stops.allSatisfy { $0.delayMinutes == 9 })
      // The board computed before the delay is not shown again.
      #expect(try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 1).departures.first?.run.state.stops.first?.delayMinutes == 9)
      let inbox = try domain.notifications.inbox(userID: "ada", pageSize: 0, pageToken: "", unreadOnly: true)
      #expect(inbox.notifications.map(\.content.kind) == [.tripDelay])
      #expect(inbox.notifications.first?.content.data["trip_id"] == run.tripID)
      #expect(try domain.notifications.inbox(userID: "bob", pageSize: 0, pageToken: "", unreadOnly: false).notifications.isEmpty)
      let refused = await #expect(throws: ServiceError.self) {
        _ = try await domain.delay(adminID: "admin", tripID: run.tripID, date: run.serviceDate.description, fromSequence: 99, minutes: 1, reason: "x")
      }
      guard case .invalid(let problems) = refused else { return }
      #expect(problems.map(\.field) == ["from_sequence"])
      // To a new departure time: 08:05 becomes 08:21, 16 minutes late from the first stop on.
      let scheduled = try #require(delayed.state.stops.first?.planned.departure)
      let later = ServiceTime(seconds: scheduled.secondsSinceServiceDayStart + 16 * 60).description.prefix(5)
      let retimed = try await domain.delay(
        adminID: "admin",
        tripID: run.tripID,
        date: run.serviceDate.description,
        fromSequence: 0,
        minutes: 0,
        newDeparture: String(later),
        reason: "Crew change"
      )
      #expect(retimed.state.stops.allSatisfy { $0.delayMinutes == 16 })
      let earlier = await #expect(throws: ServiceError.self) {
        _ = try await domain.delay(
          adminID: "admin",
          tripID: run.tripID,
          date: run.serviceDate.description,
          fromSequence: 0,
          minutes: 0,
          newDeparture: "00:01",
          reason: "x"
        )
      }
      guard case .invalid(let earlierProblems) = earlier else { return }
      #expect(earlierProblems.map(\.field) == ["new_departure"])
    }
  }

  @Test func aLiveChangeRetriedWithItsKeyIsMadeOnceAndNotifiesOnce() async throws {
    try await withDomain { domain in
      let run = try #require(try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 1).departures.first).run
      let (trip, date) = (run.tripID, run.serviceDate.description)
      try await domain.follow(userID: "ada", tripID: trip, date: date)
      let first = try await domain.delay(
        adminID: "admin",
        tripID: trip,
        date: date,
        fromSequence: 0,
        minutes: 5,
        reason: "Late crew",
        idempotencyKey: "k1"
      )
      // The same key again, even racing itself: nothing more recorded, nobody notified again.
      async let again = domain.delay(
        adminID: "admin",
        tripID: trip,
        date: date,
        fromSequence: 0,
        minutes: 5,
        reason: "Late crew",
        idempotencyKey: "k1"
      )
      async let racing = domain.delay(
        adminID: "admin",
        tripID: trip,
        date: date,
        fromSequence: 0,
        minutes: 5,
        reason: "Late crew",
        idempotencyKey: "k1"
      )
      #expect(
        try await [again, racing].map { $0.state.stops.map(\.delayMinutes) } == [
          first.state.stops.map(\.delayMinutes), first.state.stops.map(\.delayMinutes),
        ]
      )
      // A platform change under its own key, then the delay's key again: the answer is the run as it is now.
      let sequence = try #require(first.state.stops.first?.planned.sequence)
      _ = try await domain.changePlatform(
        adminID: "admin",
        tripID: trip,
        date: date,
        sequence: sequence,
        platform: "9",
        reason: "Works",
        idempotencyKey: "k2"
      )
      let now = try await domain.delay(
        adminID: "admin",
        tripID: trip,
        date: date,
        fromSequence: 0,
        minutes: 5,
        reason: "Late crew",
        idempotencyKey: "k1"
      )
      #expect(now.state.stops.first?.platform == "9")
      #expect(try domain.changes(tripID: trip, date: date).map(\.reason) == ["Late crew", "Works"])
      let inbox = try domain.notifications.inbox(userID: "ada", pageSize: 0, pageToken: "", unreadOnly: false)
      #expect(inbox.notifications.map(\.content.kind) == [.platformChange, .tripDelay])
      // Another admin's same key is theirs; no key, every call counts.
      _ = try await domain.changePlatform(
        adminID: "other-admin",
        tripID: trip,
        date: date,
        sequence: sequence,
        platform: "3",
        reason: "Works",
        idempotencyKey: "k1"
      )
      _ = try await domain.delay(adminID: "admin", tripID: trip, date: date, fromSequence: 0, minutes: 6, reason: "More")
      _ = try await domain.delay(adminID: "admin", tripID: trip, date: date, fromSequence: 0, minutes: 6, reason: "More")
      #expect(try domain.changes(tripID: trip, date: date).count == 5)
    }
  }

  /// A Milano Centrale → Lambrate → Treviglio → Bergamo run of the demo network.
  private func bergamoRun(_ domain: SchedulingDomain) throws -> LiveRun {
    let stops = ["MI_CENTRALE", "MI_LAMBRATE", "TREVIGLIO", "BERGAMO"]
    return try #require(
      try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 40).departures.map(\.run).first {
        $0.state.run.stops.map(\.stationID) == stops
      }
    )
  }

  @Test func followersHearOnlyOfChangesToThePartTheyRideInTermsOfTheirOwnStop() async throws {
    try await withDomain { domain in
      let run = try bergamoRun(domain)
      let (trip, date) = (run.tripID, run.serviceDate.description)
      // Ada gets off at Lambrate; Bea boards at Treviglio; Cy watches the whole train; Dee rides
      // Lambrate → Bergamo.
      try await domain.follow(userID: "ada", tripID: trip, date: date, fromStationID: "MI_CENTRALE", toStationID: "MI_LAMBRATE")
      try await domain.follow(userID: "bea", tripID: trip, date: date, fromStationID: "TREVIGLIO", toStationID: "BERGAMO")
      try await domain.follow(userID: "cy", tripID: trip, date: date)
      try await domain.follow(userID: "dee", tripID: trip, date: date, fromStationID: "MI_LAMBRATE")
      func told(_ user: String) throws -> [NotificationContent] {
        try domain.notifications.inbox(userID: user, pageSize: 0, pageToken: "", unreadOnly: true).notifications.map(\.content)
      }
      func markRead() async throws {
        for user in ["ada", "bea", "cy", "dee"] { _ = try await domain.notifications.markRead(userID: user, ids: [], all: true) }
      }
      // Seven minutes late from Lambrate (06:13 there): Ada is already off.
      _ = try await domain.delay(adminID: "admin", tripID: trip, date: date, fromSequence: 2, minutes: 7, reason: "Signal failure")
      #expect(try told("ada").isEmpty)
      let treviglio = try #require(run.stop(3))
      func clock(_ time: ServiceTime, plus minutes: Int = 0) -> String {
        String(ServiceTime(seconds: time.secondsSinceServiceDayStart + minutes * 60).description.prefix(5))
      }
      #expect(
        try told("bea").map(\.body.english) == [
          "Signal failure. Leaves Treviglio at \(clock(treviglio.planned.departure, plus: 7)) instead of \(clock(treviglio.planned.departure))."
        ]
      )
      #expect(try told("cy").first?.body.english.contains("Leaves Milano Lambrate") == true)
      #expect(try told("dee").first?.body.english.contains("Leaves Milano Lambrate") == true)
      try await markRead()
      // A new platform at Treviglio: Bea boards there; Dee passes through; Cy hears everything.
      _ = try await domain.changePlatform(adminID: "admin", tripID: trip, date: date, sequence: 3, platform: "4", reason: "Works")
      #expect(try told("ada").isEmpty && told("dee").isEmpty)
      #expect(try told("bea").map(\.kind) == [.platformChange] && told("cy").map(\.kind) == [.platformChange])
      try await markRead()
      // Cancelled from Bergamo: the train ends at Treviglio. Bea and Dee no longer get there.
      _ = try await domain.cancel(adminID: "admin", tripID: trip, date: date, fromSequence: 4, reason: "Line blocked")
      #expect(try told("ada").isEmpty)
      let bea = try #require(try told("bea").first)
      #expect(bea.title.english.hasSuffix("ends at Treviglio") && bea.body.english == "Line blocked. It no longer reaches Bergamo.")
      #expect(try told("dee").count == 1 && told("cy").count == 1)
      // The Italian says the same.
      #expect(bea.body.text(in: .italian) == "Line blocked. Non arriva più a Bergamo.")
    }
  }

  @Test func aCancelledStopIsNeitherDelayedNorMovedAndIsNotCancelledTwice() async throws {
    try await withDomain { domain in
      let run = try bergamoRun(domain)
      let (trip, date) = (run.tripID, run.serviceDate.description)
      try await domain.follow(userID: "cy", tripID: trip, date: date)
      func refusal(_ call: () async throws -> LiveRun) async -> String? {
        do {
          _ = try await call()
          return nil
        } catch ServiceError.failedPrecondition(let message) {
          return message.description
        } catch {
          return "\(error)"
        }
      }
      _ = try await domain.cancel(adminID: "admin", tripID: trip, date: date, fromSequence: 4, reason: "Line blocked")
      #expect(
        await refusal { try await domain.delay(adminID: "admin", tripID: trip, date: date, fromSequence: 4, minutes: 5, reason: "x") }
          == "the run no longer calls at Bergamo (it was cancelled from there): it cannot be delayed there"
      )
      #expect(
        await refusal { try await domain.changePlatform(adminID: "admin", tripID: trip, date: date, sequence: 4, platform: "2", reason: "x") }
          != nil
      )
      // Again under a new key: refused, nobody told again.
      #expect(
        await refusal { try await domain.cancel(adminID: "admin", tripID: trip, date: date, fromSequence: 4, reason: "x", idempotencyKey: "new") }
          == "the run is already cancelled from Bergamo on; nobody was told again"
      )
      // Still a delay before the cancelled stops, and then the whole run.
      _ = try await domain.delay(adminID: "admin", tripID: trip, date: date, fromSequence: 2, minutes: 3, reason: "Slow")
      _ = try await domain.cancel(adminID: "admin", tripID: trip, date: date, fromSequence: 0, reason: "Strike")
      #expect(
        await refusal { try await domain.cancel(adminID: "admin", tripID: trip, date: date, fromSequence: 0, reason: "Strike") }
          == "the run is already cancelled; nobody was told again"
      )
      #expect(
        await refusal { try await domain.delay(adminID: "admin", tripID: trip, date: date, fromSequence: 0, minutes: 5, reason: "x") }
          == "the run is cancelled: it cannot be delayed"
      )
      let kinds = try domain.notifications.inbox(userID: "cy", pageSize: 0, pageToken: "", unreadOnly: false).notifications.map(\.content.kind)
      #expect(kinds.sorted { $0.rawValue < $1.rawValue } == [.cancellation, .cancellation, .tripDelay])
      #expect(try domain.changes(tripID: trip, date: date).count == 3)
    }
  }

  @Test func aDepartureMovesEarlierWithinBoundsAndNeverBeforeTheTrainArrives() async throws {
    try await withDomain { domain in
      let run = try bergamoRun(domain)
      let (trip, date) = (run.tripID, run.serviceDate.description)
      try await domain.follow(userID: "bea", tripID: trip, date: date, fromStationID: "TREVIGLIO", toStationID: "BERGAMO")
      let treviglio = try #require(run.stop(3))
      let wait = (treviglio.planned.departure.secondsSinceServiceDayStart - treviglio.planned.arrival.secondsSinceServiceDayStart) / 60
      #expect(wait >= 1)
      func field(_ call: () async throws -> LiveRun) async -> [String] {
        do {
          _ = try await call()
          return []
        } catch ServiceError.invalid(let problems) {
          return problems.map(\.field)
        } catch {
          return ["\(error)"]
        }
      }
      // Leaving before the train arrives is refused; so is more than two hours early.
      #expect(
        await field { try await domain.delay(adminID: "a", tripID: trip, date: date, fromSequence: 3, minutes: -(wait + 1), reason: "x") } == [
          "minutes"
        ]
      )
      #expect(
        await field { try await domain.delay(adminID: "a", tripID: trip, date: date, fromSequence: 0, minutes: -121, reason: "x") } == ["minutes"]
      )
      let early = try await domain.delay(adminID: "a", tripID: trip, date: date, fromSequence: 3, minutes: -wait, reason: "Timetable fix")
      #expect(early.stop(3)?.expectedDeparture == treviglio.planned.arrival && early.stop(4)?.delayMinutes == -wait)
      let told = try #require(try domain.notifications.inbox(userID: "bea", pageSize: 0, pageToken: "", unreadOnly: true).notifications.first)
      #expect(told.content.title.english.hasSuffix("leaves \(wait) minutes early"))
      #expect(told.content.title.text(in: .italian).hasSuffix("parte con \(wait) minuti di anticipo"))
      // To a new, earlier departure time from the first stop.
      let first = try #require(run.stop(1))
      let moved = try await domain.delay(
        adminID: "a",
        tripID: trip,
        date: date,
        fromSequence: 0,
        minutes: 0,
        newDeparture: String(ServiceTime(seconds: first.planned.departure.secondsSinceServiceDayStart - 600).description.prefix(5)),
        reason: "New timetable"
      )
      #expect(moved.stop(1)?.delayMinutes == -10)
    }
  }

  @Test func aServiceNoticeReachesTheFollowersItConcernsTheBoardsAndTheFeed() async throws {
    try await withDomain { domain in
      let run = try bergamoRun(domain)
      let now = FixedClock().now()
      // Ada rides the Bergamo line's run; Bob follows a run of another line from Malpensa.
      try await domain.follow(userID: "ada", tripID: run.tripID, date: run.serviceDate.description)
      let other = try #require(
        try domain.departures(stationID: "MALPENSA_T1", after: nil, limit: 5).departures.map(\.run).first { $0.line.id != run.line.id }
      )
      try await domain.follow(userID: "bob", tripID: other.tripID, date: other.serviceDate.description)
      let draft = ServiceNoticeDraft(
        texts: [
          .init(language: "it", title: "Sciopero", description: "Treni a rischio dalle 9 alle 17."),
          .init(language: "en", title: "Strike", description: "Trains at risk from 9 to 17."),
        ],
        lineIDs: [run.line.id],
        endsAt: now.addingTimeInterval(2 * 86_400),
        cause: .strike,
        effect: .reducedService
      )
      let notice = try await domain.createNotice(adminID: "admin", draft, idempotencyKey: "n1")
      #expect(notice.followersTold == 1)
      let told = try domain.notifications.inbox(userID: "ada", pageSize: 0, pageToken: "", unreadOnly: true).notifications
      #expect(told.map(\.content.kind) == [.serviceNotice])
      #expect(told.first?.content.title.text(in: .italian) == "Sciopero" && told.first?.content.title.english == "Strike")
      #expect(try domain.notifications.inbox(userID: "bob", pageSize: 0, pageToken: "", unreadOnly: true).notifications.isEmpty)
      // Again with its key: the same notice, nobody told twice.
      #expect(try await domain.createNotice(adminID: "admin", draft, idempotencyKey: "n1").id == notice.id)
      #expect(try domain.notifications.inbox(userID: "ada", pageSize: 0, pageToken: "", unreadOnly: true).notifications.count == 1)
      // On the boards of the line's stations and on its runs; not on Malpensa's other lines.
      #expect(try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 10).notices.map(\.id) == [notice.id])
      #expect(try domain.notices(for: run).map(\.id) == [notice.id])
      #expect(try domain.notices(for: other).isEmpty)
      #expect(try domain.notices(lineID: run.line.id).map(\.id) == [notice.id])
      // In the realtime feed, as an alert in both languages.
      let feed = try domain.realtimeFeed()
      let message = try TransitRealtime_FeedMessage(
        serializedBytes: try RealtimeFeedBuilder(platformStopID: feed.platformStopID).feed(feed)
      )
      let alert = try #require(message.entity.first { $0.id == "alert:\(notice.id)" }?.alert)
      #expect(alert.cause == .strike && alert.effect == .reducedService)
      #expect(alert.informedEntity.map(\.routeID) == [run.line.id])
      #expect(Set(alert.headerText.translation.map(\.language)) == ["it", "en"])
      #expect(alert.activePeriod.first?.end == UInt64(notice.endsAt.timeIntervalSince1970))
      // Ended: gone from boards and feed, kept in the admin's list.
      _ = try await domain.endNotice(id: notice.id)
      #expect(try domain.departures(stationID: "MI_CENTRALE", after: nil, limit: 10).notices.isEmpty)
      #expect(try domain.allNotices().map(\.id) == [notice.id])
      // What an admin gets wrong is named.
      let refused = await #expect(throws: ServiceError.self) {
        _ = try await domain.createNotice(
          adminID: "admin",
          ServiceNoticeDraft(texts: [.init(language: "fr", title: "", description: "")], lineIDs: ["NOPE"], endsAt: nil)
        )
      }
      guard case .invalid(let problems) = refused else { return }
      #expect(Set(problems.map(\.field)) == ["texts[0].language", "line_ids[0]", "ends_at"])
    }
  }

  @Test func aTrainUnderWayIsPlacedBetweenItsStopsByItsLiveTimes() async throws {
    try await withDomain { domain in
      let run = try bergamoRun(domain)
      let lambrate = try #require(run.stop(2))
      let treviglio = try #require(run.stop(3))
      // Halfway between Lambrate's departure and Treviglio's arrival: halfway between them.
      let leaves = run.instant(lambrate.expectedDeparture)
      let reaches = run.instant(treviglio.expectedArrival)
      let midway = leaves.addingTimeInterval(reaches.timeIntervalSince(leaves) / 2)
      let estimate = try #require(VehicleEstimate(run, at: midway))
      let (a, b) = (try #require(run.stations["MI_LAMBRATE"]), try #require(run.stations["TREVIGLIO"]))
      #expect(abs(estimate.latitude - (a.latitude + b.latitude) / 2) < 1e-6)
      #expect(estimate.stopSequence == 3 && !estimate.stopped)
      // Standing at Lambrate between its arrival and departure; nowhere before it leaves.
      #expect(VehicleEstimate(run, at: run.instant(lambrate.expectedArrival))?.stopped == true)
      #expect(VehicleEstimate(run, at: run.instant(try #require(run.stop(1)).expectedDeparture).addingTimeInterval(-1)) == nil)
      // Ten minutes late, the same instant finds it just past Lambrate; half an hour late, not
      // yet gone from Milano Centrale.
      let late = try await domain.delay(
        adminID: "a",
        tripID: run.tripID,
        date: run.serviceDate.description,
        fromSequence: 1,
        minutes: 10,
        reason: "x"
      )
      let behind = try #require(VehicleEstimate(late, at: midway))
      #expect(abs(behind.latitude - a.latitude) < abs(behind.latitude - b.latitude))
      let later = try await domain.delay(
        adminID: "a",
        tripID: run.tripID,
        date: run.serviceDate.description,
        fromSequence: 1,
        minutes: 30,
        reason: "x"
      )
      #expect(VehicleEstimate(later, at: midway) == nil)
    }
  }
}
