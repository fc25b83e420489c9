import BinarioDomain
import Foundation

/// Someone a ride carries: the passenger of a ride of their own, or each member of a shared
/// ride (their own pickup, code and notifications).
struct Rider: Sendable, Hashable {
  var userID: String
  var code: String
  var pickup: RidePlace
  /// Their reservation (empty for a ride called now).
  var reservationID: String
}

/// Each rider's own view of a ride and their own notifications.
extension DispatchDomain {
  /// Everyone a ride carries now: its passenger, or a shared ride's members not cancelled.
  func riders(of ride: Ride, _ tx: DispatchTransaction) throws -> [Rider] {
    guard let groupID = ride.groupID else {
      return [Rider(userID: ride.passengerUserID, code: ride.passengerCode, pickup: ride.pickup, reservationID: ride.reservationID)]
    }
    return try tx.members(groupID: groupID).map {
      Rider(userID: $0.passengerUserID, code: $0.passengerCode, pickup: $0.pickup, reservationID: $0.id)
    }
  }

  /// Tells every rider of `ride` of `event`, each with their own pickup and code.
  func enqueueToRiders(_ ride: Ride, event: String, _ tx: DispatchTransaction) throws {
    for rider in try riders(of: ride, tx) {
      try tx.enqueue(passengerMessage(ride, to: rider, event: event))
    }
  }

  /// The ride as `userID` sees it, or `nil` when they are not riding it: a shared ride shows
  /// the member their own pickup, destination, code, share and ending (they may have left, or
  /// missed it); any ride shows where its taxi is and when it should reach the pickup.
  func personalised(_ ride: Ride, for userID: String, _ tx: DispatchTransaction) throws -> Ride? {
    var view = ride
    if let groupID = ride.groupID {
      let all = try tx.reservations(where: "group_id = ?", [groupID])
      guard let mine = all.last(where: { $0.passengerUserID == userID && ($0.rideID == ride.id || $0.state == .dispatched) }) else {
        return nil
      }
      view.route = SharedRoute.plan(all.filter { $0.state != .cancelled })
      view.passengerUserID = userID
      view.passengerName = mine.passengerName
      view.passengerCode = mine.passengerCode
      view.pickup = mine.pickup
      view.destination = mine.destination
      view.passengers = mine.passengers
      view.estimatedFareMinor = mine.fareMinor
      view.reservationID = mine.id
      view.cardLast4 = mine.cardLast4
      view.fareMinor = nil
      view.cancellationFeeMinor = nil
      if mine.state == .cancelled {
        view.state = .cancelled
        view.endedAt = mine.cancelledAt
        view.cancellationFeeMinor = mine.cancellationFeeMinor ?? 0
        view.endReason = mine.endReason
      } else if ride.state == .completed {
        view.fareMinor = mine.fareMinor
      }
    } else if ride.passengerUserID != userID {
      return nil
    }
    if view.state.isActive, view.taxiPosition == nil, let code = ride.taxiCode, let taxi = try tx.taxi(code: code),
      let position = taxi.position
    {
      view.taxiPosition = position
      view.taxiPositionAt = taxi.positionAt
    }
    return shown(view)
  }

  /// A changed ride as the rider `userID` watching it sees it: their own side of a shared ride
  /// (read again), the taxi where the change left it.
  public func watched(_ change: Ride, by userID: String) async throws -> Ride {
    let view = try await store.read { tx -> Ride? in
      var ride = try tx.ride(id: change.id) ?? change
      ride.taxiPosition = change.taxiPosition
      ride.taxiPositionAt = change.taxiPositionAt
      return try self.personalised(ride, for: userID, tx)
    }
    guard let view else { throw ServiceError.notFound("no ride \(change.id) of yours") }
    return view
  }

