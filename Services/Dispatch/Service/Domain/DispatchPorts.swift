import BinarioDomain
import BinarioPayments
import Foundation

/// What dispatch needs to know of an account (identity's internal `LookupAccounts` and
/// `GetDefaultPaymentMethod`).
public struct AccountSummary: Sendable, Hashable {
  public var userID: String
  public var displayName: String
  public var hasVerifiedPhone: Bool
  public var isDriver: Bool
  public var disabled: Bool

  public init(userID: String, displayName: String, hasVerifiedPhone: Bool, isDriver: Bool, disabled: Bool) {
    self.userID = userID
    self.displayName = displayName
    self.hasVerifiedPhone = hasVerifiedPhone
    self.isDriver = isDriver
    self.disabled = disabled
  }
}

/// A card on file, as the payment provider tokenised it.
public struct CardOnFile: Sendable, Hashable {
  public var token: String
  public var last4: String

  public init(token: String, last4: String) {
    self.token = token
    self.last4 = last4
  }
}

/// Identity, as dispatch asks it.
public protocol AccountDirectory: Sendable {
  /// The accounts of `userIDs` that exist.
  func accounts(_ userIDs: [String]) async throws -> [AccountSummary]
  /// The user ids of accounts by email (unknown emails left out).
  func userIDs(emails: [String]) async throws -> [String]
  /// The user's default card; `nil` when none is on file.
  func defaultCard(userID: String) async throws -> CardOnFile?
}

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

/// Sends a notification through scheduling's notification centre (`Notify`).
public protocol RideNotifier: Sendable {
  func notify(userIDs: [String], _ message: OutboxMessage) async throws
}

/// Turns an address a passenger typed into a position.
public protocol Geocoder: Sendable {
  /// `nil` when the address is not known.
  func position(of address: String, userID: String) async throws -> GeoPoint?
}
