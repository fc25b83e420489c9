import BinarioProto
import Foundation
import Synchronization

typealias Dispatch = Binario_Dispatch_V1_Dispatch.Method

extension LoadOperation {
  /// Passengers calling taxis around the centre, drivers answering them step by step.
  static let myTaxi: [LoadOperation] = [
    LoadOperation("taxi estimate", app: "myTaxi") { context in
      _ = try await context.call(
        Dispatch.EstimateRide.self,
        .with {
          $0.pickup = Self.place(near: Cast.centre)
          $0.destination = Self.place(near: (45.4847, 9.2040))
        },
        as: context.anyTraveller.person
      )
    },
    // A passenger with no ride open asks for one (its idempotency key as the app's); one whose
    // ride is a minute old without its end first looks at it and cancels it if still open.
    LoadOperation("taxi request", app: "myTaxi") { context in
      try await context.taxis.endOneStaleRide(context)
      guard let traveller = context.taxis.passengerWithoutRide(context.cast) else {
        throw CallFailure(code: "generator: every passenger has a ride open", message: "more travellers are needed for this rate")
      }
      do {
        let ride = try await context.call(
          Dispatch.RequestRide.self,
          .with {
            $0.pickup = Self.place(near: Cast.centre)
            $0.destination = Self.place(near: (45.4847, 9.2040))
            $0.idempotencyKey = newKey()
          },
          as: traveller.person
        ).ride
        context.taxis.requested(ride.rideID, by: traveller.index)
      } catch {
        context.taxis.ended(passenger: traveller.index)
        throw error
      }
    },
    // A driver's app looks at their taxi and takes the next step: accepts an offer, says they
    // arrived, starts the ride with the passenger's code, completes it. An offer withdrawn or a
    // ride cancelled meanwhile is an answer, not a failure.
    LoadOperation("driver step", app: "myTaxi") { context in
      let driver = context.cast.drivers.randomElement()!
      let mine = try await context.call(Dispatch.GetMyTaxi.self, .init(), as: driver.person)
      do {
        if mine.hasOffer, !mine.offer.offerID.isEmpty {
          _ = try await context.call(Dispatch.AcceptOffer.self, .with { $0.offerID = mine.offer.offerID }, as: driver.person)
        } else if mine.hasRide, !mine.ride.rideID.isEmpty {
          let id = mine.ride.rideID
          switch mine.ride.state {
          case .allocated:
            _ = try await context.call(Dispatch.ReportArrived.self, .with { $0.rideID = id }, as: driver.person)
          case .arrived:
            guard let passenger = context.taxis.passenger(of: id).map({ context.cast.travellers[$0] }) else { return }
            // The passenger reads their code off their app.
            let code = try await context.call(Dispatch.GetRide.self, .with { $0.rideID = id }, as: passenger.person).ride.passengerCode
            _ = try await context.call(
              Dispatch.StartRide.self,
              .with {
                $0.rideID = id
                $0.passengerCode = code
              },
              as: driver.person
            )
          case .inProgress:
            _ = try await context.call(Dispatch.CompleteRide.self, .with { $0.rideID = id }, as: driver.person)
            context.taxis.ended(ride: id)
          default:
            break
          }
        } else if mine.taxi.state == .unavailable {
          _ = try await context.call(Dispatch.SetAvailability.self, .with { $0.available = true }, as: driver.person)
        }
      } catch let failure as CallFailure where failure.code == "FAILED_PRECONDITION" || failure.code == "NOT_FOUND" {
        // Withdrawn, expired or cancelled between the look and the step.
      }
    },
    LoadOperation("driver position", app: "myTaxi") { context in
      let driver = context.cast.drivers.randomElement()!
      _ = try await context.call(
        Dispatch.ReportPosition.self,
        .with {
          $0.position = .with {
            $0.latitude = Cast.centre.latitude + Double.random(in: -0.01 ... 0.01)
            $0.longitude = Cast.centre.longitude + Double.random(in: -0.01 ... 0.01)
          }
        },
        as: driver.person
      )
    },
  ]

  private static func place(near point: (latitude: Double, longitude: Double)) -> Binario_Dispatch_V1_Location {
    .with {
      $0.position = .with {
        $0.latitude = point.latitude + Double.random(in: -0.003 ... 0.003)
        $0.longitude = point.longitude + Double.random(in: -0.003 ... 0.003)
      }
    }
  }
}

/// Who is riding: a passenger has one ride open at a time (dispatch refuses a second), so a
/// request is made by a traveller without one; a ride ends when its driver completes it, or its
/// passenger cancels it after a minute without a taxi.
final class TaxiDesk: Sendable {
  private struct State {
    var free: [Int]
    var rides: [String: (passenger: Int, requested: ContinuousClock.Instant)] = [:]
  }

  private let state: Mutex<State>

  init(travellers: Int) {
    state = Mutex(State(free: Array(0 ..< travellers).shuffled()))
  }

  func passengerWithoutRide(_ cast: Cast) -> Traveller? {
    state.withLock { $0.free.popLast() }.map { cast.travellers[$0] }
  }

  func requested(_ ride: String, by passenger: Int) {
    state.withLock { $0.rides[ride] = (passenger, .now) }
  }

  func passenger(of ride: String) -> Int? { state.withLock { $0.rides[ride]?.passenger } }

  func ended(ride: String) {
    state.withLock { state in
      if let passenger = state.rides.removeValue(forKey: ride)?.passenger { state.free.insert(passenger, at: 0) }
    }
  }

  func ended(passenger: Int) { state.withLock { $0.free.insert(passenger, at: 0) } }

  /// The oldest ride open for over a minute: its passenger looks at it and cancels it unless it
  /// ended, and is free to ask again.
  func endOneStaleRide(_ context: LoadContext) async throws {
    let stale = state.withLock { state -> (String, Int)? in
      guard let oldest = state.rides.min(by: { $0.value.requested < $1.value.requested }),
        ContinuousClock.now - oldest.value.requested > .seconds(60)
      else { return nil }
      state.rides[oldest.key] = nil
      return (oldest.key, oldest.value.passenger)
    }
    guard let (ride, index) = stale else { return }
    let person = context.cast.travellers[index].person
    do {
      let state = try await context.call(Dispatch.GetRide.self, .with { $0.rideID = ride }, as: person).ride.state
      if ![.completed, .cancelled, .noTaxi].contains(state) {
        _ = try await context.call(Dispatch.CancelRide.self, .with { $0.rideID = ride }, as: person)
      }
      ended(passenger: index)
    } catch let failure as CallFailure where failure.code == "FAILED_PRECONDITION" {
      requested(ride, by: index)  // under way after all: its driver will complete it
    } catch {
      requested(ride, by: index)
      throw error
    }
  }
}
