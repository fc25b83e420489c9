import BinarioDomain
import Foundation
import GRDB
import Synchronization
import Testing

@testable import DispatchService

/// The allocation rules as a property: whatever requests, accepts, rejects, timeouts,
/// cancellations, completions, availability changes and moves run at once, in whatever order,
/// no taxi is ever allocated two jobs and no job two taxis.
@Suite("Allocation under concurrency")
struct AllocationPropertyTests {
  enum Operation: Sendable {
    case request(passenger: Int, at: Int)
    case accept(taxi: Int)
    case reject(taxi: Int)
    case timeout(seconds: Double)
    case cancel(passenger: Int)
    case finish(taxi: Int)
    case availability(taxi: Int, available: Bool)
    case move(taxi: Int, to: Int)
  }

  static let places = [
    TestDispatch.duomo, TestDispatch.brera, TestDispatch.centrale, TestDispatch.isola, TestDispatch.sanSiro,
    TestDispatch.bicocca, TestDispatch.lodi,
  ]
  static let taxis = ["T0", "T1", "T2", "T3", "T4", "T5"]
  static let passengers = (0 ..< 10).map { "p\($0)" }

  static func operations(seed: UInt64, count: Int) -> [Operation] {
    var random = SeededGenerator(state: seed)
    return (0 ..< count).map { _ in
      let taxi = Int.random(in: 0 ..< taxis.count, using: &random)
      let passenger = Int.random(in: 0 ..< passengers.count, using: &random)
      switch Int.random(in: 0 ..< 100, using: &random) {
      case 0 ..< 25: return .request(passenger: passenger, at: Int.random(in: 0 ..< places.count, using: &random))
      case 25 ..< 45: return .accept(taxi: taxi)
      case 45 ..< 55: return .reject(taxi: taxi)
      case 55 ..< 65: return .timeout(seconds: Double.random(in: 0 ... 25, using: &random))
      case 65 ..< 75: return .cancel(passenger: passenger)
      case 75 ..< 87: return .finish(taxi: taxi)
      case 87 ..< 94: return .availability(taxi: taxi, available: Bool.random(using: &random))
      default: return .move(taxi: taxi, to: Int.random(in: 0 ..< places.count, using: &random))
      }
    }
  }

  @Test("no taxi allocated twice, no job to two taxis, under random concurrent interleavings", arguments: 1 ... 12)
  func neverTwice(seed: UInt64) async throws {
    // Every move counts: what is examined is the queues, not the position filter (its own
    // tests): any speed, and each fix a millisecond after the last (the manual clock moves only
    // on timeouts).
    var settings = DispatchSettings()
    settings.fastestKmh = .infinity
    let test = try TestDispatch(settings: settings)
    let fixes = Recorder<Int>(0)
    for (index, code) in Self.taxis.enumerated() {
      try await test.taxi(code, at: Self.places[index % 3 == 0 ? 3 : index % 3])
    }
    for passenger in Self.passengers { test.passenger(passenger) }
    let accepted = Recorder<[String: [String]]>([:])  // ride → taxis that accepted it
    let unexpected = Recorder<[String]>([])
    let operations = Self.operations(seed: seed * 7919, count: 240)

    for batch in stride(from: 0, to: operations.count, by: 8) {
      await withTaskGroup(of: Void.self) { group in
        for operation in operations[batch ..< min(batch + 8, operations.count)] {
          group.addTask {
            do {
              try await Self.run(operation, on: test, accepted: accepted, fixes: fixes)
            } catch is ServiceError {
              // A refusal (an offer already answered, a ride already ended, ...) is an answer.
            } catch {
              unexpected.value.withLock { $0.append("\(operation): \(error)") }
            }
          }
        }
      }
      try await Self.checkInvariants(test)
    }
    #expect(unexpected.value.withLock { $0 } == [])
    for (ride, taxis) in accepted.value.withLock({ $0 }) {
      #expect(taxis.count == 1, "ride \(ride) was accepted by \(taxis)")
    }
    #expect(!accepted.value.withLock { $0 }.isEmpty, "the run allocated nothing: the property was not exercised")
  }

