import ArgumentParser
import BinarioProto
import GRPCCore

/// `binario health`: whether the gateway and the services behind it take calls, from the
/// gateway's `grpc.health.v1.Health`.
struct HealthCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "health",
    abstract: "Ask the gateway whether it and the services behind it are serving.",
    discussion: """
      Without --service: the whole suite (every upstream). --service names an upstream \
      (identity) or a service (binario.identity.v1.Identity). Exits 0 only when SERVING.
      With --wait SECONDS it follows the status (the gateway pushes each change) until SERVING, \
      e.g. after a service restarted: the gateway reconnects to it within a few seconds.
      """
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @Option(help: "An upstream or a fully qualified service; empty: the whole suite.") var service = ""
  @Option(help: ArgumentHelp("Wait up to this long for SERVING.", valueName: "seconds")) var wait: Double?

  func validate() throws {
    if let wait, !(wait > 0 && wait <= 3600) {
      throw ValidationError("--wait must be between 0 and 3600 seconds")
    }
  }

  func call(_ gateway: GatewayConnection) async throws {
    let request = Grpc_Health_V1_HealthCheckRequest.with { $0.service = self.service }
    let name = self.service.isEmpty ? "the suite" : self.service
    let status: Grpc_Health_V1_HealthCheckResponse.ServingStatus
    if let wait {
      var options = CallOptions.defaults
      options.timeout = .milliseconds(Int64(wait * 1000))
      do {
        status = try await gateway.health.watch(request, options: options) { response in
          var last = Grpc_Health_V1_HealthCheckResponse.ServingStatus.unknown
          for try await message in response.messages {
            last = message.status
            if last == .serving || last == .serviceUnknown { break }
          }
          return last
        }
      } catch let error as RPCError where error.code == .deadlineExceeded {
        throw CLIError("\(name) was not serving within \(wait) s")
      }
    } else {
      status = try await gateway.health.check(request).status
    }
    print("\(name): \(Self.describe(status))")
    if status != .serving { throw ExitCode.failure }
  }

  private static func describe(_ status: Grpc_Health_V1_HealthCheckResponse.ServingStatus) -> String {
    switch status {
    case .serving: "SERVING"
    case .notServing: "NOT_SERVING"
    case .serviceUnknown: "unknown to the gateway"
    default: "UNKNOWN"
    }
  }
}
