import BinarioDomain
import BinarioEvents
import BinarioTestSupport
import Foundation
import Testing

@testable import DispatchService

@Suite("Identity's events in dispatch")
struct AccountLifecycleTests {
  static let pat = "usr-pat-3c9e"

  /// Pat rode once (taxi A, completed), saved a place, booked a taxi for later, and waits for taxi
  /// A again now; taxi B waits in the centre's queue too.
  static func setUp() async throws -> (TestDispatch, history: Ride, waiting: Ride, reservation: Reservation) {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    test.passenger(pat)
    let first = try await test.request(pat, at: TestDispatch.duomo)
    let offer = try #require(try await test.offer(of: "A"))
    _ = try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    _ = try await test.domain.reportArrived(driverUserID: "driver-A", rideID: first.id)
    _ = try await test.domain.startRide(driverUserID: "driver-A", rideID: first.id, passengerCode: try await test.ride(first.id).passengerCode)
    _ = try await test.domain.reportPosition(driverUserID: "driver-A", position: TestDispatch.brera, reportedAt: nil)
    let history = try await test.domain.completeRide(driverUserID: "driver-A", rideID: first.id)
    _ = try await test.domain.savePlace(userID: pat, name: "Home", position: TestDispatch.isola)
    let reservation = try await test.domain.createReservation(
      passengerUserID: pat,
      pickup: .position(TestDispatch.isola),
      destination: .position(TestDispatch.bicocca),
      meetingAt: test.clock.now().addingTimeInterval(3 * 3600),
      passengers: 1,
      shared: false,
      idempotencyKey: "r1"
    )
    try await test.taxi("B", at: TestDispatch.centrale)
    _ = try await test.domain.reportPosition(driverUserID: "driver-A", position: TestDispatch.duomo, reportedAt: nil)
    let waiting = try await test.request(pat, at: TestDispatch.duomo, key: "again")
    return (test, history, waiting, reservation)
  }

  @Test("a passenger's profile from identity's events: used without asking identity when ready, identity asked when not, erased with the account")
  func passengerProfile() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    try await test.taxi("B", at: TestDispatch.duomo)
    // Identity would refuse Pat (no card); the events say Pat added one since.
    test.accounts.add(Self.pat, name: "Pat Before", card: false)
    let card = CardOnFile(paymentMethodID: "pm-new", providerToken: "tok_visa_new", last4: "1881")
    let profile = PassengerProfile(userID: Self.pat, displayName: "Pat Rossi", verifiedPhone: "+393331234567", card: card)
    let position = EventPosition(producer: "identity", sequence: 3)
    try await test.domain.accountProfileChanged(profile, position: position)
    await #expect(throws: EventAlreadyApplied.self) { try await test.domain.accountProfileChanged(profile, position: position) }
    let ride = try await test.request(Self.pat, at: TestDispatch.duomo)
    #expect(ride.passengerName == "Pat Rossi" && ride.cardToken == "tok_visa_new" && ride.cardLast4 == "1881")
    #expect(test.accounts.cardLookups.withLock { $0 } == 0)

    // Sam's events have not said the phone is verified yet; identity has (it was just now).
    test.accounts.add("usr-sam", name: "Sam Identity")
    let unverified = PassengerProfile(userID: "usr-sam", displayName: "Sam Events", verifiedPhone: "", card: card)
    try await test.domain.accountProfileChanged(unverified, position: EventPosition(producer: "identity", sequence: 4))
    let sams = try await test.request("usr-sam", at: TestDispatch.duomo)
    #expect(sams.passengerName == "Sam Identity" && sams.cardToken == "tok_visa_usr-sam")
    #expect(test.accounts.cardLookups.withLock { $0 } == 1)

