import BinarioDomain
import Foundation
import Testing

@testable import DispatchService

/// Shared rides fair to every rider, parties of several taxis, and the estimate before a request.
@Suite("Shared rides and parties")
struct SharedRidesTests {
  static let hour: TimeInterval = 3600

  @Test("three riders: each their own code, notifications and history; one cancelling leaves the others riding, re-split and told")
  func threeRiders() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    for passenger in ["ann", "ben", "cat"] { test.passenger(passenger) }
    let toNE = GeoPoint(latitude: 45.5200, longitude: 9.2200)
    let ann = try await test.reserve("ann", from: TestDispatch.duomo, to: TestDispatch.bicocca, in: 3 * Self.hour, shared: true)
    let ben = try await test.reserve("ben", from: TestDispatch.brera, to: toNE, in: 3 * Self.hour + 5 * 60, shared: true)
    let cat = try await test.reserve("cat", from: TestDispatch.centrale, to: TestDispatch.bicocca, in: 3 * Self.hour + 10 * 60, shared: true)
    #expect(Set([ann.groupID, ben.groupID, cat.groupID]).count == 1)
    #expect(Set([ann.passengerCode, ben.passengerCode, cat.passengerCode]).count == 3 || ann.passengerCode.count == 4)
    // Nobody pays more than alone.
    for member in try await ["ann", "ben", "cat"].asyncFlatMap({ try await test.domain.reservations(passengerUserID: $0) }) {
      #expect(member.fareMinor <= member.soloFareMinor!)
    }
    test.clock.set(ann.meetingAt.addingTimeInterval(-10 * 60))
    #expect(try await test.domain.dispatchDueReservations() == 1)
    let offer = try #require(try await test.offer(of: "A"))
    #expect(offer.ride.passengers == 3)
    let ride = try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    try await test.domain.sendOutbox(through: test.notifier)
    for (who, reservation) in [("ann", ann), ("ben", ben), ("cat", cat)] {
      let told = try #require(test.notifier.messages(to: who).last)
      #expect(told.title == "Taxi A is on its way")
      #expect(told.body.english.contains(reservation.passengerCode))
      let seen = try await test.domain.ride(id: ride.id, passengerUserID: who)
      #expect(seen.passengerCode == reservation.passengerCode && seen.reservationID == reservation.id)
    }

