import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

/// The gRPC face of telemetry: translates `binario.telemetry.v1.Telemetry` messages to
/// ``TelemetryDomain`` calls and its errors to statuses. Register it behind
/// ``BinarioAuth/AuthorizationServerInterceptor`` with ``BinarioAuth/MethodAccessPolicy/telemetry``:
/// the upload methods then run only with a device token (``BinarioAuth/DeviceCredential``),
/// which is checked here against the hashes the store keeps.
public struct TelemetryHandler: Binario_Telemetry_V1_Telemetry.SimpleServiceProtocol {
  let domain: TelemetryDomain

  public init(domain: TelemetryDomain) {
    self.domain = domain
  }

  /// A request's id field, which must not be empty (INVALID_ARGUMENT naming it).
  func required(_ value: String, _ field: String) throws -> String {
    guard !value.isEmpty else { throw ServiceError.invalid(field, "is required") }
    return value
  }
}