    _ = try await test.domain.accountDeleted(userID: Self.pat, position: EventPosition(producer: "identity", sequence: 5))
    #expect(try await test.store.read { tx in try tx.passengerProfile(userID: Self.pat) } == nil)
    #expect(try await test.store.read { tx in try tx.passengerProfile(userID: "usr-sam") }?.displayName == "Sam Events")
  }

  @Test("a deleted passenger: bookings cancelled without a fee, history kept without them, places and messages erased, once")
  func passengerDeleted() async throws {
    let (test, history, waiting, reservation) = try await Self.setUp()
    let position = EventPosition(producer: "identity", sequence: 12)
    let erased = try await test.domain.accountDeleted(userID: Self.pat, position: position)
    #expect(erased == DispatchErasure(rides: 2, reservations: 1, drove: false))
    let cancelled = try await test.ride(waiting.id)
    #expect(cancelled.state == .cancelled && cancelled.cancellationFeeMinor == 0)
    #expect(try await test.store.read { tx in try tx.reservation(id: reservation.id) }?.state == .cancelled)
    let kept = try await test.ride(history.id)
    #expect(kept.state == .completed && kept.fareMinor == history.fareMinor && kept.pickup.zoneID == history.pickup.zoneID)
    let leftovers = try DatabaseLeftovers.occurrences(
      of: [Self.pat, "tok_visa_\(Self.pat)", "Passenger \(Self.pat)"],
      in: URL(fileURLWithPath: test.database.path)
    )
    #expect(leftovers.isEmpty, "\(leftovers)")
    // Nothing was charged for the cancellation; the taxi offered the job is free again.
    #expect(try await test.store.payments().filter { $0.kind == "charge" }.map(\.receipt.amountMinor) == [history.fareMinor])
    #expect(try await test.offer(of: "A") == nil)
    #expect(try await test.offer(of: "B") == nil)
    #expect(try await test.domain.savedPlaces(userID: Self.pat).isEmpty)
    _ = try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: Self.pat).isEmpty)

    await #expect(throws: EventAlreadyApplied.self) { _ = try await test.domain.accountDeleted(userID: Self.pat, position: position) }
  }

  @Test("a deleted driver: the taxi leaves its queue without a driver, its waiting passenger gets the next taxi")
  func driverDeletedBeforePickup() async throws {
    let (test, _, waiting, _) = try await Self.setUp()
    let offer = try #require(try await test.offer(of: "A"))
    _ = try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    #expect(try await test.queue("C") == ["B"])

    let erased = try await test.domain.accountDeleted(userID: "driver-A", position: EventPosition(producer: "identity", sequence: 4))
    #expect(erased.drove)
    let taxi = try #require(try await test.domain.taxis().first { $0.taxi.code == "A" }?.taxi)
    #expect(taxi.driverUserID == nil && !taxi.available && !taxi.isQueued)
    let ride = try await test.ride(waiting.id)
    #expect(ride.state == .searching && ride.taxiCode == nil)
    #expect(try await test.offer(of: "B")?.ride.id == waiting.id)
    _ = try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: Self.pat).map(\.title).contains("Finding you another taxi"))
  }

  @Test("a deleted driver during a ride: it ends with the fare for the distance driven")
  func driverDeletedDuringRide() async throws {
    let (test, _, waiting, _) = try await Self.setUp()
    let offer = try #require(try await test.offer(of: "A"))
    _ = try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    _ = try await test.domain.reportArrived(driverUserID: "driver-A", rideID: waiting.id)
    let code = try await test.ride(waiting.id).passengerCode
    _ = try await test.domain.startRide(driverUserID: "driver-A", rideID: waiting.id, passengerCode: code)
    _ = try await test.domain.reportPosition(driverUserID: "driver-A", position: TestDispatch.centrale, reportedAt: nil)

    _ = try await test.domain.accountDeleted(userID: "driver-A", position: EventPosition(producer: "identity", sequence: 4))
    let ended = try await test.ride(waiting.id)
    #expect(ended.state == .completed && ended.settled)
    #expect((ended.fareMinor ?? 0) > 0 && ended.fareMinor == test.domain.settings.tariff.fare(metres: ended.distanceMetres))
    _ = try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: Self.pat).map(\.title).contains("Your ride has ended"))
  }

  @Test("a disabled account: waiting request and reservation cancelled without a fee, its taxi out of the queue, still its own")
  func disabled() async throws {
    let (test, _, waiting, reservation) = try await Self.setUp()
    try await test.domain.accountDisabled(userID: Self.pat, position: EventPosition(producer: "identity", sequence: 2))
    let cancelled = try await test.ride(waiting.id)
    #expect(cancelled.state == .cancelled && cancelled.cancellationFeeMinor == 0)
    #expect(try await test.store.read { tx in try tx.reservation(id: reservation.id) }?.state == .cancelled)
    _ = try await test.domain.sendOutbox(through: test.notifier)
    let told = test.notifier.messages(to: Self.pat).map(\.title)
    #expect(told.contains("Ride cancelled") && told.contains("Reservation cancelled"))

    try await test.domain.accountDisabled(userID: "driver-B", position: EventPosition(producer: "identity", sequence: 3))
    let taxi = try #require(try await test.domain.taxis().first { $0.taxi.code == "B" }?.taxi)
    #expect(taxi.driverUserID == "driver-B" && !taxi.available && !taxi.isQueued)
    #expect(try await test.queue("C") == ["A"])
  }
}
