import BinarioAuth
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore

extension TelemetryHandler {
  public func watchReadings(
    request: Binario_Telemetry_V1_WatchReadingsRequest,
    response: RPCWriter<Binario_Telemetry_V1_WatchReadingsResponse>,
    context: ServerContext
  ) async throws {
    let caller = try CallerIdentity.signedIn()
    let watch = try await domain.live.watch(userID: caller.userID, deviceID: request.deviceID.isEmpty ? nil : request.deviceID)
    // As WatchDeparturesBoard: an abandoned call ends the updates, which ends the loop.
    defer { watch.end() }
    try await withRPCCancellationHandler {
      try await response.write(.with { $0.boards = watch.presence.map(Binario_Telemetry_V1_BoardPresence.init) })
      for await update in watch.updates {
        switch update {
        case .presence(let boards):
          try await response.write(.with { $0.boards = boards.map(Binario_Telemetry_V1_BoardPresence.init) })
        case .readings(let deviceID, let readings):
          try await response.write(
            .with {
              $0.readings = .with {
                $0.deviceID = deviceID
                $0.readings = readings.map(Binario_Telemetry_V1_Reading.init)
              }
            }
          )
        }
      }
    } onCancelRPC: {
      watch.end()
    }
  }
}
