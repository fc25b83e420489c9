import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRDB
import GRPCCore
import Testing

/// Dispatch through the gateway over TLS, with several drivers and passengers: the fair queue
/// (a rejected offer goes to the next taxi, the driver's stream carries it), a passenger's
/// readiness, the live ride, a free cancellation the driver hears of, the roles (a passenger is
/// neither a driver nor the control room); and kill -9 of dispatch while requests and accepts
/// are in flight.
@Suite("Dispatch, end to end through the gateway", .serialized)
struct DispatchTests {
  typealias Dispatch = Binario_Dispatch_V1_Dispatch.Client<BinarioClientTransport>
  typealias Identity = Binario_Identity_V1_Identity.Client<BinarioClientTransport>
  typealias Tokens = Binario_Identity_V1_TokenPair

  static let duomo = (latitude: 45.46419, longitude: 9.18960)
  static let brera = (latitude: 45.47190, longitude: 9.18790)
  static let isola = (latitude: 45.50290, longitude: 9.17540)

  @Test func queuesOffersAndRides() async throws {
    try await RunningSuite.with { suite in
      try await suite.waitUntilTheGatewaySeesServing("dispatch")
      try await suite.withGatewayConnection { connection in
        let identity = Identity(wrapping: connection)
        let dispatch = Dispatch(wrapping: connection)
        let admin = try await identity.signInAdmin()
        let a = try await Self.driver(identity, dispatch, admin: admin, taxi: "MI-A", at: Self.duomo)
        let b = try await Self.driver(identity, dispatch, admin: admin, taxi: "MI-B", at: Self.brera)
        let queue = try await dispatch.getMonitorSnapshot(.init(), metadata: bearer(admin)).snapshot.zones.first { $0.zoneID == "C" }
        #expect(queue?.queue.map(\.code) == ["MI-A", "MI-B"])

        // A new passenger is told what is missing before a first ride.
        let ada = try await identity.signUp(email: "ada@example.com", admin: admin)
        let notReady = await #expect(throws: RPCError.self) {
          _ = try await dispatch.requestRide(Self.request(at: Self.duomo), metadata: bearer(ada))
        }
        #expect(notReady?.code == .failedPrecondition)
        #expect(notReady?.message.contains("a verified phone") == true && notReady?.message.contains("a payment method") == true)
        try await Self.makeReady(identity, ada, admin: admin)

        // A passenger is neither a driver nor the control room.
        let asDriver = await #expect(throws: RPCError.self) {
          _ = try await dispatch.setAvailability(.with { $0.available = true }, metadata: bearer(ada))
        }
        #expect(asDriver?.code == .permissionDenied)
        let monitor = await #expect(throws: RPCError.self) {
          try await dispatch.watchMonitor(.init(), metadata: bearer(ada)) { response in
            for try await _ in response.messages {}
          }
        }
        #expect(monitor?.code == .permissionDenied)

