import BinarioDomain
import Foundation

/// Something the operators must look at (a request no taxi took, a driver not answering, a taxi
/// silent on a ride, a job given up): sent to the admins and kept in the control room until one
/// of them acknowledges it.
public struct TaxiAlert: Sendable, Hashable {
  public var id: String
  /// "no_taxi", "missed_offers", "position_silence", "given_up".
  public var kind: String
  public var title: TranslatedText
  public var body: TranslatedText
  public var taxiCode: String
  public var rideID: String
  public var zoneID: String
  public var raisedAt: Date
  public var acknowledgedAt: Date?
  /// The admin who acknowledged it (their account id).
  public var acknowledgedBy: String
}

extension DispatchDomain {
  /// Tells the admins (the outbox) and raises the alert in the control room, in one transaction.
  func alertAdmins(_ message: OutboxMessage, _ tx: DispatchTransaction, now: Date) throws {
    try tx.enqueue(message)
    try tx.insertAlert(
      TaxiAlert(
        id: message.dedupeKey,
        kind: message.data["alert"] ?? "",
        title: message.title,
        body: message.body,
        taxiCode: message.data["taxi_code"] ?? "",
        rideID: message.data["ride_id"] ?? "",
        zoneID: message.data["zone_id"] ?? "",
        raisedAt: now,
        acknowledgedAt: nil,
        acknowledgedBy: ""
      )
    )
    tx.record(.alertRaised)
  }

  /// The alerts not acknowledged, newest first, then those acknowledged in the last day.
  public func alerts() async throws -> (open: [TaxiAlert], acknowledged: [TaxiAlert]) {
    let since = clock.now().addingTimeInterval(-86400)
    return try await store.read { tx in (try tx.openAlerts(), try tx.acknowledgedAlerts(since: since)) }
  }

  /// An admin has seen to an alert: it leaves the open ones (acknowledging twice keeps the first).
  public func acknowledgeAlert(id: String, by adminUserID: String) async throws -> TaxiAlert {
    let now = clock.now()
    return try await commit { tx in
      guard var alert = try tx.alert(id: id) else { throw ServiceError.notFound("no alert \(id)") }
      if alert.acknowledgedAt == nil {
        alert.acknowledgedAt = now
        alert.acknowledgedBy = adminUserID
        try tx.acknowledge(alert)
        tx.record(.alertRaised)
      }
      return alert
    }
  }
}
