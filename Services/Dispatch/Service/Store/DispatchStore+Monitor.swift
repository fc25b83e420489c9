import BinarioDomain
import Foundation
import GRDB

extension DispatchTransaction {
  static func alert(_ row: Row) -> TaxiAlert {
    TaxiAlert(
      id: row["id"],
      kind: row["kind"],
      title: TranslatedText(stored: row["title"]),
      body: TranslatedText(stored: row["body"]),
      taxiCode: row["taxi_code"],
      rideID: row["ride_id"],
      zoneID: row["zone_id"],
      raisedAt: DispatchStore.date(row["raised_at"] as Double),
      acknowledgedAt: DispatchStore.date(row["acknowledged_at"] as Double?),
      acknowledgedBy: row["acknowledged_by"]
    )
  }

  func alerts(where condition: String, _ arguments: StatementArguments = []) throws -> [TaxiAlert] {
    try Row.fetchAll(
      db.cachedStatement(sql: "SELECT * FROM alert WHERE \(condition) ORDER BY raised_at DESC, seq DESC LIMIT 100"),
      arguments: arguments
    )
    .map(Self.alert)
  }

  /// Raises an alert once (its id is its message's dedupe key).
  public func insertAlert(_ alert: TaxiAlert) throws {
    try db.executeCached(
      sql: """
        INSERT INTO alert (id, kind, title, body, taxi_code, ride_id, zone_id, raised_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING
        """,
      arguments: [
        alert.id, alert.kind, alert.title.stored, alert.body.stored, alert.taxiCode, alert.rideID, alert.zoneID,
        DispatchStore.seconds(alert.raisedAt),
      ]
    )
  }

  public func alert(id: String) throws -> TaxiAlert? {
    try alerts(where: "id = ?", [id]).first
  }

  public func openAlerts() throws -> [TaxiAlert] {
    try alerts(where: "acknowledged_at IS NULL")
  }

  public func acknowledgedAlerts(since: Date) throws -> [TaxiAlert] {
    try alerts(where: "acknowledged_at >= ?", [DispatchStore.seconds(since)])
  }

  public func acknowledge(_ alert: TaxiAlert) throws {
    try db.executeCached(
      sql: "UPDATE alert SET acknowledged_at = ?, acknowledged_by = ? WHERE id = ?",
      arguments: [DispatchStore.seconds(alert.acknowledgedAt), alert.acknowledgedBy, alert.id]
    )
  }
}
