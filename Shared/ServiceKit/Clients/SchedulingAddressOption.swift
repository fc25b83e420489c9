import ArgumentParser
import BinarioTransport
import GRPCCore

/// The `--scheduling-address` setting of a service that calls scheduling (the notification
/// centre's `Notify`, the timetable). Add it like ``IdentityAddressOption``; then, in the setup
/// closure, wrap one connection in each generated client needed:
///
/// ```swift
/// let scheduling = try context.schedulingClient()
/// let notifications = Binario_Scheduling_V1_Notifications.Client(wrapping: scheduling)
/// ```
public struct SchedulingAddressOption: ParsableArguments, Sendable {
  /// The key in the config file; `BINARIO_SCHEDULING_ADDRESS` in the environment.
  public static let key = "schedulingAddress"

  @Option(
    name: .customLong("scheduling-address"),
    help: ArgumentHelp("Where scheduling listens (host:port). (BINARIO_SCHEDULING_ADDRESS)", valueName: "host:port"))
  public var schedulingAddress: String?

  public init() {}

  public var additionalSettings: [AdditionalSetting] {
    [AdditionalSetting(key: Self.key, flagValue: schedulingAddress)]
  }
}

extension ServiceRunnerContext {
  /// A connection to scheduling at the `schedulingAddress` setting (``SchedulingAddressOption``),
  /// presenting this process's certificate; it runs beside the server.
  /// - Throws: ``ConfigurationError`` when the address is missing or malformed, or TLS is not configured.
  public func schedulingClient() throws -> GRPCClient<BinarioClientTransport> {
    try peerClient(setting: SchedulingAddressOption.key, flag: "scheduling-address", name: "scheduling", port: 7102)
  }
}
