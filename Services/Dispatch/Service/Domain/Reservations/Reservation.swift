import BinarioDomain
import Foundation

/// A taxi booked for later (G11–G12), shared or not (G13–G14).
public struct Reservation: Sendable, Hashable {
  public enum State: String, Sendable, Hashable {
    /// Booked; its taxi is allocated before the meeting time.
    case scheduled
    /// Its ride exists (``rideID``).
    case dispatched
    case cancelled
  }

  var seq: Int64 = 0
  public var id: String
  public var passengerUserID: String
  public var passengerName: String
  public var idempotencyKey: String
  public var state: State
  public var pickup: RidePlace
  public var destination: RidePlace
  public var passengers: Int
  public var meetingAt: Date
  /// The meeting time plus the trip's estimate: the span another booking may not overlap.
  public var endsAt: Date
  public var shared: Bool
  /// The group of shared reservations it rides with.
  public var groupID: String?
  public var currency: String
  /// The passenger's fare: their share when shared, else the estimate.
  public var fareMinor: Int64
  var cardToken: String
  public var cardLast4: String
  public var rideID: String?
  public var createdAt: Date
  public var cancelledAt: Date?
  public var cancellationFeeMinor: Int64?
  /// What this passenger tells the driver at their pickup (each rider of a shared ride their own).
  public var passengerCode = ""
  /// When the driver took them on board with their code.
  public var boardedAt: Date?
  /// What the trip would cost riding alone: a shared fare never exceeds it.
  public var soloFareMinor: Int64?
  /// Why a cancelled one ended: the passenger deleted it, was absent, or left.
  public var endReason: Ride.EndReason = .none
}

/// A stop of a shared ride's route.
public struct RouteStop: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    case pickup, dropOff
  }

  public var kind: Kind
  public var place: RidePlace
  public var passengerName: String
  public var passengers: Int
  public var reservationID: String
  /// A pickup whose rider is on board, or a drop-off passed.
  public var done = false
}

/// How a shared ride is driven and paid: the route through every pickup, then every drop-off,
/// and each party's share of its fare.
public enum SharedRoute {
  /// Pickups in meeting order (ties: the nearest to the previous stop first), then drop-offs
  /// nearest first from the last pickup.
  public static func plan(_ members: [Reservation]) -> [RouteStop] {
    let pickups = members.sorted { ($0.meetingAt, $0.seq) < ($1.meetingAt, $1.seq) }
    var stops = pickups.map {
      RouteStop(
        kind: .pickup,
        place: $0.pickup,
        passengerName: $0.passengerName,
        passengers: $0.passengers,
        reservationID: $0.id,
        done: $0.boardedAt != nil
      )
    }
    var remaining = pickups
    var here = pickups.last?.pickup.position
    while !remaining.isEmpty {
      let index = remaining.indices.min { a, b in
        (here?.distance(to: remaining[a].destination.position) ?? 0, a) < (here?.distance(to: remaining[b].destination.position) ?? 0, b)
      }!
      let member = remaining.remove(at: index)
      stops.append(
        RouteStop(
          kind: .dropOff,
          place: member.destination,
          passengerName: member.passengerName,
          passengers: member.passengers,
          reservationID: member.id
        )
      )
      here = member.destination.position
    }
    return stops
  }

  /// The route's length as the crow flies, stop to stop.
  public static func length(_ stops: [RouteStop]) -> Double {
    zip(stops, stops.dropFirst()).map { $0.place.position.distance(to: $1.place.position) }.reduce(0, +)
  }

  /// Each member's share of the route's fare (the tariff on the route's length with the detour
  /// factor), in proportion to what their own trip would cover (distance × passengers); the
  /// shares add up to the fare exactly (largest remainders get the odd cents), except that no
  /// share is more than the member's trip alone would cost (a detour for others is never theirs
  /// to pay): such a share is capped, and the fare is the capped shares' sum.
  public static func shares(_ members: [Reservation], tariff: Tariff) -> [String: Int64] {
    var shares = uncappedShares(members, tariff: tariff)
    for member in members {
      let alone = member.soloFareMinor ?? tariff.estimate(from: member.pickup.position, to: member.destination.position)
      if let share = shares[member.id], share > alone { shares[member.id] = alone }
    }
    return shares
  }

  static func uncappedShares(_ members: [Reservation], tariff: Tariff) -> [String: Int64] {
    guard !members.isEmpty else { return [:] }
    let total = tariff.fare(metres: length(plan(members)) * tariff.detourFactor)
    let weights = members.map { max(1, $0.pickup.position.distance(to: $0.destination.position)) * Double($0.passengers) }
    let sum = weights.reduce(0, +)
    let exact = weights.map { Double(total) * $0 / sum }
    var shares = exact.map { Int64($0.rounded(.down)) }
    var left = total - shares.reduce(0, +)
    let byRemainder = exact.indices.sorted { a, b in
      let (ra, rb) = (exact[a] - exact[a].rounded(.down), exact[b] - exact[b].rounded(.down))
      return ra != rb ? ra > rb : a < b
    }
    for index in byRemainder where left > 0 {
      shares[index] += 1
      left -= 1
    }
    return Dictionary(uniqueKeysWithValues: zip(members.map(\.id), shares))
  }
}
