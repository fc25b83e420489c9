import Foundation
import GRDB

extension DispatchTransaction {
  static func offer(_ row: Row) -> Offer {
    Offer(
      id: row["id"],
      rideSeq: row["ride_seq"],
      taxiCode: row["taxi_code"],
      state: Offer.State(rawValue: row["state"]) ?? .withdrawn,
      queueSeq: row["queue_seq"],
      distanceMetres: row["distance_metres"],
      offeredAt: DispatchStore.date(row["offered_at"] as Double),
      expiresAt: DispatchStore.date(row["expires_at"] as Double),
      round: row["round"]
    )
  }

  func offers(where condition: String, _ arguments: StatementArguments = []) throws -> [Offer] {
    try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM offer WHERE \(condition) ORDER BY seq"), arguments: arguments)
      .map(Self.offer)
  }

  public func offer(id: String) throws -> Offer? {
    try offers(where: "id = ?", [id]).first
  }

  public func pendingOffer(taxiCode: String) throws -> Offer? {
    try offers(where: "taxi_code = ? AND state = 'pending'", [taxiCode]).first
  }

  func pendingOffer(rideSeq: Int64) throws -> Offer? {
    try offers(where: "ride_seq = ? AND state = 'pending'", [rideSeq]).first
  }

  /// Every pending offer.
  public func pendingOffers() throws -> [Offer] {
    try offers(where: "state = 'pending'")
  }

  /// Pending offers that expired by `now`, oldest first.
  public func expiredOffers(now: Date) throws -> [Offer] {
    try offers(where: "state = 'pending' AND expires_at <= ?", [DispatchStore.seconds(now)])
  }

  /// When the next pending offer expires.
  public func nextOfferExpiry() throws -> Date? {
    try Double.fetchOne(db.cachedStatement(sql: "SELECT MIN(expires_at) FROM offer WHERE state = 'pending'")).map(DispatchStore.date)
  }

  public func insertOffer(_ offer: Offer) throws {
    try db.executeCached(
      sql: """
        INSERT INTO offer (id, ride_seq, taxi_code, state, queue_seq, distance_metres, offered_at, expires_at, round)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        offer.id, offer.rideSeq, offer.taxiCode, offer.state.rawValue, offer.queueSeq, offer.distanceMetres,
        DispatchStore.seconds(offer.offeredAt), DispatchStore.seconds(offer.expiresAt), offer.round,
      ]
    )
  }

  public func answer(offerID: String, _ state: Offer.State, at instant: Date) throws {
    try db.executeCached(
      sql: "UPDATE offer SET state = ?, answered_at = ? WHERE id = ?",
      arguments: [state.rawValue, DispatchStore.seconds(instant), offerID]
    )
  }
}
