import BinarioProto
import Foundation
import GRDB
import GRPCCore

/// Passengers call taxis, each request with its own idempotency key, retried with it until
/// acknowledged; drivers accept the offers. Every other ride the passenger cancels once a taxi
/// comes; on the others they give the driver their code and the driver takes them (arrived,
/// started, completed). Afterwards every acknowledged request is a ride exactly once, no ride
/// went to two taxis, no taxi held two rides at once, and no ride was charged twice.
struct TaxiRides: ChaosLoad {
  typealias Ride = Binario_Dispatch_V1_Ride
  let name = "taxi rides"
  let clients: Clients
  let passengers: [Passenger]
  let drivers: [Person]
  let acknowledgement: Acknowledgement
  /// Dispatch's database, read after the run.
  let database: URL
  let findings = Findings()
  /// Acknowledged requests: ride ids by passenger.
  private let requested = Locked<[String: [String]]>([:])
  /// The taxi each acknowledged accept gave a ride to.
  private let acceptedBy = Locked<[String: Set<String>]>([:])
  /// The codes passengers gave their drivers, by ride id.
  private let codes = Locked<[String: String]>([:])
  /// Passengers still riding: the drivers work until it is zero.
  private let riding = Locked(0)

  func run(until stop: ContinuousClock.Instant) async throws {
    riding.withLock { $0 = passengers.count }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for passenger in passengers {
        group.addTask {
          defer { riding.withLock { $0 -= 1 } }
          try await self.ride(as: passenger, until: stop)
        }
      }
      for (index, driver) in drivers.enumerated() {
        group.addTask { try await self.drive(as: driver, taxi: "CH-\(index)") }
      }
      try await group.waitForAll()
    }
  }

  // MARK: Passengers

  private func ride(as passenger: Passenger, until stop: ContinuousClock.Instant) async throws {
    var number = 0
    while ContinuousClock.now < stop {
      number += 1
      let key = "ride-\(passenger.index)-\(number)"
      var retried = false
      let ride: Ride
      do {
        guard
          let answer = try await acknowledgement.untilAnswered(
            as: passenger.person,
            retried: &retried,
            { metadata, options in
              try await clients.dispatch.requestRide(
                .with {
                  $0.pickup = .with {
                    $0.position = .with {
                      $0.latitude = Cast.duomo.latitude
                      $0.longitude = Cast.duomo.longitude
                    }
                  }
                  $0.idempotencyKey = key
                },
                metadata: metadata,
                options: options
              ).ride
            }
          )
        else { return findings.unanswered("the ride request \(key)") }
        ride = answer
      } catch let error as RPCError {
        findings.broken("the ride request \(key) refused: \(error.code): \(error.message)")
        try await Task.sleep(for: .seconds(1))
        continue
      }
      findings.count("acknowledged")
      if retried { findings.count("acknowledged after a failed attempt") }
      requested.withLock { $0[passenger.person.userID, default: []].append(ride.rideID) }
      try await follow(ride.rideID, of: passenger, takingIt: number % 2 == 0)
    }
  }

  /// Follows the ride to its end: cancels it once a taxi comes (or when none comes for a while),
  /// or gives the driver the code and waits to be taken.
  private func follow(_ rideID: String, of passenger: Passenger, takingIt: Bool) async throws {
    let began = ContinuousClock.now
    while true {
      guard
        let ride = try await acknowledgement.untilAnswered(
          as: passenger.person,
          { metadata, options in
            try await clients.dispatch.getRide(.with { $0.rideID = rideID }, metadata: metadata, options: options).ride
          }
        )
      else { return findings.unanswered("following ride \(rideID)") }
      switch ride.state {
      case .completed, .cancelled, .noTaxi:
        findings.count(ride.state == .completed ? "completed" : ride.state == .cancelled ? "cancelled" : "no taxi")
        return
      case .allocated:
        if takingIt {
          codes.withLock { $0[rideID] = ride.passengerCode }
        } else {
          try await cancel(rideID, of: passenger)
        }
      case .searching:
        // No taxi for long (they are all busy with others): give up.
        if ContinuousClock.now - began > .seconds(20) { try await cancel(rideID, of: passenger) }
      default:
        break
      }
      try await Task.sleep(for: .milliseconds(200))
    }
  }

  private func cancel(_ rideID: String, of passenger: Passenger) async throws {
    do {
      _ = try await acknowledgement.untilAnswered(
        as: passenger.person,
        { metadata, options in
          try await clients.dispatch.cancelRide(.with { $0.rideID = rideID }, metadata: metadata, options: options)
        }
      )
    } catch let error as RPCError where error.code == .failedPrecondition {
      // Started, or ended, meanwhile (or an earlier attempt cancelled it): the ride says which.
    }
  }

  // MARK: Drivers

  private func drive(as driver: Person, taxi: String) async throws {
    while riding.withLock({ $0 > 0 }) {
      guard
        let mine = try await acknowledgement.untilAnswered(
          as: driver,
          { metadata, options in
            try await clients.dispatch.getMyTaxi(.init(), metadata: metadata, options: options)
          }
        )
      else { return findings.unanswered("driver \(taxi)'s look at their taxi") }
      do {
        if mine.hasOffer, !mine.offer.offerID.isEmpty {
          let offer = mine.offer
          if let ride = try await acknowledgement.untilAnswered(
            as: driver,
            { metadata, options in
              try await clients.dispatch.acceptOffer(.with { $0.offerID = offer.offerID }, metadata: metadata, options: options).ride
            }
          ) {
            findings.count("accepted")
            _ = acceptedBy.withLock { $0[ride.rideID, default: []].insert(ride.taxiCode) }
            if ride.taxiCode != taxi { findings.broken("\(taxi)'s accept of ride \(ride.rideID) answered with taxi \(ride.taxiCode)") }
          }
        } else if mine.hasRide, !mine.ride.rideID.isEmpty {
          try await advance(mine.ride, as: driver)
        } else if mine.taxi.state == .unavailable {
          _ = try await acknowledgement.untilAnswered(
            as: driver,
            { metadata, options in
              try await clients.dispatch.setAvailability(.with { $0.available = true }, metadata: metadata, options: options)
            }
          )
        }
      } catch let error as RPCError where error.code == .failedPrecondition || error.code == .notFound {
        // The offer was withdrawn or expired, or the passenger cancelled: look again.
      }
      try await Task.sleep(for: .milliseconds(150))
    }
  }

  /// One step of the driver's current ride, once its passenger gave the code.
  private func advance(_ ride: Ride, as driver: Person) async throws {
    guard let code = codes.withLock({ $0[ride.rideID] }) else { return }
    let id = ride.rideID
    let dispatch = clients.dispatch
    _ = try await acknowledgement.untilAnswered(as: driver) { metadata, options -> Void in
      switch ride.state {
      case .allocated:
        _ = try await dispatch.reportArrived(.with { $0.rideID = id }, metadata: metadata, options: options)
      case .arrived:
        _ = try await dispatch.startRide(
          .with {
            $0.rideID = id
            $0.passengerCode = code
          },
          metadata: metadata,
          options: options
        )
      case .inProgress:
        _ = try await dispatch.completeRide(.with { $0.rideID = id }, metadata: metadata, options: options)
      default:
        break
      }
    }
  }

  // MARK: Check

  func check() async throws -> ChaosReport.Section {
    let requested = self.requested.withLock { $0 }
    var listed = 0
    for passenger in passengers {
      let ids = try await allPages { token in
        let answer = try await clients.dispatch.listMyRides(
          .with {
            $0.pageSize = 100
            $0.pageToken = token
          },
          metadata: await passenger.person.metadata()
        )
        return (answer.rides.map(\.rideID), answer.nextPageToken)
      }
      listed += ids.count
      let times = Dictionary(ids.map { ($0, 1) }, uniquingKeysWith: +)
      let told = requested[passenger.person.userID] ?? []
      for id in told where times[id] != 1 {
        findings.broken("acknowledged ride \(id) is in its passenger's rides \(times[id] ?? 0) times")
      }
      for id in Set(times.keys).subtracting(told) {
        findings.broken("ride \(id) is in the passenger's rides, but they were never told it was requested")
      }
    }
    for (ride, taxis) in acceptedBy.withLock({ $0 }) where taxis.count > 1 {
      findings.broken("ride \(ride) was accepted by \(taxis.sorted()): allocated twice")
    }

    var configuration = Configuration()
    configuration.readonly = true
    let (rides, acceptedTwice, rideCharges, fares) = try DatabaseQueue(path: database.path, configuration: configuration).read { db in
      (
        try Row.fetchAll(
          db,
          sql: "SELECT id, taxi_code, allocated_at, ended_at FROM ride WHERE allocated_at IS NOT NULL ORDER BY taxi_code, allocated_at"
        ),
        try String.fetchAll(
          db,
          sql: "SELECT r.id FROM offer o JOIN ride r ON r.seq = o.ride_seq WHERE o.state = 'accepted' GROUP BY r.id HAVING COUNT(*) > 1"
        ),
        // A ride's fare or cancellation fee: "ride:<id>:fare", "ride:<id>:fee".
        try String.fetchAll(db, sql: "SELECT reference FROM payment WHERE kind = 'charge' AND reference LIKE 'ride:%'"),
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM payment WHERE kind = 'charge' AND reference LIKE 'ride:%:fare'") ?? 0
      )
    }
    for ride in acceptedTwice { findings.broken("ride \(ride) has two accepted offers") }
    let charges = Dictionary(rideCharges.map { ($0.split(separator: ":")[1], 1) }, uniquingKeysWith: +)
    for (ride, count) in charges where count > 1 { findings.broken("ride \(ride) was charged \(count) times") }
    // A taxi's rides one after another: each ended before the next was allocated to it.
    var allocated = 0
    for (index, ride) in rides.enumerated() {
      allocated += 1
      let taxi: String = ride["taxi_code"]
      guard index + 1 < rides.count, rides[index + 1]["taxi_code"] as String == taxi else { continue }
      let next = rides[index + 1]
      let ended: Double? = ride["ended_at"]
      if ended == nil || ended! > next["allocated_at"] as Double {
        findings.broken("taxi \(taxi) was given ride \(next["id"] as String) while it still had ride \(ride["id"] as String)")
      }
    }
    return ChaosReport.Section(
      name: name,
      counts: [
        ("requests acknowledged", findings.value("acknowledged")),
        ("of them after a failed attempt", findings.value("acknowledged after a failed attempt")),
        ("rides found", listed), ("offers accepted", findings.value("accepted")), ("taxis allocated", allocated),
        ("completed", findings.value("completed")), ("cancelled", findings.value("cancelled")), ("no taxi", findings.value("no taxi")),
        ("fares charged", fares),
      ],
      violations: findings.violations
    )
  }
}
