import BinarioDomain
import Foundation

/// What a passenger sees before calling a taxi: the price, how soon a taxi could be there, how
/// many are free nearby.
public struct RideEstimate: Sendable, Hashable {
  public var pickup: RidePlace
  public var destination: RidePlace?
  /// The party's estimate (every taxi's); `nil` without a destination.
  public var fareMinor: Int64?
  public var currency: String
  /// How many taxis the party needs.
  public var taxis: Int
  /// When the taxi asked first could be at the pickup; `nil` when none is free in reach.
  public var pickupETA: Date?
  /// Free taxis in the pickup zone and its neighbours.
  public var freeNearby: Int
}

extension DispatchDomain {
  /// The estimate before a request: the same resolution of places, the same split of a party
  /// and the same first taxi a request would make and ask (nothing is held or stored).
  public func estimateRide(
    passengerUserID: String,
    pickup: RideLocation?,
    destination: RideLocation?,
    passengers: Int
  ) async throws
    -> RideEstimate
  {
    var check = InputValidation()
    let count = passengers == 0 ? 1 : passengers
    if !(1 ... Self.maximumParty).contains(count) {
      check.fail("passengers", "a request takes 1 to \(Self.maximumParty) passengers; a party larger than a taxi gets several taxis")
    }
    if pickup == nil { check.fail("pickup", "a pickup position or address is required") }
    try check.finish()
    let from = try await resolve(pickup!, field: "pickup", userID: passengerUserID)
    guard !from.zoneID.isEmpty else { throw ServiceError.invalid("pickup", "the pickup is outside the city's taxi zones") }
    var to: RidePlace?
    if let destination { to = try await resolve(destination, field: "destination", userID: passengerUserID) }
    let reach = zones.reach(from: from.zoneID, round: 1)
    let (groups, free) = try await store.read { tx in
      let groups = Self.partyGroups(count, seats: try tx.largestCapacity() ?? 4)
      return (groups, try tx.freeTaxis(in: reach, seating: groups.min() ?? 1))
    }
    let tariff = settings.tariff
    let eta = free.first?.position.map { clock.now().addingTimeInterval(driveTime(metres: $0.distance(to: from.position))) }
    return RideEstimate(
      pickup: from,
      destination: to,
      fareMinor: to.map { tariff.estimate(from: from.position, to: $0.position) * Int64(groups.count) },
      currency: tariff.currency,
      taxis: groups.count,
      pickupETA: eta,
      freeNearby: free.count
    )
  }
}
