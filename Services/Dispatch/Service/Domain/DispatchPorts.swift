import BinarioDomain
import BinarioPayments
import Foundation

/// Money for rides: the cancellation fee held at request, released or taken at the end, and the
/// fare charged. Each call is idempotent by its request's `reference`.
public protocol RidePayments: Sendable {
  /// Holds (authorises) an amount on a card.
  func hold(_ request: ChargeRequest) async throws -> ChargeReceipt
  /// Releases a hold.
  func release(holdID: String, reference: String) async throws
  /// Charges a card.
  func charge(_ request: ChargeRequest) async throws -> ChargeReceipt
}

/// Turns an address a passenger typed into a position.
public protocol Geocoder: Sendable {
  /// `nil` when the address is not known.
  func position(of address: String, userID: String) async throws -> GeoPoint?
}
