import BinarioProto
import GRPCCore

extension MethodAccessPolicy {
  /// The standard health service every process serves (`grpc.health.v1.Health`): anyone may
  /// ask, so the gateway, orchestrators and probes can.
  public static let health = MethodAccessPolicy([
    Grpc_Health_V1_Health.Method.Check.descriptor: .level(.public),
    Grpc_Health_V1_Health.Method.Watch.descriptor: .level(.public),
  ])
}
