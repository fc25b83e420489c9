import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import Testing

/// The rules that hold for every rider, end to end through the gateway, on dispatch's test clock
/// (moved ahead instead of waited for): a request every taxi declines goes round again; the fee
/// only once a driver accepted; a reservation dispatched ten minutes before its meeting, and its
/// edit cutoff; a shared ride of three, each with their own code, one leaving; a party of two
/// taxis; no-show and give-up; a deleted driver's taxi out of its queue; a taxi jittering at a
/// border. Run inside ``DispatchTests/queuesOffersAndRides()``'s suite (one start for both).
extension DispatchTests {
  typealias Notifications = Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>
  typealias Position = (latitude: Double, longitude: Double)

  static let centrale = (latitude: 45.48558, longitude: 9.20320)
  static let bicocca = (latitude: 45.51370, longitude: 9.21120)
  static let northEast = (latitude: 45.52000, longitude: 9.22000)

  static func rulesForEveryone(
    _ suite: RunningSuite,
    _ connection: GRPCClient<BinarioClientTransport>,
    admin: Tokens,
    ada: Tokens,
    driverA a: Tokens
  )
    async throws
  {
    let identity = Identity(wrapping: connection)
    let dispatch = Dispatch(wrapping: connection)
    let notifications = Notifications(wrapping: connection)
    /// Dispatch's time: the wall clock plus how far the test moved it.
    func now() -> Date { Date().addingTimeInterval(suite.clockOffset(of: "dispatch")) }
    func advance(to instant: Date) async throws { try await suite.advanceClock(of: "dispatch", by: max(0, instant.timeIntervalSince(now()))) }
    func inbox(_ who: Tokens) async throws -> [Binario_Scheduling_V1_Notification] {
      try await notifications.listNotifications(.init(), metadata: bearer(who)).notifications
    }
    func told(_ who: Tokens, _ title: String) async throws -> Binario_Scheduling_V1_Notification {
      try await eventually("told \"\(title)\"") { try await inbox(who).first { $0.title == title } }
    }
    func ride(_ id: String, as who: Tokens) async throws -> Binario_Dispatch_V1_Ride {
      try await dispatch.getRide(.with { $0.rideID = id }, metadata: bearer(who)).ride
    }
    let n = try await Self.driver(identity, dispatch, admin: admin, taxi: "MI-N", at: Self.isola)
    var riders: [String: Tokens] = [:]
    for name in ["bea", "cal", "dan"] {
      let tokens = try await identity.signUp(email: "\(name)@example.com", firstName: name.capitalized, admin: admin)
      try await Self.makeReady(identity, tokens, admin: admin)
      riders[name] = tokens
    }
    let (bea, cal, dan) = (riders["bea"]!, riders["cal"]!, riders["dan"]!)

    try await withThrowingTaskGroup(of: Void.self) { group in
      let jobsA = JobFeed(dispatch, a, group: &group)
      let jobsN = JobFeed(dispatch, n, group: &group)
      // Each stream's first event is its taxi, sent once it listens: an offer made before that
      // would come twice (in the snapshot and live), and the second copy be taken for the next.
      _ = try await jobsA.next { if case .taxi = $0 { true } else { false } }
      _ = try await jobsN.next { if case .taxi = $0 { true } else { false } }
      func offer(
        _ feed: StreamFeed<Binario_Dispatch_V1_WatchJobsResponse.OneOf_Event>,
        for rideID: String? = nil
      ) async throws
        -> Binario_Dispatch_V1_Offer
      {
        guard
          case .offer(let offer) = try await feed.next({ event in
            if case .offer(let offer) = event { rideID == nil || offer.ride.rideID == rideID } else { false }
          })
        else { throw RPCError(code: .internalError, message: "not an offer") }
        return offer
      }
      func accept(_ offer: Binario_Dispatch_V1_Offer, by driver: Tokens) async throws -> Binario_Dispatch_V1_Ride {
        try await dispatch.acceptOffer(.with { $0.offerID = offer.offerID }, metadata: bearer(driver)).ride
      }
      func reject(_ offer: Binario_Dispatch_V1_Offer, by driver: Tokens) async throws {
        _ = try await dispatch.rejectOffer(.with { $0.offerID = offer.offerID }, metadata: bearer(driver))
      }

      // Every taxi in reach declines: the search pauses and goes round again, the passenger told.
      let first = try await dispatch.requestRide(Self.request(at: Self.isola), metadata: bearer(bea)).ride
      let watched = RideFeed(dispatch, bea, rideID: first.rideID, group: &group)
      try await reject(try await offer(jobsN, for: first.rideID), by: n)
      try await reject(try await offer(jobsA, for: first.rideID), by: a)
      let paused = try await watched.next { $0.searchRound == 2 && $0.hasNextRoundAt }
      #expect(paused.state == .searching && paused.hasSearchingUntil)
      _ = try await told(bea, "Still looking for a taxi")
      try await advance(to: paused.nextRoundAt.date)
      let again = try await offer(jobsN, for: first.rideID)
      let allocated = try await accept(again, by: n)
      #expect(allocated.state == .allocated)
      // The taxi's position and when it should be at the pickup, for the passenger's map.
      let coming = try await watched.next { $0.state == .allocated }
      #expect(coming.hasTaxiPosition && coming.hasTaxiEta)
      // Past the free period with a driver on the way: the fee, and its receipt.
      let charged = try await dispatch.cancelRide(.with { $0.rideID = first.rideID }, metadata: bearer(bea)).ride
      #expect(charged.cancellationFee.amountMinor == 500 && charged.endReason == .passenger)
      _ = try await told(bea, "Cancellation fee: 5.00 EUR")
      // No driver has accepted yet: free, however long the search.
      let unaccepted = try await dispatch.requestRide(Self.request(at: Self.duomo), metadata: bearer(bea)).ride
      _ = try await offer(jobsA, for: unaccepted.rideID)
      try await advance(to: now().addingTimeInterval(10))
      let free = try await dispatch.cancelRide(.with { $0.rideID = unaccepted.rideID }, metadata: bearer(bea)).ride
      #expect(free.cancellationFee.amountMinor == 0)

      // A reservation: edited, refused past its cutoff, dispatched ten minutes before its
      // meeting, its fee once a driver has accepted.
      let meeting = now().addingTimeInterval(3 * 3600)
      var reservation = try await dispatch.createReservation(
        .with {
          $0.pickup = Self.location(Self.duomo)
          $0.destination = Self.location(Self.centrale)
          $0.meetingAt = .init(date: meeting)
          $0.idempotencyKey = "ada-later"
        },
        metadata: bearer(ada)
      ).reservation
      #expect(reservation.passengerCode.count == 4 && reservation.soloFare.amountMinor > 0)
      reservation = try await dispatch.updateReservation(
        .with {
          $0.reservationID = reservation.reservationID
          $0.meetingAt = .init(date: meeting.addingTimeInterval(600))
        },
        metadata: bearer(ada)
      ).reservation
      try await advance(to: reservation.meetingAt.date.addingTimeInterval(-25 * 60))
      let tooLate = await #expect(throws: RPCError.self) {
        _ = try await dispatch.updateReservation(
          .with {
            $0.reservationID = reservation.reservationID
            $0.passengers = 2
          },
          metadata: bearer(ada)
        )
      }
      #expect(tooLate?.code == .failedPrecondition)
      try await advance(to: reservation.meetingAt.date.addingTimeInterval(-10 * 60))
      let booked = try await offer(jobsA)
      #expect(booked.ride.reservationID == reservation.reservationID)
      let bookedRide = try await accept(booked, by: a)
      #expect(try await ride(bookedRide.rideID, as: ada).passengerCode == reservation.passengerCode)
      let deleted = try await dispatch.deleteReservation(.with { $0.reservationID = reservation.reservationID }, metadata: bearer(ada))
      #expect(deleted.reservation.cancellationFee.amountMinor == 500)

      // Three riders share a taxi: each their own code and notifications; one leaves, the others
      // ride on re-split; each boards with their own code; each has the ride in their history.
      let sharedMeeting = now().addingTimeInterval(3 * 3600)
      var booking: [String: Binario_Dispatch_V1_Reservation] = [:]
      for (index, (name, from, to)) in [("bea", Self.duomo, Self.bicocca), ("cal", Self.brera, Self.northEast), ("dan", Self.centrale, Self.bicocca)]
        .enumerated()
      {
        booking[name] = try await dispatch.createReservation(
          .with {
            $0.pickup = Self.location(from)
            $0.destination = Self.location(to)
            $0.meetingAt = .init(date: sharedMeeting.addingTimeInterval(Double(index) * 300))
            $0.shared = true
            $0.idempotencyKey = "shared-\(name)"
          },
          metadata: bearer(riders[name]!)
        ).reservation
      }
      let seen = try await dispatch.listReservations(.init(), metadata: bearer(dan)).reservations
      #expect(seen.first?.sharingWith == 2)
      #expect(seen.first.map { $0.fare.amountMinor <= $0.soloFare.amountMinor } == true)
      try await advance(to: sharedMeeting.addingTimeInterval(-10 * 60))
      let sharedOffer = try await offer(jobsA)
      #expect(sharedOffer.ride.passengers == 3 && sharedOffer.ride.route.count == 6)
      let shared = try await accept(sharedOffer, by: a)
      for (name, tokens) in riders {
        let mine = try await ride(shared.rideID, as: tokens)
        #expect(mine.passengerCode == booking[name]!.passengerCode)
        let news = try await told(tokens, "Taxi MI-A is on its way")
        #expect(news.body.contains(booking[name]!.passengerCode))
      }
      let calLeft = try await dispatch.cancelRide(.with { $0.rideID = shared.rideID }, metadata: bearer(cal)).ride
      #expect(calLeft.state == .cancelled && calLeft.cancellationFee.amountMinor == 500)
      #expect(try await ride(shared.rideID, as: bea).state == .allocated)
      _ = try await eventually("Dan is told his new share") {
        try await inbox(dan).first { $0.title.hasPrefix("Your shared taxi") && $0.body.contains("1 other passenger") }
      }
      _ = try await dispatch.reportArrived(.with { $0.rideID = shared.rideID }, metadata: bearer(a))
      for name in ["bea", "dan"] {
        _ = try await dispatch.startRide(
          .with {
            $0.rideID = shared.rideID
            $0.passengerCode = booking[name]!.passengerCode
          },
          metadata: bearer(a)
        )
      }
      let completed = try await dispatch.completeRide(.with { $0.rideID = shared.rideID }, metadata: bearer(a)).ride
      #expect(completed.state == .completed)
      for (name, state) in [("bea", Binario_Dispatch_V1_RideState.completed), ("cal", .cancelled), ("dan", .completed)] {
        let history = try await dispatch.listMyRides(.init(), metadata: bearer(riders[name]!)).rides
        #expect(history.first?.rideID == shared.rideID && history.first?.state == state, "\(name)")
      }
      _ = try await eventually("Bea has her receipt") { try await inbox(bea).first { $0.title.hasPrefix("Receipt: ") } }

      // A party of six: two taxis, each its own code. One passenger group is absent (no-show,
      // after the wait); the other's driver gives up and the job goes to the next taxi at once.
      var partyRequest = Self.request(at: Self.duomo, key: "party")
      partyRequest.passengers = 6
      let party = try await dispatch.requestRide(partyRequest, metadata: bearer(ada))
      #expect(party.party.map(\.passengers) == [3, 3] && Set(party.party.map(\.partyID)).count == 1)
      let partyA = try await offer(jobsA)
      let partyN = try await offer(jobsN)
      let rideA = try await accept(partyA, by: a)
      let rideN = try await accept(partyN, by: n)
      #expect(rideA.rideID != rideN.rideID)
      let codes = try await [ride(rideA.rideID, as: ada).passengerCode, ride(rideN.rideID, as: ada).passengerCode]
      #expect(codes.allSatisfy { $0.count == 4 })
      let arrived = try await dispatch.reportArrived(.with { $0.rideID = rideN.rideID }, metadata: bearer(n)).ride
      let early = await #expect(throws: RPCError.self) {
        _ = try await dispatch.reportNoShow(.with { $0.rideID = rideN.rideID }, metadata: bearer(n))
      }
      #expect(early?.code == .failedPrecondition)
      try await advance(to: arrived.noShowFrom.date)
      let absent = try await dispatch.reportNoShow(.with { $0.rideID = rideN.rideID }, metadata: bearer(n)).ride
      #expect(absent.state == .cancelled && absent.endReason == .noShow && absent.cancellationFee.amountMinor == 500)
      _ = try await dispatch.giveUpRide(
        .with {
          $0.rideID = rideA.rideID
          $0.reason = "flat tyre"
        },
        metadata: bearer(a)
      )
      let retaken = try await offer(jobsN, for: rideA.rideID)
      #expect(try await accept(retaken, by: n).taxiCode == "MI-N")
      _ = try await told(ada, "Finding you another taxi")
      _ = try await dispatch.cancelRide(.with { $0.rideID = rideA.rideID }, metadata: bearer(ada))
      group.cancelAll()
    }

    // A taxi jittering 20 m across the C/N border stays in C's queue; 200 m in, it is N's.
    func report(_ driver: Tokens, _ position: Position, at instant: Date) async throws -> Binario_Dispatch_V1_ReportPositionResponse {
      try await dispatch.reportPosition(
        .with {
          $0.position = .with {
            $0.latitude = position.latitude
            $0.longitude = position.longitude
          }
          $0.reportedAt = .init(date: instant)
          $0.accuracyMetres = 8
        },
        metadata: bearer(driver)
      )
    }
    let start = now().addingTimeInterval(-55)
    #expect(try await report(a, (45.48865, 9.17), at: start).taxi.zoneID == "C")
    for step in 1 ... 4 {
      let jitter = step % 2 == 1 ? (45.49018, 9.17) : (45.49000, 9.17)
      let answer = try await report(a, jitter, at: start.addingTimeInterval(Double(step) * 10))
      #expect(answer.used && answer.taxi.zoneID == "C")
    }
    let wild = try await report(a, Self.bicocca, at: start.addingTimeInterval(51))
    #expect(!wild.used && wild.ignoredReason == "too_fast")
    #expect(try await report(a, (45.49180, 9.17), at: start.addingTimeInterval(55)).taxi.zoneID == "N")

    // A deleted driver's taxi leaves its queue at once (identity's event).
    let nCode = try await dispatch.getMyTaxi(.init(), metadata: bearer(n)).taxi.driverUserID
    _ = try await identity.deleteDriver(.with { $0.account = .with { $0.userID = nCode } }, metadata: bearer(admin))
    let gone = try await eventually("MI-N leaves its queue without a driver") { () -> Binario_Dispatch_V1_Taxi? in
      let taxi = try await dispatch.listTaxis(.init(), metadata: bearer(admin)).taxis.first { $0.code == "MI-N" }
      return taxi?.driverUserID == "" && taxi?.queuePosition == 0 ? taxi : nil
    }
    #expect(gone.state == .unavailable && gone.unavailableReason == "no driver")
  }

  static func location(_ place: Position) -> Binario_Dispatch_V1_Location {
    .with {
      $0.position = .with {
        $0.latitude = place.latitude
        $0.longitude = place.longitude
      }
    }
  }
}