    // Ben cancels: once the taxi is on its way, he pays the fee; Ann and Cat ride on, re-split
    // and told; the driver's route drops him.
    test.clock.advance(by: 60)
    let left = try await test.domain.cancelRide(id: ride.id, passengerUserID: "ben")
    #expect(left.state == .cancelled && left.cancellationFeeMinor == 500 && left.endReason == .passenger)
    let still = try await test.ride(ride.id)
    #expect(still.state == .allocated && still.passengers == 2)
    let route = try await test.domain.driverView(still).route
    #expect(!route.contains { $0.reservationID == ben.id } && route.count == 4)
    try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: "ann").last?.data["event"] == "share")
    #expect(test.notifier.messages(to: "cat").last?.data["event"] == "share")
    #expect(test.notifier.messages(to: "ben").last?.title == "Cancellation fee: 5.00 EUR")
    await #expect(throws: ServiceError.failedPrecondition("you left the shared ride \(ride.id) already")) {
      try await test.domain.cancelRide(id: ride.id, passengerUserID: "ben")
    }

    // Ann boards; Cat is absent after the wait; Ann is taken to her destination and pays her share.
    _ = try await test.domain.reportArrived(driverUserID: "driver-A", rideID: ride.id)
    _ = try await test.domain.startRide(driverUserID: "driver-A", rideID: ride.id, passengerCode: ann.passengerCode)
    await #expect(throws: ServiceError.permissionDenied("that is not this ride's passenger code; ask the passenger for theirs")) {
      try await test.domain.startRide(driverUserID: "driver-A", rideID: ride.id, passengerCode: ben.passengerCode)
    }
    test.clock.advance(by: test.domain.settings.noShowWait)
    let afterNoShow = try await test.domain.reportNoShow(driverUserID: "driver-A", rideID: ride.id, reservationID: cat.id)
    #expect(afterNoShow.state == .inProgress)
    let done = try await test.domain.completeRide(driverUserID: "driver-A", rideID: ride.id)
    let annShare = try #require(try await test.domain.reservations(passengerUserID: "ann").first?.fareMinor)
    #expect(done.fareMinor == annShare)
    let annAlone = try #require(ann.soloFareMinor)
    #expect(annShare == annAlone)  // alone again, at her own fare

    // Histories: each rider has the ride, as they saw it.
    let annHistory = try await test.domain.rides(passengerUserID: "ann", pageSize: 0, pageToken: "").rides
    #expect(annHistory.map(\.id) == [ride.id] && annHistory[0].fareMinor == annShare && annHistory[0].state == .completed)
    let benHistory = try await test.domain.rides(passengerUserID: "ben", pageSize: 0, pageToken: "").rides
    #expect(benHistory.map(\.id) == [ride.id] && benHistory[0].state == .cancelled && benHistory[0].cancellationFeeMinor == 500)
    let catHistory = try await test.domain.rides(passengerUserID: "cat", pageSize: 0, pageToken: "").rides
    #expect(catHistory[0].state == .cancelled && catHistory[0].endReason == .noShow && catHistory[0].cancellationFeeMinor == 500)
    let charges = try await test.store.payments().filter { $0.kind == "charge" }.map(\.receipt.amountMinor).sorted()
    #expect(charges == [500, 500, annShare].sorted())
  }

  @Test("a group's capacity is the largest taxi's seats, not a constant")
  func capacityIsTheTaxis() async throws {
    let test = try TestDispatch()
    try await test.taxi("V", at: TestDispatch.duomo, capacity: 7)
    for passenger in ["ann", "ben"] { test.passenger(passenger) }
    let ann = try await test.reserve("ann", from: TestDispatch.duomo, to: TestDispatch.bicocca, in: 3 * Self.hour, passengers: 4, shared: true)
    let ben = try await test.reserve(
      "ben",
      from: TestDispatch.brera,
      to: TestDispatch.bicocca,
      in: 3 * Self.hour + 5 * 60,
      passengers: 3,
      shared: true
    )
    #expect(ann.groupID == ben.groupID)
    test.passenger("cat")
    let cat = try await test.reserve("cat", from: TestDispatch.brera, to: TestDispatch.bicocca, in: 3 * Self.hour + 5 * 60, shared: true)
    #expect(cat.groupID != ann.groupID)
    await #expect(throws: ServiceError.invalid("passengers", "a reserved taxi takes 1 to 7 passengers")) {
      try await test.reserve("cat", from: TestDispatch.brera, to: TestDispatch.bicocca, in: 4 * Self.hour, passengers: 8, shared: true)
    }
  }

  @Test("a party larger than a taxi gets several taxis, each its own ride and code; cancelling one leaves the others")
  func party() async throws {
    let test = try TestDispatch()
    for (code, at) in [("A", TestDispatch.duomo), ("B", TestDispatch.brera), ("C1", TestDispatch.centrale)] {
      try await test.taxi(code, at: at)
    }
    test.passenger("pat")
    let estimate = try await test.domain.estimateRide(
      passengerUserID: "pat",
      pickup: .position(TestDispatch.duomo),
      destination: .position(TestDispatch.centrale),
      passengers: 7
    )
    let single = test.domain.settings.tariff.estimate(from: TestDispatch.duomo, to: TestDispatch.centrale)
    #expect(estimate.taxis == 2 && estimate.fareMinor == 2 * single && estimate.freeNearby == 3)
    // The first taxi asked is at the pickup: the quickest pickup, a minute.
    #expect(estimate.pickupETA == test.clock.now().addingTimeInterval(60))
    let rides = try await test.party("pat", at: TestDispatch.duomo, key: "p", passengers: 7)
    #expect(rides.map(\.passengers) == [4, 3])
    #expect(Set(rides.map(\.partyID)).count == 1 && rides[0].partyID != nil)
    #expect(try await test.party("pat", at: TestDispatch.duomo, key: "p", passengers: 7).map(\.id) == rides.map(\.id))
    let first = try #require(try await test.offer(of: "A"))
    let second = try #require(try await test.offer(of: "B"))
    #expect(Set([first.ride.id, second.ride.id]) == Set(rides.map(\.id)))
    let a = try await test.domain.accept(driverUserID: "driver-A", offerID: first.offer.id)
    let b = try await test.domain.accept(driverUserID: "driver-B", offerID: second.offer.id)
    #expect(a.passengerCode.count == 4 && b.passengerCode.count == 4)
    _ = try await test.domain.cancelRide(id: rides[1].id, passengerUserID: "pat")
    #expect(try await test.ride(rides[0].id).state == .allocated)
    // A second request while the party rides is refused.
    await #expect(throws: ServiceError.self) { try await test.request("pat", at: TestDispatch.duomo, key: "other") }
    #expect(try await test.store.payments().filter { $0.kind == "hold" }.count == 2)
  }

  @Test("the estimate before a request: the price, the pickup time of the taxi asked first, none free nearby")
  func estimate() async throws {
    let test = try TestDispatch()
    test.passenger("pat")
    let none = try await test.domain.estimateRide(passengerUserID: "pat", pickup: .position(TestDispatch.duomo), destination: nil, passengers: 1)
    #expect(none.pickupETA == nil && none.freeNearby == 0 && none.fareMinor == nil && none.taxis == 1)
    try await test.taxi("A", at: TestDispatch.centrale)
    let some = try await test.domain.estimateRide(
      passengerUserID: "pat",
      pickup: .address("Piazza del Duomo 1"),
      destination: .position(TestDispatch.brera),
      passengers: 2
    )
    let metres = TestDispatch.centrale.distance(to: some.pickup.position)
    #expect(some.pickupETA == test.clock.now().addingTimeInterval(test.domain.driveTime(metres: metres)))
    #expect(some.fareMinor == test.domain.settings.tariff.estimate(from: some.pickup.position, to: TestDispatch.brera))
    await #expect(throws: ServiceError.invalid("pickup", "the pickup is outside the city's taxi zones")) {
      try await test.domain.estimateRide(
        passengerUserID: "pat",
        pickup: .position(GeoPoint(latitude: 45.6, longitude: 8.7)),
        destination: nil,
        passengers: 1
      )
    }
  }
}

extension Array {
  func asyncFlatMap<T>(_ transform: (Element) async throws -> [T]) async rethrows -> [T] {
    var result: [T] = []
    for element in self { result += try await transform(element) }
    return result
  }
}
