import BinarioAuth
import BinarioDomain
import BinarioProto
import Foundation
import GRPCCore
import SwiftProtobuf

extension TelemetryHandler {
  public func listAirAlerts(
    request: Binario_Telemetry_V1_ListAirAlertsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ListAirAlertsResponse {
    let caller = try CallerIdentity.signedIn()
    let alerts = try await domain.alerts.alerts(of: caller.userID)
    return .with { $0.alerts = alerts.map(Binario_Telemetry_V1_AirAlert.init) }
  }

  public func createAirAlert(
    request: Binario_Telemetry_V1_CreateAirAlertRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_CreateAirAlertResponse {
    let caller = try CallerIdentity.signedIn()
    let condition: AirAlert.Condition
    switch request.kind {
    case .threshold: condition = .above(try Measure.required(request.measure), threshold: request.threshold)
    case .silence: condition = .silence(minutes: Int(request.silentMinutes))
    case .unspecified, .UNRECOGNIZED: throw ServiceError.invalid("kind", "is AIR_ALERT_KIND_THRESHOLD or AIR_ALERT_KIND_SILENCE")
    }
    let scope: AirAlert.Scope
    if request.hasArea {
      guard request.deviceID.isEmpty else { throw ServiceError.invalid("area", "watch one board or an area, not both") }
      scope = .area(centre: GeoPoint(latitude: request.area.latitude, longitude: request.area.longitude), radiusMetres: request.area.radiusMetres)
    } else {
      scope = request.deviceID.isEmpty ? .myBoards : .board(request.deviceID)
    }
    let alert = try await domain.alerts.create(
      userID: caller.userID,
      name: request.name,
      condition: condition,
      scope: scope,
      idempotencyKey: request.idempotencyKey
    )
    return .with { $0.alert = .init(alert) }
  }

  public func deleteAirAlert(
    request: Binario_Telemetry_V1_DeleteAirAlertRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_DeleteAirAlertResponse {
    let caller = try CallerIdentity.signedIn()
    try await domain.alerts.delete(userID: caller.userID, alertID: try required(request.alertID, "alert_id"))
    return .init()
  }
}

extension Binario_Telemetry_V1_AirAlert {
  init(_ alert: AirAlert) {
    self.init()
    alertID = alert.id
    name = alert.name
    switch alert.condition {
    case .above(let measure, let value):
      kind = .threshold
      self.measure = measure.proto
      threshold = value
      unit = measure.unit
    case .silence(let minutes):
      kind = .silence
      silentMinutes = UInt32(clamping: minutes)
    }
    switch alert.scope {
    case .myBoards: break
    case .board(let id): deviceID = id
    case .area(let centre, let radius):
      area = .with {
        $0.latitude = centre.latitude
        $0.longitude = centre.longitude
        $0.radiusMetres = radius
      }
    }
    createdAt = Google_Protobuf_Timestamp(date: alert.createdAt)
    if let last = alert.lastTriggeredAt { lastTriggeredAt = Google_Protobuf_Timestamp(date: last) }
  }
}
