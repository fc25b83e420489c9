import BinarioDomain
import BinarioEvents
import Foundation
import GRDB

/// What identity's account events do to dispatch's data (docs/data-map.md): the reads and
/// writes of ``DispatchDomain``'s account lifecycle, in the transaction that moves the event
/// cursor.
extension DispatchTransaction {
  /// The passenger's rides not ended, oldest first.
  public func openRides(passengerUserID: String) throws -> [Ride] {
    try rides(where: "passenger_user_id = ? AND state IN ('searching', 'allocated', 'arrived', 'in_progress')", [passengerUserID])
  }

  /// Erases what dispatch holds about a person who left, keeping their rides' and reservations'
  /// fares, dates and zones for accounting: names, addresses, positions, cards, codes and the
  /// keys that name them go; their saved places and the messages waiting for them are erased.
  /// - Returns: How many rides and reservations were de-identified.
  public func eraseAccount(userID: String) throws -> (rides: Int, reservations: Int) {
    // (passenger, key) is unique: the row's own id stands in for both.
    try db.execute(
      sql: """
        UPDATE ride SET passenger_user_id = '', passenger_name = '', idempotency_key = id, passenger_code = '',
          pickup_latitude = 0, pickup_longitude = 0, pickup_address = '',
          destination_latitude = NULL, destination_longitude = NULL, destination_address = '',
          last_latitude = NULL, last_longitude = NULL, card_token = '', card_last4 = ''
        WHERE passenger_user_id = ?
        """,
      arguments: [userID]
    )
    let rides = db.changesCount
    try db.execute(
      sql: """
        UPDATE reservation SET passenger_user_id = '', passenger_name = '', idempotency_key = id, passenger_code = '',
          pickup_latitude = 0, pickup_longitude = 0, pickup_address = '',
          destination_latitude = 0, destination_longitude = 0, destination_address = '', card_token = '', card_last4 = ''
        WHERE passenger_user_id = ?
        """,
      arguments: [userID]
    )
    let reservations = db.changesCount
    // A hold's reference names the passenger (`ride-hold:<user>:<key>`).
    try db.execute(
      sql: "UPDATE payment SET reference = 'erased:' || id, card_last4 = '' WHERE instr(reference, ?) > 0",
      arguments: [userID]
    )
    try db.execute(sql: "DELETE FROM saved_place WHERE user_id = ?", arguments: [userID])
    try db.execute(sql: "DELETE FROM passenger_profile WHERE user_id = ?", arguments: [userID])
    try db.execute(sql: "DELETE FROM outbox WHERE user_id = ?", arguments: [userID])
    return (rides, reservations)
  }

  /// Keeps the passenger's profile as identity's latest event tells it.
  public func savePassengerProfile(_ profile: PassengerProfile, at now: Date) throws {
    try db.execute(
      sql: """
        INSERT INTO passenger_profile (user_id, display_name, verified_phone, payment_method_id, card_token, card_last4, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (user_id) DO UPDATE SET
          display_name = excluded.display_name, verified_phone = excluded.verified_phone,
          payment_method_id = excluded.payment_method_id, card_token = excluded.card_token,
          card_last4 = excluded.card_last4, updated_at = excluded.updated_at
        """,
      arguments: [
        profile.userID, profile.displayName, profile.verifiedPhone, profile.card?.paymentMethodID ?? "",
        profile.card?.providerToken ?? "", profile.card?.last4 ?? "", now.timeIntervalSince1970,
      ]
    )
  }

  /// The passenger's profile as identity last told it, if it has.
  public func passengerProfile(userID: String) throws -> PassengerProfile? {
    try Row.fetchOne(
      db.cachedStatement(
        sql: "SELECT display_name, verified_phone, payment_method_id, card_token, card_last4 FROM passenger_profile WHERE user_id = ?"
      ),
      arguments: [userID]
    ).map {
      let methodID: String = $0["payment_method_id"]
      return PassengerProfile(
        userID: userID,
        displayName: $0["display_name"],
        verifiedPhone: $0["verified_phone"],
        card: methodID.isEmpty ? nil : CardOnFile(paymentMethodID: methodID, providerToken: $0["card_token"], last4: $0["card_last4"])
      )
    }
  }

  /// Moves dispatch's cursor in `position`'s producer's events, with the transaction.
  public func advanceEventCursor(to position: EventPosition, at now: Date) throws {
    try db.advanceEventCursor(to: position, at: now)
  }
}

extension DispatchStore {
  /// The passenger's ended rides whose money is not settled yet.
  public func unsettledRides(passengerUserID: String) async throws -> [Ride] {
    try await read { tx in
      try tx.rides(where: "passenger_user_id = ? AND settled = 0 AND state IN ('completed', 'cancelled', 'no_taxi')", [passengerUserID])
    }
  }
}