        try await withThrowingTaskGroup(of: Void.self) { group in
          // The control room, live: a picture now, a new one after each change.
          let monitor = StreamFeed<Binario_Dispatch_V1_MonitorSnapshot>(group: &group) { yield in
            try await dispatch.watchMonitor(.init(), metadata: bearer(admin)) { response in
              for try await message in response.messages { yield(message.snapshot) }
            }
          }
          let first = try await monitor.next { _ in true }
          #expect(first.zones.first { $0.zoneID == "C" }?.queue.map(\.code) == ["MI-A", "MI-B"])
          let jobsA = JobFeed(dispatch, a, group: &group)
          let jobsB = JobFeed(dispatch, b, group: &group)
          _ = try await jobsA.next { if case .taxi = $0 { true } else { false } }
          _ = try await jobsB.next { if case .taxi = $0 { true } else { false } }

          let ride = try await dispatch.requestRide(Self.request(at: Self.duomo, key: "first"), metadata: bearer(ada)).ride
          #expect(ride.state == .searching)
          let retried = try await dispatch.requestRide(Self.request(at: Self.duomo, key: "first"), metadata: bearer(ada)).ride
          #expect(retried.rideID == ride.rideID)
          let rideFeed = RideFeed(dispatch, ada, rideID: ride.rideID, group: &group)

          // The head of the queue is offered the job; rejecting sends it to the next taxi.
          guard case .offer(let offerA) = try await jobsA.next({ if case .offer = $0 { true } else { false } }) else { return }
          #expect(offerA.ride.rideID == ride.rideID)
          #expect(offerA.ride.passengerCode.isEmpty)
          let afterReject = try await dispatch.rejectOffer(.with { $0.offerID = offerA.offerID }, metadata: bearer(a)).taxi
          #expect(afterReject.queuePosition == 2)
          guard case .offer(let offerB) = try await jobsB.next({ if case .offer = $0 { true } else { false } }) else { return }
          #expect(offerB.ride.rideID == ride.rideID)
          let allocated = try await dispatch.acceptOffer(.with { $0.offerID = offerB.offerID }, metadata: bearer(b)).ride
          #expect(allocated.taxiCode == "MI-B" && allocated.state == .allocated)

          // The passenger watching sees the taxi, its estimate and their code.
          let seen = try await rideFeed.next { $0.state == .allocated }
          #expect(seen.taxiCode == "MI-B" && seen.passengerCode.count == 4 && seen.hasEstimatedPickupAt)
          let live = try await monitor.next { $0.zones.first { $0.zoneID == "C" }?.inProgress.isEmpty == false }
          #expect(live.zones.first { $0.zoneID == "C" }?.inProgress.map(\.rideID) == [ride.rideID])
          let control = try await dispatch.getMonitorSnapshot(.init(), metadata: bearer(admin)).snapshot.zones.first { $0.zoneID == "C" }
          #expect(control?.queue.map(\.code) == ["MI-A"])
          #expect(control?.inProgress.map(\.rideID) == [ride.rideID])

          // Cancelled at once: free, and the driver hears of it.
          let cancelled = try await dispatch.cancelRide(.with { $0.rideID = ride.rideID }, metadata: bearer(ada)).ride
          #expect(cancelled.state == .cancelled && cancelled.cancellationFee.amountMinor == 0)
          _ = try await jobsB.next { if case .ride(let ride) = $0 { ride.state == .cancelled } else { false } }
          let ended = try await rideFeed.next { $0.state == .cancelled }
          #expect(ended.cancellationFee.amountMinor == 0)

          // Unlinked from the taxi, driver B stops hearing of its jobs: the stream ends.
          _ = try await dispatch.updateTaxi(
            .with {
              $0.taxi = .with {
                $0.code = "MI-B"
                $0.driverUserID = ""
              }
            },
            metadata: bearer(admin)
          )
          await #expect(throws: RPCError.self) { _ = try await jobsB.next { _ in false } }
          group.cancelAll()
        }
        let history = try await dispatch.listMyRides(.init(), metadata: bearer(ada)).rides
        #expect(history.map(\.rideID).count == 1)
        try await Self.rulesForEveryone(suite, connection, admin: admin, ada: ada, driverA: a)
      }
    }
  }

  /// `kill -9` of dispatch while passengers request and drivers accept: every request it
  /// acknowledged is there after the restart, and no taxi holds two rides.
  @Test func killNineMidAllocation() async throws {
    try await RunningSuite.with(extraFlags: .init(dispatch: ["--offer-timeout", "2"])) { suite in
      try await suite.waitUntilTheGatewaySeesServing("dispatch")
      let acknowledged = try await suite.withGatewayConnection { connection in
        let identity = Identity(wrapping: connection)
        let dispatch = Dispatch(wrapping: connection)
        let admin = try await identity.signInAdmin()
        var drivers: [Tokens] = []
        for (index, place) in [Self.duomo, Self.brera, Self.isola].enumerated() {
          drivers.append(try await Self.driver(identity, dispatch, admin: admin, taxi: "MI-\(index)", at: place))
        }
        var passengers: [Tokens] = []
        for index in 0 ..< 6 {
          let passenger = try await identity.signUp(email: "p\(index)@example.com", admin: admin)
          try await Self.makeReady(identity, passenger, admin: admin)
          passengers.append(passenger)
        }
        // Requests and accepts at once; dispatch is killed while they run.
        let (answers, answered) = AsyncStream<Void>.makeStream()
        return try await withThrowingTaskGroup(of: [String].self) { group in
          for passenger in passengers {
            group.addTask {
              do {
                let ride = try await dispatch.requestRide(Self.request(at: Self.duomo), metadata: bearer(passenger)).ride.rideID
                answered.yield()
                return [ride]
              } catch {
                answered.yield()
                return []  // not acknowledged: dispatch died first
              }
            }
          }
          for driver in drivers {
            group.addTask {
              for _ in 0 ..< 20 {
                if let offer = try? await dispatch.getMyTaxi(.init(), metadata: bearer(driver)).offer, !offer.offerID.isEmpty {
                  _ = try? await dispatch.acceptOffer(.with { $0.offerID = offer.offerID }, metadata: bearer(driver))
                }
              }
              return []
            }
          }
          group.addTask {
            // Killed once two requests are answered: the others, and the accepts, are in flight.
            var iterator = answers.makeAsyncIterator()
            _ = await iterator.next()
            _ = await iterator.next()
            suite.killDispatch()
            return []
          }
          return try await group.reduce(into: []) { $0 += $1 }
        }
      }
      #expect(!acknowledged.isEmpty, "no request was acknowledged before the kill: nothing was tested")
      try await suite.startDispatch()
      try await suite.waitUntilTheGatewaySeesServing("dispatch")
      let path = suite.folder.appendingPathComponent("data/dispatch/dispatch.sqlite").path
      var configuration = Configuration()
      configuration.readonly = true
      let database = try DatabaseQueue(path: path, configuration: configuration)
      try await database.read { db in
        let stored = Set(try String.fetchAll(db, sql: "SELECT id FROM ride"))
        #expect(Set(acknowledged).isSubset(of: stored), "acknowledged \(acknowledged), stored \(stored)")
        let doubled = try String.fetchAll(
          db,
          sql: "SELECT taxi_code FROM ride WHERE state IN ('allocated', 'arrived', 'in_progress') GROUP BY taxi_code HAVING COUNT(*) > 1"
        )
        #expect(doubled.isEmpty)
        let accepted = try String.fetchAll(db, sql: "SELECT ride_seq FROM offer WHERE state = 'accepted' GROUP BY ride_seq HAVING COUNT(*) > 1")
        #expect(accepted.isEmpty)
      }
    }
  }

  // MARK: - Helpers

  static func request(at place: (latitude: Double, longitude: Double), key: String = UUID().uuidString) -> Binario_Dispatch_V1_RequestRideRequest {
    .with {
      $0.pickup = .with {
        $0.position = .with {
          $0.latitude = place.latitude
          $0.longitude = place.longitude
        }
      }
      $0.idempotencyKey = key
    }
  }

  /// A driver account (identity's CreateDriver) linked to a new taxi, signed in, at `place` and
  /// available.
  static func driver(
    _ identity: Identity,
    _ dispatch: Dispatch,
    admin: Tokens,
    taxi code: String,
    at place: (latitude: Double, longitude: Double)
  ) async throws -> Tokens {
    let email = "\(code.lowercased())@drivers.test"
    let profile = try await identity.createDriver(
      .with {
        $0.email = email
        $0.password = "a-driver-password-1"
        $0.firstName = "Driver"
        $0.lastName = code
      },
      metadata: bearer(admin)
    ).profile
    _ = try await dispatch.createTaxi(
      .with {
        $0.taxi = .with {
          $0.code = code
          $0.plate = "P\(code)"
          $0.driverUserID = profile.userID
        }
      },
      metadata: bearer(admin)
    )
    let tokens = try await identity.login(
      .with {
        $0.email = email
        $0.password = "a-driver-password-1"
      }
    ).tokens
    _ = try await dispatch.reportPosition(
      .with {
        $0.position = .with {
          $0.latitude = place.latitude
          $0.longitude = place.longitude
        }
      },
      metadata: bearer(tokens)
    )
    _ = try await dispatch.setAvailability(.with { $0.available = true }, metadata: bearer(tokens))
    return tokens
  }

  /// Verifies the passenger's phone (the code from the outbox) and adds a card.
  static func makeReady(_ identity: Identity, _ passenger: Tokens, admin: Tokens) async throws {
    let code = try await identity.phoneCode(for: "+393331234567", admin: admin)
    _ = try await identity.verifyPhone(.with { $0.code = code }, metadata: bearer(passenger))
    try await identity.addCard(to: passenger)
  }
}