  static func run(_ operation: Operation, on test: TestDispatch, accepted: Recorder<[String: [String]]>, fixes: Recorder<Int>) async throws {
    let domain = test.domain
    switch operation {
    case .request(let passenger, let place):
      _ = try await test.request(passengers[passenger], at: places[place], key: UUID().uuidString)
    case .accept(let taxi):
      guard let offer = try await test.offer(of: taxis[taxi]) else { return }
      let ride = try await domain.accept(driverUserID: "driver-\(taxis[taxi])", offerID: offer.offer.id)
      accepted.value.withLock { $0[ride.id, default: []].append(taxis[taxi]) }
    case .reject(let taxi):
      guard let offer = try await test.offer(of: taxis[taxi]) else { return }
      _ = try await domain.reject(driverUserID: "driver-\(taxis[taxi])", offerID: offer.offer.id)
    case .timeout(let seconds):
      test.clock.advance(by: seconds)
      try await domain.expireDueOffers()
    case .cancel(let passenger):
      guard let ride = try await test.store.read({ tx in try tx.openRide(passengerUserID: passengers[passenger]) }) else { return }
      _ = try await domain.cancelRide(id: ride.id, passengerUserID: passengers[passenger])
    case .finish(let taxi):
      let driver = "driver-\(taxis[taxi])"
      guard let ride = try await domain.myTaxi(driverUserID: driver).ride else { return }
      if ride.state != .inProgress {
        _ = try await domain.startRide(driverUserID: driver, rideID: ride.id, passengerCode: ride.passengerCode)
      }
      _ = try await domain.completeRide(driverUserID: driver, rideID: ride.id)
    case .availability(let taxi, let available):
      _ = try await domain.setAvailability(driverUserID: "driver-\(taxis[taxi])", available: available, reason: "break")
    case .move(let taxi, let place):
      let fix = fixes.value.withLock { count in
        count += 1
        return count
      }
      let moved = try await domain.reportPosition(
        driverUserID: "driver-\(taxis[taxi])",
        position: places[place],
        reportedAt: test.clock.now().addingTimeInterval(Double(fix) / 1000)
      )
      #expect(moved.verdict == .used || moved.verdict == .outOfOrder)
    }
  }

  /// What must hold between any two transactions, read on one snapshot.
  static func checkInvariants(_ test: TestDispatch) async throws {
    let problems: [String] = try await test.store.read { tx in
      var problems: [String] = []
      func rows(_ sql: String) throws -> [String] { try String.fetchAll(tx.db, sql: sql) }
      problems += try rows(
        "SELECT 'taxi ' || taxi_code || ' has ' || COUNT(*) || ' active rides' FROM ride WHERE state IN ('allocated', 'arrived', 'in_progress') GROUP BY taxi_code HAVING COUNT(*) > 1"
      )
      problems += try rows(
        "SELECT 'ride ' || id || ' is active without a taxi' FROM ride WHERE state IN ('allocated', 'arrived', 'in_progress') AND taxi_code IS NULL"
      )
      problems += try rows(
        "SELECT 'ride ' || r.id || ' was accepted ' || COUNT(*) || ' times' FROM offer o JOIN ride r ON r.seq = o.ride_seq WHERE o.state = 'accepted' GROUP BY o.ride_seq HAVING COUNT(*) > 1"
      )
      problems += try rows(
        "SELECT 'ride ' || r.id || ' is active with another taxi than its accepted offer' FROM ride r JOIN offer o ON o.ride_seq = r.seq AND o.state = 'accepted' WHERE r.state IN ('allocated', 'arrived', 'in_progress', 'completed') AND r.taxi_code <> o.taxi_code"
      )
      problems += try rows(
        "SELECT 'offer ' || o.id || ' pends for a ride that is ' || r.state FROM offer o JOIN ride r ON r.seq = o.ride_seq WHERE o.state = 'pending' AND r.state <> 'searching'"
      )
      problems += try rows(
        "SELECT 'taxi ' || o.taxi_code || ' holds an offer while on a ride' FROM offer o WHERE o.state = 'pending' AND EXISTS (SELECT 1 FROM ride r WHERE r.taxi_code = o.taxi_code AND r.state IN ('allocated', 'arrived', 'in_progress'))"
      )
      problems += try rows(
        "SELECT 'taxi ' || code || ' is queued but not free' FROM taxi t WHERE queue_seq IS NOT NULL AND (available = 0 OR zone_id IS NULL OR EXISTS (SELECT 1 FROM ride r WHERE r.taxi_code = t.code AND r.state IN ('allocated', 'arrived', 'in_progress')))"
      )
      problems += try rows(
        "SELECT 'passenger ' || passenger_user_id || ' has ' || COUNT(*) || ' open rides' FROM ride WHERE state IN ('searching', 'allocated', 'arrived', 'in_progress') GROUP BY passenger_user_id HAVING COUNT(*) > 1"
      )
      return problems
    }
    #expect(problems == [])
  }
}

/// A value tasks share.
final class Recorder<Value: Sendable>: Sendable {
  let value: Mutex<Value>

  init(_ value: Value) {
    self.value = Mutex(value)
  }
}
