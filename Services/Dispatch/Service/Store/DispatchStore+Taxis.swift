import BinarioDomain
import Foundation
import GRDB

extension DispatchTransaction {
  static let taxiColumns = """
    t.code, t.plate, t.capacity, t.driver_user_id, t.available, t.unavailable_reason, t.latitude, t.longitude,
    t.position_at, t.zone_id, t.queue_seq, t.missed_offers,
    EXISTS (SELECT 1 FROM offer o WHERE o.taxi_code = t.code AND o.state = 'pending') AS has_offer,
    EXISTS (SELECT 1 FROM ride r WHERE r.taxi_code = t.code AND r.state IN ('allocated', 'arrived', 'in_progress')) AS on_ride,
    CASE WHEN t.queue_seq IS NULL THEN 0
      ELSE (SELECT COUNT(*) FROM taxi q WHERE q.zone_id = t.zone_id AND q.queue_seq <= t.queue_seq) END AS queue_position
    """

  static func taxi(_ row: Row) -> Taxi {
    var taxi = Taxi(code: row["code"], plate: row["plate"], capacity: row["capacity"], driverUserID: row["driver_user_id"])
    taxi.available = row["available"]
    taxi.unavailableReason = row["unavailable_reason"]
    if let latitude: Double = row["latitude"], let longitude: Double = row["longitude"] {
      taxi.position = GeoPoint(latitude: latitude, longitude: longitude)
    }
    taxi.positionAt = DispatchStore.date(row["position_at"] as Double?)
    taxi.zoneID = row["zone_id"]
    taxi.queueSeq = row["queue_seq"]
    taxi.missedOffers = row["missed_offers"]
    taxi.hasPendingOffer = row["has_offer"]
    taxi.onRide = row["on_ride"]
    taxi.queuePosition = row["queue_position"]
    return taxi
  }

  func taxis(where condition: String = "1", _ arguments: StatementArguments = [], orderBy: String = "t.code") throws -> [Taxi] {
    try Row.fetchAll(
      db.cachedStatement(sql: "SELECT \(Self.taxiColumns) FROM taxi t WHERE \(condition) ORDER BY \(orderBy)"),
      arguments: arguments
    ).map(Self.taxi)
  }

  public func taxi(code: String) throws -> Taxi? {
    try taxis(where: "t.code = ?", [code]).first
  }

  public func taxi(driverUserID: String) throws -> Taxi? {
    try taxis(where: "t.driver_user_id = ?", [driverUserID]).first
  }

  /// The most seats any taxi with a driver has; `nil` for a fleet without drivers.
  public func largestCapacity() throws -> Int? {
    try Int.fetchOne(db.cachedStatement(sql: "SELECT MAX(capacity) FROM taxi WHERE driver_user_id IS NOT NULL"))
  }
}