/// A server stream read in the background: each element in order, for the test to wait on.
final class StreamFeed<Element: Sendable>: @unchecked Sendable {
  // Only the test's own task calls `next`, one call at a time: `iterator` is never shared.
  private var iterator: AsyncThrowingStream<Element, any Error>.Iterator

  /// Reads what `open` yields (calling its `yield` for each element) in a task of `group`.
  init(
    group: inout ThrowingTaskGroup<Void, any Error>,
    _ open: @escaping @Sendable (@escaping @Sendable (Element) -> Void) async throws -> Void
  ) {
    let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
    iterator = stream.makeAsyncIterator()
    group.addTask {
      do {
        try await open { continuation.yield($0) }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
  }

  /// The next element that satisfies `matching` (earlier ones are skipped); throws when the
  /// stream ends first.
  func next(_ matching: (Element) -> Bool) async throws -> Element {
    while let element = try await iterator.next() {
      if matching(element) { return element }
    }
    throw RPCError(code: .unavailable, message: "the stream ended")
  }
}

/// A driver's `WatchJobs` events.
func JobFeed(
  _ dispatch: DispatchTests.Dispatch,
  _ driver: DispatchTests.Tokens,
  group: inout ThrowingTaskGroup<Void, any Error>
) -> StreamFeed<Binario_Dispatch_V1_WatchJobsResponse.OneOf_Event> {
  StreamFeed(group: &group) { yield in
    try await dispatch.watchJobs(.init(), metadata: bearer(driver)) { response in
      for try await message in response.messages {
        if let event = message.event { yield(event) }
      }
    }
  }
}

/// A passenger's `WatchRide` changes.
func RideFeed(
  _ dispatch: DispatchTests.Dispatch,
  _ passenger: DispatchTests.Tokens,
  rideID: String,
  group: inout ThrowingTaskGroup<Void, any Error>
) -> StreamFeed<Binario_Dispatch_V1_Ride> {
  StreamFeed(group: &group) { yield in
    try await dispatch.watchRide(.with { $0.rideID = rideID }, metadata: bearer(passenger)) { response in
      for try await message in response.messages { yield(message.ride) }
    }
  }
}
