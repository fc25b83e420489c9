import BinarioAuth
import BinarioDomain
import BinarioProto
import Foundation
import GRPCCore
import SwiftProtobuf

extension TelemetryHandler {
  public func getCalibration(
    request: Binario_Telemetry_V1_GetCalibrationRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_GetCalibrationResponse {
    let caller = try CallerIdentity.signedIn()
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let calibration = try await domain.reference.calibrate(
      userID: caller.userID,
      deviceID: try required(request.deviceID, "device_id"),
      sensorID: try required(request.sensorID, "sensor_id"),
      in: range,
      maximumPoints: Int(request.maxPoints)
    )
    return .with {
      $0.measure = calibration.measure.proto
      $0.slope = calibration.fit.slope
      $0.humidityCoefficient = calibration.fit.humidityCoefficient
      $0.intercept = calibration.fit.intercept
      $0.rSquared = calibration.fit.rSquared
      $0.rmse = calibration.fit.rmse
      $0.pairs = Int32(clamping: calibration.fit.pairs)
      $0.averaging = calibration.averaging?.code ?? ""
      $0.points = calibration.points.map { point in
        .with {
          $0.start = Google_Protobuf_Timestamp(date: point.start)
          $0.raw = point.raw
          if let corrected = point.corrected { $0.corrected = corrected }
        }
      }
      $0.bucketMilliseconds = Int64((calibration.bucketWidth * 1000).rounded())
    }
  }
}
