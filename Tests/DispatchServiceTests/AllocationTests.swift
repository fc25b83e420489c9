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
    // Both taxis in reach were asked: the search pauses, to go round again.
    let waiting = try await test.ride(ride.id)
    #expect(waiting.state == .searching && waiting.searchRound == 2)
    #expect(waiting.nextRoundAt == test.clock.now().addingTimeInterval(test.domain.settings.searchRoundPause))
  }

  @Test("a request every taxi in reach declines goes round again, a ring wider, the passenger told, until the search limit")
  func searchRounds() async throws {
    var settings = DispatchSettings()
    settings.searchLimit = 120
    settings.searchRoundPause = 30
    let test = try TestDispatch(settings: settings)
    try await test.taxi("X", at: TestDispatch.isola)  // N
    try await test.taxi("Y", at: TestDispatch.abbiategrasso)  // S: two rings from N
    test.passenger("pat")
    let start = test.clock.now()
    let ride = try await test.request("pat", at: TestDispatch.isola)
    #expect(ride.searchingUntil == start.addingTimeInterval(120))
    // Round 1 reaches N and its neighbours: X only.
    let first = try #require(try await test.offer(of: "X"))
    _ = try await test.domain.reject(driverUserID: "driver-X", offerID: first.offer.id)
    #expect(try await test.offer(of: "Y") == nil)
    var paused = try await test.ride(ride.id)
    #expect(paused.state == .searching && paused.searchRound == 2 && paused.nextRoundAt == start.addingTimeInterval(30))
    // Nothing happens before the pause ends, even when a pass runs.
    #expect(try await test.domain.expireOffersPass() == .seconds(30))
    #expect(try await test.offer(of: "X") == nil)
    // Round 2, one ring wider: X again (head of the nearest zone), then Y in S.
    test.clock.set(start.addingTimeInterval(30))
    _ = try await test.domain.expireOffersPass()
    let again = try #require(try await test.offer(of: "X"))
    _ = try await test.domain.reject(driverUserID: "driver-X", offerID: again.offer.id)
    let wider = try #require(try await test.offer(of: "Y"))
    #expect(wider.ride.id == ride.id)
    _ = try await test.domain.reject(driverUserID: "driver-Y", offerID: wider.offer.id)
    paused = try await test.ride(ride.id)
    #expect(paused.searchRound == 3)
    // Past the limit, the last round's refusals end it: no taxi, nothing charged, told once.
    test.clock.set(start.addingTimeInterval(121))
    _ = try await test.domain.expireOffersPass()
    let last = try #require(try await test.offer(of: "X"))
    _ = try await test.domain.reject(driverUserID: "driver-X", offerID: last.offer.id)
    let lastY = try #require(try await test.offer(of: "Y"))
    _ = try await test.domain.reject(driverUserID: "driver-Y", offerID: lastY.offer.id)
    let ended = try await test.ride(ride.id)
    #expect(ended.state == .noTaxi && ended.endReason == .noTaxi)
    try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: "pat").map(\.title) == ["Still looking for a taxi", "No taxi found"])
    #expect(test.notifier.messages(to: "admin").map { $0.data["alert"] } == ["no_taxi"])
    #expect(try await test.store.payments().filter { $0.kind == "charge" }.isEmpty)
  }

  @Test("a passenger may cancel a search between rounds, free")
  func cancelBetweenRounds() async throws {
    let test = try TestDispatch()
    try await test.taxi("X", at: TestDispatch.isola)
    test.passenger("pat")
    let ride = try await test.request("pat", at: TestDispatch.isola)
    let offer = try #require(try await test.offer(of: "X"))
    _ = try await test.domain.reject(driverUserID: "driver-X", offerID: offer.offer.id)
    test.clock.advance(by: 10)
    let cancelled = try await test.domain.cancelRide(id: ride.id, passengerUserID: "pat")
    #expect(cancelled.state == .cancelled && cancelled.cancellationFeeMinor == 0 && cancelled.endReason == .passenger)
    test.clock.advance(by: 60)
    _ = try await test.domain.expireOffersPass()
    #expect(try await test.offer(of: "X") == nil)
  }

  @Test("a taxi that lets three offers in a row time out is made unavailable and the admins are alerted")
  func missedOffers() async throws {
    // No second round: a request nobody took ends at once.
    var settings = DispatchSettings()
    settings.searchLimit = 0
    let test = try TestDispatch(settings: settings)
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
