import BinarioAuth
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore

extension TelemetryHandler {
  public func getAirSettings(
    request: Binario_Telemetry_V1_GetAirSettingsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_AirSettings {
    .init(try await domain.settings.settings(userID: try CallerIdentity.signedIn().userID))
  }

  public func saveAirSettings(
    request: Binario_Telemetry_V1_SaveAirSettingsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_AirSettings {
    let saved = try await domain.settings.save(
      userID: try CallerIdentity.signedIn().userID,
      defaultMeasure: request.hasDefaultMeasure ? .some(Measure(request.defaultMeasure)) : .none,
      stationIDs: request.setStationIds ? request.stationIds : nil
    )
    return .init(saved)
  }
}

extension Binario_Telemetry_V1_AirSettings {
  init(_ settings: AirSettings) {
    self.init()
    defaultMeasure = settings.defaultMeasure?.proto ?? .unspecified
    stationIds = settings.stationIDs
  }
}
