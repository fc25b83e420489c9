import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension TelemetryHandler {
  /// The device the call's token uploads for.
  func uploadingDevice() async throws -> Int64 {
    guard let token = DeviceCredential.current else {
      throw ServiceError.unauthenticated("send the device's token: authorization: Device <token>")
    }
    return try await domain.registry.device(forToken: token).seq
  }

  public func uploadReadings(
    request: Binario_Telemetry_V1_UploadReadingsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_UploadReadingsResponse {
    let device = try await uploadingDevice()
    return .init(try await domain.ingest.upload(deviceSeq: device, request.readings.map(Reading.init)))
  }

  public func uploadSensorCommunityReadings(
    request: Binario_Telemetry_V1_SensorCommunityReadings,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_UploadReadingsResponse {
    let device = try await uploadingDevice()
    let reading = try SensorCommunityReading.reading(request.sensordatavalues.map { ($0.valueType, $0.value) }, at: domain.clock.now())
    return .init(try await domain.ingest.upload(deviceSeq: device, [reading]))
  }

  public func streamReadings(
    request: RPCAsyncSequence<Binario_Telemetry_V1_StreamReadingsRequest, any Error>,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_UploadReadingsResponse {
    // The token is checked once, when the stream opens.
    let device = try await uploadingDevice()
    let outcome = try await domain.ingest.upload(deviceSeq: device) { add in
      for try await message in request { try await add(message.readings.map(Reading.init)) }
    }
    return .init(outcome)
  }
}
