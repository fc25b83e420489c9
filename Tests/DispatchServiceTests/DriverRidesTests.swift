import BinarioDomain
import Foundation
import Testing

@testable import DispatchService

/// The ride from the driver's side: the fare from the pickup, no-show, give-up.
@Suite("Drivers' rides")
struct DriverRidesTests {
  /// A ride of `pat` at the Duomo accepted by taxi A (which waits at Brera): the ride, allocated.
  static func accepted(_ test: TestDispatch, destination: GeoPoint? = nil) async throws -> Ride {
    try await test.taxi("A", at: TestDispatch.brera)
    test.passenger("pat")
    let ride = try await test.domain.requestRide(
      passengerUserID: "pat",
      pickup: .position(TestDispatch.duomo),
      destination: destination.map { .position($0) },
      passengers: 1,
      idempotencyKey: "k"
    )[0]
    let offer = try #require(try await test.offer(of: "A"))
    return try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
  }

  @Test("the fare counts from the pickup: a stale position before the start is never billed, and the receipt says what was charged")
  func fareFromPickup() async throws {
    let test = try TestDispatch()
    let ride = try await Self.accepted(test, destination: TestDispatch.centrale)
    // The taxi's last report is at Brera, 860 m from the pickup; it stops reporting on its way.
    test.clock.advance(by: 120)
    _ = try await test.domain.reportArrived(driverUserID: "driver-A", rideID: ride.id)
    _ = try await test.domain.startRide(driverUserID: "driver-A", rideID: ride.id, passengerCode: ride.passengerCode)
    try await test.move("A", to: TestDispatch.centrale, after: 400)
    let done = try await test.domain.completeRide(driverUserID: "driver-A", rideID: ride.id)
    let driven = TestDispatch.duomo.distance(to: TestDispatch.centrale)
    #expect(abs(done.distanceMetres - driven) < 1)
    #expect(done.fareMinor == test.domain.settings.tariff.fare(metres: driven))
    try await test.domain.sendOutbox(through: test.notifier)
    let receipt = try #require(test.notifier.messages(to: "pat").last)
    #expect(receipt.title == "Receipt: \(Money(amountMinor: done.fareMinor!, currency: "EUR"))")
    #expect(receipt.body.english.contains(String(format: "%.1f km", driven / 1000)) && receipt.body.english.contains("ending 4242"))
    #expect(receipt.data["event"] == "receipt")
  }

  @Test("no-show: only after the wait at the pickup; the fee is taken, the taxi gets its place back, the passenger is told")
  func noShow() async throws {
    var settings = DispatchSettings()
    settings.noShowWait = 5 * 60
    let test = try TestDispatch(settings: settings)
    let ride = try await Self.accepted(test)
    try await test.taxi("B", at: TestDispatch.brera)
    await #expect(throws: ServiceError.failedPrecondition("report that you are at the pickup first")) {
      try await test.domain.reportNoShow(driverUserID: "driver-A", rideID: ride.id, reservationID: "")
    }
    test.clock.advance(by: 60)
    let arrived = try await test.domain.reportArrived(driverUserID: "driver-A", rideID: ride.id)
    #expect(test.domain.shown(arrived).noShowFrom == test.clock.now().addingTimeInterval(300))
    test.clock.advance(by: 299)
    await #expect(throws: ServiceError.self) {
      try await test.domain.reportNoShow(driverUserID: "driver-A", rideID: ride.id, reservationID: "")
    }
    test.clock.advance(by: 1)
    let absent = try await test.domain.reportNoShow(driverUserID: "driver-A", rideID: ride.id, reservationID: "")
    #expect(absent.state == .cancelled && absent.endReason == .noShow && absent.cancellationFeeMinor == 500)
    // A had been first in the queue: it is first again.
    #expect(try await test.queue("C") == ["A", "B"])
    #expect(try await test.store.payments().filter { $0.kind == "charge" }.map(\.receipt.amountMinor) == [500])
    try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: "pat").suffix(2).map(\.title) == ["You were marked absent", "Cancellation fee: 5.00 EUR"])
    // The driver did it: no "cancelled" push for them.
    #expect(!test.notifier.messages(to: "driver-A").map(\.title).contains("Ride cancelled"))
  }

  @Test("give-up: with a reason, the job goes to the next taxi at once, the passenger and the admins are told, nothing is charged")
  func giveUp() async throws {
    let test = try TestDispatch()
    let ride = try await Self.accepted(test)
    try await test.taxi("B", at: TestDispatch.centrale)
    await #expect(throws: ServiceError.invalid("reason", "a reason is required")) {
      try await test.domain.giveUpRide(driverUserID: "driver-A", rideID: ride.id, reason: " ")
    }
    test.clock.advance(by: 60)
    let again = try await test.domain.giveUpRide(driverUserID: "driver-A", rideID: ride.id, reason: "flat tyre")
    #expect(again.state == .searching && again.taxiCode == nil)
    // Offered at once to B, not to A again this round; A waits at the tail.
    #expect(try await test.offer(of: "B")?.ride.id == ride.id)
    #expect(try await test.offer(of: "A") == nil)
    #expect(try await test.queue("C") == ["B", "A"])
    let offer = try #require(try await test.offer(of: "B"))
    let taken = try await test.domain.accept(driverUserID: "driver-B", offerID: offer.offer.id)
    #expect(taken.taxiCode == "B" && taken.passengerCode == ride.passengerCode)
    try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: "pat").map(\.title) == ["Taxi A is on its way", "Finding you another taxi", "Taxi B is on its way"])
    #expect(test.notifier.messages(to: "admin").last?.body.english.contains("flat tyre") == true)
    // Cancelling now is the fee rule of B's acceptance, not A's.
    #expect(test.domain.cancellationFee(taken, now: test.clock.now()) == 500)
  }
}
