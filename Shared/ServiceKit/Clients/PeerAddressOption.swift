import ArgumentParser
import BinarioTransport
import GRPCCore

/// A service of the suite that others call: its name (the `--<name>-address` flag, the
/// `BINARIO_<NAME>_ADDRESS` variable, the `<name>Address` config key) and its usual port.
public protocol PeerService: Sendable {
  /// `identity`, `scheduling`, `ticketing`, `geo-offers`.
  static var name: String { get }
  /// The port it listens on in run-local and compose (for the error's example).
  static var port: Int { get }
}

/// The `--<peer>-address` setting of a service that calls `Peer`. Add it to the service's
/// command with `@OptionGroup var identityAddress: IdentityAddressOption` and pass
/// ``additionalSettings`` to ``ServiceRunner/run(options:serviceName:additionalSettings:environment:transport:services:)``;
/// then, in the setup closure, `try context.identityClient()` (or ``ServiceRunnerContext/peerClient(_:)``).
public struct PeerAddressOption<Peer: PeerService>: ParsableArguments, Sendable {
  /// The key in the config file (`identityAddress`); `BINARIO_IDENTITY_ADDRESS` in the environment.
  public static var key: String { setting.key }

  /// The setting's declaration: `identityAddress`, whence `--identity-address` and
  /// `BINARIO_IDENTITY_ADDRESS`.
  public static var setting: Setting {
    let words = Peer.name.split(separator: "-")
    let key = ([String(words[0])] + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }).joined() + "Address"
    return Setting(key, help: "Where \(Peer.name) listens (host:port).", valueName: "host:port")
  }

  @Option(name: .customLong(Self.setting.flagName), help: Self.setting.argumentHelp)
  public var address: String?

  public init() {}

  public var additionalSettings: [AdditionalSetting] {
    [Self.setting.given(address)]
  }
}

public enum IdentityPeer: PeerService {
  public static let name = "identity"
  public static let port = 7101
}

public enum SchedulingPeer: PeerService {
  public static let name = "scheduling"
  public static let port = 7102
}

public enum TicketingPeer: PeerService {
  public static let name = "ticketing"
  public static let port = 7103
}

public enum GeoOffersPeer: PeerService {
  public static let name = "geo-offers"
  public static let port = 7104
}

/// Identity's address (`--identity-address`): what calls its internal methods (`LookupAccounts`,
/// `AreFriends`, `GetDefaultPaymentMethod`).
public typealias IdentityAddressOption = PeerAddressOption<IdentityPeer>
/// Scheduling's address (`--scheduling-address`): the timetable and the notification centre's `Notify`.
public typealias SchedulingAddressOption = PeerAddressOption<SchedulingPeer>
/// Ticketing's address (`--ticketing-address`).
public typealias TicketingAddressOption = PeerAddressOption<TicketingPeer>
/// Geo-offers' address (`--geo-offers-address`).
public typealias GeoOffersAddressOption = PeerAddressOption<GeoOffersPeer>

extension ServiceRunnerContext {
  /// A connection to `Peer` at its address setting (``PeerAddressOption``), presenting this
  /// process's certificate; it runs beside the server. Wrap it in each generated client needed.
  /// - Throws: ``ConfigurationError`` when the address is missing or malformed, or TLS is not configured.
  public func peerClient<Peer: PeerService>(_ peer: Peer.Type) throws -> GRPCClient<BinarioClientTransport> {
    let key = PeerAddressOption<Peer>.key
    guard let address = try additionalSettings.parsed(key, { try ServiceAddress(parsing: $0) }).first else {
      let setting = AdditionalSetting(key: key, flagValue: nil)
      throw ConfigurationError(
        setting: key,
        source: .defaults,
        reason: "set \(setting.flag) (\(setting.environmentVariable)) to where \(Peer.name) listens, e.g. \(Peer.name):\(Peer.port)"
      )
    }
    return try serviceClient(at: address, name: Peer.name)
  }

  /// Whether `Peer`'s address is set (for a peer a service can do without).
  public func hasPeerAddress<Peer: PeerService>(_ peer: Peer.Type) -> Bool {
    !additionalSettings.values(PeerAddressOption<Peer>.key).isEmpty
  }

  /// A connection to scheduling (``SchedulingAddressOption``): wrap it in each generated client
  /// needed, e.g. `Binario_Scheduling_V1_Notifications.Client(wrapping: scheduling)`.
  public func schedulingClient() throws -> GRPCClient<BinarioClientTransport> {
    try peerClient(SchedulingPeer.self)
  }
}
