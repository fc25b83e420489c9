import BinarioDomain
import Foundation
import Testing

@testable import DispatchService

@Suite("Reservations and shared rides")
struct ReservationTests {
  static let hour: TimeInterval = 3600

  @Test("at least two hours ahead; allocated ten minutes before the meeting by the job; never twice")
  func allocation() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    test.passenger("pat")
    await #expect(throws: ServiceError.invalid("meeting_at", "a reservation is made at least 120 minutes ahead")) {
      try await test.reserve("pat", in: 2 * Self.hour - 1)
    }
    let reservation = try await test.reserve("pat", in: 3 * Self.hour)
    #expect(reservation.state == .scheduled && reservation.fareMinor > 0)
    test.clock.set(reservation.meetingAt.addingTimeInterval(-10 * 60 - 1))
    #expect(try await test.domain.dispatchDueReservations() == 0)
    #expect(try await test.offer(of: "A") == nil)
    test.clock.advance(by: 1)
    #expect(try await test.domain.dispatchDueReservations() == 1)
    #expect(try await test.domain.dispatchDueReservations() == 0)
    let dispatched = try #require(try await test.domain.reservations(passengerUserID: "pat").first)
    #expect(dispatched.state == .dispatched)
    let offer = try #require(try await test.offer(of: "A"))
    #expect(offer.ride.id == dispatched.rideID && offer.ride.reservationID == reservation.id)
    _ = try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: "pat").map(\.title) == ["Your taxi is being allocated", "Taxi A is on its way"])
  }

  @Test("editable until its deadline; deleting is free until a driver accepted its ride, then costs the fee")
  func editAndDelete() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    test.passenger("pat")
    let first = try await test.reserve("pat", in: 3 * Self.hour)
    let moved = try await test.domain.updateReservation(
      id: first.id,
      passengerUserID: "pat",
      pickup: nil,
      destination: .position(TestDispatch.lodi),
      meetingAt: nil,
      passengers: 2,
      shared: nil
    )
    #expect(moved.passengers == 2 && moved.destination.zoneID == "E")
    test.clock.set(first.meetingAt.addingTimeInterval(-29 * 60))
    await #expect(throws: ServiceError.self) {
      try await test.domain.updateReservation(
        id: first.id,
        passengerUserID: "pat",
        pickup: nil,
        destination: nil,
        meetingAt: nil,
        passengers: 1,
        shared: nil
      )
    }
    let free = try await test.domain.deleteReservation(id: first.id, passengerUserID: "pat")
    #expect(free.cancellationFeeMinor == 0)

    // In its last ten minutes, still searching: free (no taxi on its way yet).
    let searching = try await test.reserve("pat", in: 3 * Self.hour)
    test.clock.set(searching.meetingAt.addingTimeInterval(-10 * 60))
    #expect(try await test.domain.dispatchDueReservations() == 1)
    let unaccepted = try #require(try await test.offer(of: "A"))
    #expect(unaccepted.ride.reservationID == searching.id)
    #expect(try await test.domain.deleteReservation(id: searching.id, passengerUserID: "pat").cancellationFeeMinor == 0)

    // Once a driver accepted: the fee.
    test.clock.set(searching.meetingAt.addingTimeInterval(3600))
    let late = try await test.reserve("pat", in: 3 * Self.hour)
    test.clock.set(late.meetingAt.addingTimeInterval(-10 * 60))
    #expect(try await test.domain.dispatchDueReservations() == 1)
    let offer = try #require(try await test.offer(of: "A"))
    let ride = try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    #expect(ride.passengerCode == late.passengerCode)
    test.clock.advance(by: 5 * 60)
    let charged = try await test.domain.deleteReservation(id: late.id, passengerUserID: "pat")
    #expect(charged.cancellationFeeMinor == 500)
    let charges = try await test.store.payments().filter { $0.kind == "charge" }.map(\.receipt.amountMinor)
    #expect(charges == [500])
    await #expect(throws: ServiceError.failedPrecondition("the reservation \(late.id) is deleted already")) {
      try await test.domain.deleteReservation(id: late.id, passengerUserID: "pat")
    }
  }

  @Test("a passenger's reservations and rides never overlap")
  func overlap() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    test.passenger("pat")
    let booked = try await test.reserve("pat", in: 3 * Self.hour)
    await #expect(throws: ServiceError.self) {
      try await test.reserve("pat", in: 3 * Self.hour + 60)
    }
    _ = try await test.reserve("pat", in: 5 * Self.hour)
    test.clock.set(booked.meetingAt.addingTimeInterval(-30 * 60))
    await #expect(
      throws: ServiceError.failedPrecondition(
        "your reservation \(booked.id) at \(test.domain.clockTime(booked.meetingAt)) is due; delete it or wait for it"
      )
    ) {
      try await test.request("pat", at: TestDispatch.duomo)
    }
  }

  @Test("two shared reservations are matched and split the fare; re-split when one leaves; the group rides as one with its route")
  func sharing() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    for passenger in ["ann", "ben", "cat"] { test.passenger(passenger) }
    let tariff = test.domain.settings.tariff
    let ann = try await test.reserve("ann", from: TestDispatch.duomo, to: TestDispatch.bicocca, shared: true)
    let alone = ann.fareMinor
    #expect(alone == tariff.estimate(from: TestDispatch.duomo, to: TestDispatch.bicocca))
    // Ben: from the same zone (C) to the same zone (NE), ten minutes later: matched.
    let ben = try await test.reserve(
      "ben",
      from: TestDispatch.brera,
      to: GeoPoint(latitude: 45.5200, longitude: 9.2200),
      in: 3 * Self.hour + 600,
      shared: true
    )
    #expect(ben.groupID == ann.groupID)
    let group = try await test.domain.reservations(passengerUserID: "ann") + test.domain.reservations(passengerUserID: "ben")
    let shares = Dictionary(uniqueKeysWithValues: group.map { ($0.passengerUserID, $0.fareMinor) })
    let route = SharedRoute.plan(group)
    #expect(route.map(\.kind) == [.pickup, .pickup, .dropOff, .dropOff])
    #expect(shares["ann"]! + shares["ben"]! == tariff.fare(metres: SharedRoute.length(route) * tariff.detourFactor))
    #expect(shares["ann"]! < alone)
    // Cat's three seats do not fit beside them: a group of her own.
    let cat = try await test.reserve("cat", from: TestDispatch.duomo, to: TestDispatch.bicocca, in: 3 * Self.hour + 300, passengers: 3, shared: true)
    #expect(cat.groupID != ann.groupID)
    try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: "ann").last?.data["share_minor"] == "\(shares["ann"]!)")

    // Ben leaves: Ann rides alone again, at her own fare, and is told.
    _ = try await test.domain.deleteReservation(id: ben.id, passengerUserID: "ben")
    #expect(try await test.domain.reservations(passengerUserID: "ann").first?.fareMinor == alone)
    try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: "ann").last?.data["share_minor"] == "\(alone)")

    // Ben comes back; the group is dispatched as one ride with the route, each pays their share.
    let back = try await test.reserve(
      "ben",
      from: TestDispatch.brera,
      to: GeoPoint(latitude: 45.5200, longitude: 9.2200),
      in: 3 * Self.hour + 600,
      shared: true
    )
    #expect(back.groupID == ann.groupID)
    _ = try await test.domain.deleteReservation(id: cat.id, passengerUserID: "cat")
    test.clock.set(ann.meetingAt.addingTimeInterval(-10 * 60))
    #expect(try await test.domain.dispatchDueReservations() == 1)
    let offer = try #require(try await test.offer(of: "A"))
    #expect(offer.ride.passengers == 2)
    #expect(offer.ride.route.map(\.passengerName) == ["Passenger ann", "Passenger ben", "Passenger ann", "Passenger ben"])
    let ride = try await test.domain.accept(driverUserID: "driver-A", offerID: offer.offer.id)
    // Each rider sees the ride they share with their own code and share; both are told.
    let annSees = try await test.domain.ride(id: ride.id, passengerUserID: "ann")
    let benSees = try await test.domain.ride(id: ride.id, passengerUserID: "ben")
    #expect(benSees.route.count == 4)
    #expect(annSees.passengerCode != benSees.passengerCode || annSees.reservationID != benSees.reservationID)
    #expect(benSees.passengerCode == back.passengerCode && benSees.pickup.position == TestDispatch.brera)
    #expect(benSees.estimatedFareMinor == (try await test.domain.reservations(passengerUserID: "ben").first?.fareMinor))
    try await test.domain.sendOutbox(through: test.notifier)
    #expect(test.notifier.messages(to: "ben").last?.body.english.contains(back.passengerCode) == true)
    #expect(test.notifier.messages(to: "ben").last?.title == "Taxi A is on its way")
    // Both in their histories.
    #expect(try await test.domain.rides(passengerUserID: "ben", pageSize: 0, pageToken: "").rides.map(\.id) == [ride.id])
    // Each boards with their own code; the ride ends once both are on board.
    _ = try await test.domain.startRide(driverUserID: "driver-A", rideID: ride.id, passengerCode: annSees.passengerCode)
    await #expect(throws: ServiceError.failedPrecondition("Passenger ben is not on board: take them on with their code, or mark them absent")) {
      try await test.domain.completeRide(driverUserID: "driver-A", rideID: ride.id)
    }
    _ = try await test.domain.startRide(driverUserID: "driver-A", rideID: ride.id, passengerCode: benSees.passengerCode)
    let done = try await test.domain.completeRide(driverUserID: "driver-A", rideID: ride.id)
    let final = try await test.domain.reservations(passengerUserID: "ann") + test.domain.reservations(passengerUserID: "ben")
    #expect(done.fareMinor == final.map(\.fareMinor).reduce(0, +))
    let charges = try await test.store.payments().filter { $0.kind == "charge" }.map(\.receipt.amountMinor).sorted()
    #expect(charges == final.map(\.fareMinor).sorted())
  }

  @Test("shares add up to the fare exactly, whatever the weights, and none is more than riding alone")
  func sharesAddUp() {
    var random = SeededGenerator(state: 42)
    let tariff = Tariff()
    for _ in 0 ..< 200 {
      let members = (0 ..< Int.random(in: 1 ... 4, using: &random)).map { index in
        Reservation(
          id: "r\(index)",
          passengerUserID: "u\(index)",
          passengerName: "U\(index)",
          idempotencyKey: "",
          state: .scheduled,
          pickup: RidePlace(
            position: GeoPoint(latitude: .random(in: 45.44 ... 45.49, using: &random), longitude: .random(in: 9.13 ... 9.21, using: &random)),
            address: "",
            zoneID: "C"
          ),
          destination: RidePlace(
            position: GeoPoint(latitude: .random(in: 45.49 ... 45.54, using: &random), longitude: .random(in: 9.21 ... 9.28, using: &random)),
            address: "",
            zoneID: "NE"
          ),
          passengers: Int.random(in: 1 ... 2, using: &random),
          meetingAt: Date(timeIntervalSince1970: Double(index)),
          endsAt: Date(),
          shared: true,
          groupID: "g",
          currency: "EUR",
          fareMinor: 0,
          cardToken: "",
          cardLast4: "",
          rideID: nil,
          createdAt: Date(),
          cancelledAt: nil,
          cancellationFeeMinor: nil
        )
      }
      let uncapped = SharedRoute.uncappedShares(members, tariff: tariff)
      let total = tariff.fare(metres: SharedRoute.length(SharedRoute.plan(members)) * tariff.detourFactor)
      #expect(uncapped.values.reduce(0, +) == total)
      #expect(uncapped.values.allSatisfy { $0 >= 0 })
      // Capped: nobody pays more than their trip alone, nor more than their uncapped share.
      let shares = SharedRoute.shares(members, tariff: tariff)
      for member in members {
        let alone = tariff.estimate(from: member.pickup.position, to: member.destination.position)
        #expect(shares[member.id]! == min(alone, uncapped[member.id]!))
      }
    }
  }
}
