import BinarioDomain
import Foundation
import Testing

@testable import DispatchService

@Suite("Fair queues and allocation")
struct AllocationTests {
  @Test("a request goes to the head of its zone's queue; reject sends that taxi to the tail and the next one gets the offer")
  func rejectMovesToTail() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    try await test.taxi("B", at: TestDispatch.brera)
    try await test.taxi("C", at: TestDispatch.centrale)
    #expect(try await test.queue("C") == ["A", "B", "C"])
    test.passenger("pat")
    let ride = try await test.request("pat", at: TestDispatch.duomo)
    #expect(ride.state == .searching)
    let offer = try #require(try await test.offer(of: "A"))
    #expect(offer.ride.id == ride.id)
    #expect(try await test.offer(of: "B") == nil)

    let a = try await test.domain.reject(driverUserID: "driver-A", offerID: offer.offer.id)
    #expect(a.queuePosition == 3)
    #expect(try await test.queue("C") == ["B", "C", "A"])
    let next = try #require(try await test.offer(of: "B"))
    #expect(next.ride.id == ride.id)

    let allocated = try await test.domain.accept(driverUserID: "driver-B", offerID: next.offer.id)
    #expect(allocated.state == .allocated)
    #expect(allocated.taxiCode == "B")
    #expect(allocated.passengerCode.count == 4)
    #expect(try #require(allocated.estimatedPickupAt) > test.clock.now())
    #expect(try await test.queue("C") == ["C", "A"])
    // Answering again is refused, and names why.
    await #expect(throws: ServiceError.failedPrecondition("the offer \(offer.offer.id) was rejected already")) {
      try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    }
    // The passenger is told the taxi and the code.
    try await test.domain.sendOutbox(through: test.notifier)
    let told = test.notifier.messages(to: "pat")
    #expect(told.count == 1)
    #expect(told[0].body.english.contains("Taxi B (PLB)"))
    #expect(told[0].body.english.contains(allocated.passengerCode))
  }

  @Test("an unanswered offer times out (injected clock) to the next taxi, and its taxi goes to the tail")
  func offerTimeout() async throws {
    var settings = DispatchSettings()
    settings.offerTimeout = 20
    let test = try TestDispatch(settings: settings)
    try await test.taxi("A", at: TestDispatch.duomo)
    try await test.taxi("B", at: TestDispatch.brera)
    test.passenger("pat")
    let ride = try await test.request("pat", at: TestDispatch.duomo)
    #expect(try await test.offer(of: "A")?.ride.id == ride.id)
    test.clock.advance(by: 19)
    #expect(try await test.domain.expireDueOffers() == 0)
    #expect(try await test.domain.nextOfferExpiry() == test.clock.now().addingTimeInterval(1))
    test.clock.advance(by: 1)
    #expect(try await test.domain.expireDueOffers() == 1)
    #expect(try await test.offer(of: "A") == nil)
    #expect(try await test.offer(of: "B")?.ride.id == ride.id)
    #expect(try await test.queue("C") == ["B", "A"])
    // An accept that comes too late is refused, and the offer stays expired.
    let late = try #require(try await test.offer(of: "B"))
    test.clock.advance(by: 25)
    await #expect(throws: ServiceError.self) {
      try await test.domain.accept(driverUserID: "driver-B", offerID: late.offer.id)
    }
    #expect(try await test.ride(ride.id).state == .noTaxi)
  }

  @Test("a taxi that lets three offers in a row time out is made unavailable and the admins are alerted")
  func missedOffers() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    for (index, passenger) in ["p1", "p2", "p3"].enumerated() {
      test.passenger(passenger)
      let ride = try await test.request(passenger, at: TestDispatch.duomo)
      #expect(try await test.offer(of: "A")?.ride.id == ride.id)
      test.clock.advance(by: test.domain.settings.offerTimeout)
      #expect(try await test.domain.expireDueOffers() == 1)
      // A was the only taxi in reach and was asked: nobody is left.
      #expect(try await test.ride(ride.id).state == .noTaxi)
      let taxi = try await test.domain.myTaxi(driverUserID: "driver-A").taxi
      #expect(taxi.missedOffers == index + 1)
      #expect(taxi.available == (index < 2))
    }
    let taxi = try await test.domain.myTaxi(driverUserID: "driver-A").taxi
    #expect(taxi.unavailableReason == "did not answer 3 offers in a row")
    #expect(try await test.queue("C").isEmpty)
    try await test.domain.sendOutbox(through: test.notifier)
    let alerts = test.notifier.messages(to: "admin")
    #expect(alerts.filter { $0.data["alert"] == "no_taxi" }.count == 3)
    #expect(alerts.filter { $0.data["alert"] == "missed_offers" }.count == 1)
    #expect(test.notifier.messages(to: "p1").map(\.title) == ["No taxi found"])
    // Nothing was charged for a ride that found no taxi: the hold is released.
    let payments = try await test.store.payments()
    #expect(payments.filter { $0.kind == "charge" }.isEmpty)
    #expect(payments.filter { $0.kind == "release" }.count == 3)
  }

  @Test("a zone with no free taxi sends the request to its neighbours, nearest first; one that waits for a busy taxi gets it")
  func neighbours() async throws {
    let test = try TestDispatch()
    // Nobody in C; a taxi in W (San Siro), and one in N (Isola), which is nearer C's centre...
    try await test.taxi("W1", at: TestDispatch.sanSiro)
    try await test.taxi("N1", at: TestDispatch.isola)
    test.passenger("pat")
    let ride = try await test.request("pat", at: TestDispatch.duomo)
    let first = TestDispatch.zones.neighbours["C"]!.first { ["W", "N"].contains($0) }!
    let firstTaxi = first == "W" ? "W1" : "N1"
    let secondTaxi = first == "W" ? "N1" : "W1"
    #expect(try await test.offer(of: firstTaxi)?.ride.id == ride.id)
    _ = try await test.domain.reject(driverUserID: "driver-\(firstTaxi)", offerID: try await test.offer(of: firstTaxi)!.offer.id)
    #expect(try await test.offer(of: secondTaxi)?.ride.id == ride.id)

    // A second passenger while the only other taxi holds an offer: the request waits for it.
    test.passenger("sam")
    let waiting = try await test.request("sam", at: TestDispatch.duomo)
    #expect(waiting.state == .searching)
    let held = try #require(try await test.offer(of: secondTaxi))
    _ = try await test.domain.accept(driverUserID: "driver-\(secondTaxi)", offerID: held.offer.id)
    // The first taxi (which rejected pat's ride, not sam's) is free: sam's ride goes to it.
    #expect(try await test.offer(of: firstTaxi)?.ride.id == waiting.id)
  }
}