  /// The ride with what reads show beside its state: until when a search keeps looking; when
  /// the taxi should reach the pickup from where it was last heard of (what the passenger's map
  /// counts down); from when the driver may mark the passenger absent.
  public func shown(_ ride: Ride) -> Ride {
    var shown = ride
    if ride.state == .searching { shown.searchingUntil = searchDeadline(ride) }
    if ride.state == .allocated, let position = ride.taxiPosition {
      let from = max(clock.now(), ride.taxiPositionAt ?? clock.now())
      shown.taxiEta = from.addingTimeInterval(driveTime(metres: position.distance(to: ride.pickup.position)))
    }
    if ride.state == .arrived, let arrived = ride.arrivedAt { shown.noShowFrom = arrived.addingTimeInterval(settings.noShowWait) }
    return shown
  }

  /// A rider's notification (kind TAXI_UPDATE) of a ride's event, with their own pickup and code.
  func passengerMessage(_ ride: Ride, to rider: Rider, event: String) -> OutboxMessage {
    let clock = ride.estimatedPickupAt.map { clockTime($0) } ?? ""
    let taxi = ride.taxiCode ?? ""
    let pickup = Self.describe(rider.pickup)
    let limit = clockTime(searchDeadline(ride))
    let title: PersonText =
      switch event {
      case "allocated": "Taxi \(taxi) is on its way"
      case "delayed": "Your taxi is late"
      case "arrived": "Your taxi is here"
      case "searching_again": "Still looking for a taxi"
      case "no_taxi": "No taxi found"
      case "reallocating": "Finding you another taxi"
      case "given_up": "Finding you another taxi"
      case "no_show": "You were marked absent"
      case "ended_early": "Your ride has ended"
      case "closed": "Ride cancelled"
      default: "Ride update"
      }
    let body: PersonText =
      switch event {
      case "allocated":
        "Taxi \(taxi) (\(ride.taxiPlate)) will be at \(pickup) at about \(clock). Your code for the driver: \(rider.code)."
      case "delayed": "Taxi \(taxi) is delayed; it should now reach you at about \(clock)."
      case "arrived": "Taxi \(taxi) (\(ride.taxiPlate)) is waiting at \(pickup). Your code: \(rider.code)."
      case "searching_again":
        "Every taxi near \(pickup) is busy or declined; we keep asking, further afield, until \(limit). Nothing is charged until a driver accepts."
      case "no_taxi": "No taxi near \(pickup) could take your ride; nothing was charged. Please try again in a few minutes."
      case "reallocating": "The taxi on its way to \(pickup) is out of service; we are offering your ride to another one."
      case "given_up": "The driver of taxi \(taxi) cannot come to \(pickup); we are offering your ride to another taxi now."
      case "no_show": "Taxi \(taxi) waited for you at \(pickup) and has left; the cancellation fee applies."
      case "ended_early": "Taxi \(taxi) went out of service during your ride; you pay only the distance driven."
      case "closed": "Your ride from \(pickup) was cancelled without charge: your account is suspended."
      default: "Your ride \(ride.id) is \(ride.state.rawValue)."
      }
    let instant = event == "delayed" ? ":\(Int(ride.estimatedPickupAt?.timeIntervalSince1970 ?? 0))" : ""
    let who = ride.groupID == nil ? "" : ":\(rider.reservationID)"
    // A taxi found again after a give-up is allocated anew: its own key.
    let again = event == "allocated" || event == "given_up" ? ":\(taxi)" : ""
    return OutboxMessage(
      dedupeKey: "dispatch:ride:\(ride.id):\(event)\(instant)\(who)\(again)",
      audience: .user,
      userID: rider.userID,
      title: TranslatedText(title),
      body: TranslatedText(body),
      data: ["ride_id": ride.id, "event": event, "taxi_code": ride.taxiCode ?? "", "url": "/#/taxi/\(ride.id)"]
    )
  }

  /// Until when a ride searching for a taxi keeps asking: the search limit after the request;
  /// a reservation's ride, dispatched the allocation lead early, as long after its meeting time.
  func searchDeadline(_ ride: Ride) -> Date {
    ride.requestedAt.addingTimeInterval(settings.searchLimit + (ride.reservationID.isEmpty ? 0 : settings.reservationAllocationLead))
  }
}
