import BinarioDomain
import Foundation
import Testing

@testable import DispatchService

@Suite("Passengers' rides")
struct RideTests {
  @Test("a passenger needs a verified phone and a card; the refusal names what is missing")
  func readiness() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    test.accounts.add("new", name: "New Comer", verifiedPhone: false, card: false)
    await #expect(
      throws: ServiceError.failedPrecondition(
        "before your first ride you need a verified phone (add one with UpdateMe and confirm it with VerifyPhone) and a payment method on file (add a card with AddPaymentMethod)"
      )
    ) {
      try await test.request("new", at: TestDispatch.duomo)
    }
    test.accounts.add("new", name: "New Comer", verifiedPhone: true, card: false)
    await #expect(
      throws: ServiceError.failedPrecondition("before your first ride you need a payment method on file (add a card with AddPaymentMethod)")
    ) {
      try await test.request("new", at: TestDispatch.duomo)
    }
    #expect(try await test.offer(of: "A") == nil)
    // Bad input names its field.
    test.passenger("pat")
    await #expect(
      throws: ServiceError.invalid("passengers", "a request takes 1 to 16 passengers; a party larger than a taxi gets several taxis")
    ) {
      try await test.request("pat", at: TestDispatch.duomo, passengers: 17)
    }
    await #expect(throws: ServiceError.invalid("pickup", "the pickup is outside the city's taxi zones")) {
      try await test.request("pat", at: GeoPoint(latitude: 45.6270, longitude: 8.7112))
    }
    await #expect(throws: ServiceError.self) {
      try await test.request("pat", at: GeoPoint(latitude: 95, longitude: 9))
    }
  }

  @Test("a retry with the same key is the same ride; a second open ride is refused")
  func idempotencyAndOverlap() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    test.passenger("pat")
    let first = try await test.request("pat", at: TestDispatch.duomo, key: "k1")
    let again = try await test.request("pat", at: TestDispatch.duomo, key: "k1")
    #expect(again.id == first.id)
    await #expect(throws: ServiceError.failedPrecondition("you already have ride \(first.id) open; cancel it or wait for it to end")) {
      try await test.request("pat", at: TestDispatch.brera, key: "k2")
    }
    // One hold only, for the first request.
    #expect(try await test.store.payments().filter { $0.kind == "hold" }.count == 1)
  }

  @Test("an address is looked up in the passenger's saved places, then the gazetteer; an unknown one asks for a position")
  func addresses() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    test.passenger("pat")
    _ = try await test.domain.savePlace(userID: "pat", name: "Home", position: TestDispatch.brera)
    let home = try await test.domain.requestRide(
      passengerUserID: "pat",
      pickup: .address("home"),
      destination: .address("piazza duca d'aosta 1, Milano"),
      passengers: 2,
      idempotencyKey: "a"
    )[0]
    #expect(home.pickup.position == TestDispatch.brera)
    #expect(home.pickup.zoneID == "C")
    #expect(home.destination?.position == TestDispatch.centrale)
    #expect(try #require(home.estimatedFareMinor) > test.domain.settings.tariff.baseFareMinor)
    _ = try await test.domain.cancelRide(id: home.id, passengerUserID: "pat")
    await #expect(
      throws: ServiceError.notFound("pickup: the address \"Via Inesistente 99\" is not known; give a position (latitude and longitude) instead")
    ) {
      try await test.domain.requestRide(
        passengerUserID: "pat",
        pickup: .address("Via Inesistente 99"),
        destination: nil,
        passengers: 1,
        idempotencyKey: "b"
      )
    }
    let recent = try await test.domain.recentAddresses(passengerUserID: "pat")
    #expect(recent.map(\.address) == ["piazza duca d'aosta 1, Milano", "home"])
  }

  @Test("cancel at 29 s is free, at 31 s the fee is charged; the driver is told and the taxi gets its place back")
  func cancellation() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    try await test.taxi("B", at: TestDispatch.brera)
    test.passenger("pat")
    let free = try await test.request("pat", at: TestDispatch.duomo, key: "free")
    let offer = try #require(try await test.offer(of: "A"))
    _ = try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    #expect(try await test.queue("C") == ["B"])
    test.clock.advance(by: 29)
    let cancelled = try await test.domain.cancelRide(id: free.id, passengerUserID: "pat")
    #expect(cancelled.state == .cancelled)
    #expect(cancelled.cancellationFeeMinor == 0)
    #expect(cancelled.settled)
    #expect(try await test.queue("C") == ["A", "B"])

    // Past the free period while no driver has accepted yet: still free.
    let unaccepted = try await test.request("pat", at: TestDispatch.duomo, key: "unaccepted")
    #expect(try await test.offer(of: "A")?.ride.id == unaccepted.id)
    test.clock.advance(by: 31)
    #expect(try await test.domain.cancelRide(id: unaccepted.id, passengerUserID: "pat").cancellationFeeMinor == 0)

    let charged = try await test.request("pat", at: TestDispatch.duomo, key: "charged")
    let accepted = try #require(try await test.offer(of: "A"))
    #expect(accepted.ride.id == charged.id)
    _ = try await test.domain.accept(driverUserID: "driver-A", offerID: accepted.offer.id)
    test.clock.advance(by: 31)
    let late = try await test.domain.cancelRide(id: charged.id, passengerUserID: "pat")
    #expect(late.cancellationFeeMinor == 500)
    #expect(try await test.offer(of: "A") == nil)
    // Cancelling twice is refused.
    await #expect(throws: ServiceError.failedPrecondition("the ride \(charged.id) has ended already")) {
      try await test.domain.cancelRide(id: charged.id, passengerUserID: "pat")
    }
    let payments = try await test.store.payments()
    #expect(payments.filter { $0.kind == "charge" }.map(\.receipt.amountMinor) == [500])
    #expect(payments.filter { $0.kind == "release" }.count == 3)
    try await test.domain.sendOutbox(through: test.notifier)
    // The driver was told of each offer (a push, for a closed page) and of the cancellations of
    // the jobs they had accepted.
    #expect(
      test.notifier.messages(to: "driver-A").map(\.title) == [
        "New job for taxi A", "Ride cancelled", "New job for taxi A", "New job for taxi A", "Ride cancelled",
      ]
    )
    // The passenger has the fee's receipt.
    #expect(test.notifier.messages(to: "pat").last?.title == "Cancellation fee: 5.00 EUR")
    #expect(test.notifier.sent.withLock { $0.first { $0.userIDs == ["driver-A"] }?.pushOnly } == true)
  }

  @Test("a ride from pickup to destination: arrived, started with the passenger's code, the fare for the distance driven")
  func completeRide() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.brera)
    try await test.taxi("B", at: TestDispatch.centrale)
    test.passenger("pat")
    let ride = try await test.request("pat", at: TestDispatch.duomo)
    let offer = try #require(try await test.offer(of: "A"))
    let allocated = try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    _ = try await test.domain.reportPosition(driverUserID: "driver-A", position: TestDispatch.duomo, reportedAt: nil)
    _ = try await test.domain.reportArrived(driverUserID: "driver-A", rideID: ride.id)
    await #expect(throws: ServiceError.permissionDenied("that is not this ride's passenger code; ask the passenger for theirs")) {
      try await test.domain.startRide(driverUserID: "driver-A", rideID: ride.id, passengerCode: "no")
    }
    await #expect(throws: ServiceError.notFound("no ride \(ride.id) of your taxi")) {
      try await test.domain.startRide(driverUserID: "driver-B", rideID: ride.id, passengerCode: allocated.passengerCode)
    }
    _ = try await test.domain.startRide(driverUserID: "driver-A", rideID: ride.id, passengerCode: allocated.passengerCode)
    await #expect(throws: ServiceError.self) {
      try await test.domain.setAvailability(driverUserID: "driver-A", available: false, reason: "lunch")
    }
    // Duomo → Brera → Centrale (into another zone? no: all three are in C).
    test.clock.advance(by: 60)
    _ = try await test.domain.reportPosition(driverUserID: "driver-A", position: TestDispatch.brera, reportedAt: nil)
    test.clock.advance(by: 60)
    _ = try await test.domain.reportPosition(driverUserID: "driver-A", position: TestDispatch.centrale, reportedAt: nil)
    // A stale report (older than the last) counts nothing.
    _ = try await test.domain.reportPosition(
      driverUserID: "driver-A",
      position: TestDispatch.sanSiro,
      reportedAt: test.clock.now().addingTimeInterval(-30)
    )
    let done = try await test.domain.completeRide(driverUserID: "driver-A", rideID: ride.id)
    let driven = TestDispatch.duomo.distance(to: TestDispatch.brera) + TestDispatch.brera.distance(to: TestDispatch.centrale)
    #expect(abs(done.distanceMetres - driven) < 1)
    #expect(done.fareMinor == test.domain.settings.tariff.fare(metres: driven))
    #expect(done.state == .completed)
    #expect(done.settled)
    // The taxi joins the tail of its zone.
    #expect(try await test.queue("C") == ["B", "A"])
    let payments = try await test.store.payments()
    #expect(payments.filter { $0.kind == "charge" }.map(\.receipt.amountMinor) == [done.fareMinor!])
    let history = try await test.domain.rides(passengerUserID: "pat", pageSize: 0, pageToken: "")
    #expect(history.rides.map(\.id) == [ride.id])
    #expect(history.rides[0].cardLast4 == "4242")
  }

  @Test("late is detected: past the estimate and the grace, or as the driver says; a silent taxi alerts the admins once")
  func delays() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.brera)
    test.passenger("pat")
    let ride = try await test.request("pat", at: TestDispatch.duomo)
    let offer = try #require(try await test.offer(of: "A"))
    let allocated = try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    let estimate = try #require(allocated.estimatedPickupAt)
    test.clock.set(estimate.addingTimeInterval(test.domain.settings.delayGrace))
    // Still driving (and reporting): late, not silent.
    _ = try await test.domain.reportPosition(driverUserID: "driver-A", position: TestDispatch.brera, reportedAt: nil)
    #expect(try await test.domain.runChecks() == 0)
    test.clock.advance(by: 1)
    #expect(try await test.domain.runChecks() == 1)
    #expect(try await test.ride(ride.id).delayed)
    #expect(try await test.domain.runChecks() == 0)
    let reported = try await test.domain.reportDelay(driverUserID: "driver-A", rideID: ride.id, minutes: 10)
    #expect(reported.estimatedPickupAt! >= test.clock.now().addingTimeInterval(600))
    // The taxi has been silent for more than five minutes since its last report.
    test.clock.advance(by: test.domain.settings.positionSilenceAlert)
    #expect(try await test.domain.runChecks() == 1)
    #expect(try await test.domain.runChecks() == 0)
    try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: "pat").map(\.title) == ["Taxi A is on its way", "Your taxi is late", "Your taxi is late"])
    #expect(test.notifier.messages(to: "admin").map(\.data["alert"]) == ["position_silence"])
  }

  @Test("a taxi entering another zone joins that zone's queue at the tail; leaving every zone takes it off")
  func zoneChange() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    try await test.taxi("N1", at: TestDispatch.isola)
    let moved = try await test.move("A", to: TestDispatch.isola, after: 600).taxi
    #expect(moved.zoneID == "N")
    #expect(try await test.queue("N") == ["N1", "A"])
    #expect(try await test.queue("C").isEmpty)
    let away = try await test.move("A", to: GeoPoint(latitude: 45.6270, longitude: 8.7112), after: 3600).taxi
    #expect(away.zoneID == nil)
    #expect(away.state == .unavailable)
    #expect(try await test.queue("N") == ["N1"])
    try await test.move("A", to: TestDispatch.duomo, after: 3600)
    #expect(try await test.queue("C") == ["A"])
  }

  @Test("a driver's stream carries the offer as it is made; a ride's watchers see it change")
  func feeds() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    let driver = test.domain.feeds.driver("A")
    defer { driver.end() }
    test.passenger("pat")
    let ride = try await test.request("pat", at: TestDispatch.duomo)
    let watcher = test.domain.feeds.ride(ride.id)
    var events = driver.events.makeAsyncIterator()
    var offerID: String?
    while offerID == nil, let event = await events.next() {
      if case .offer(let job) = event { offerID = job.offer.id }
    }
    _ = try await test.domain.accept(driverUserID: "driver-A", offerID: try #require(offerID))
    var changes = watcher.changes.makeAsyncIterator()
    let change = await changes.next()
    #expect(change?.state == .allocated)
    #expect(change?.taxiCode == "A")
    watcher.end()
  }
}
