import ArgumentParser
import BinarioProto
import BinarioTransport
import GRPCCore

/// Identity's generated client over the Binario transport: what another service calls identity's
/// internal methods with (`LookupAccounts`, `AreFriends`, `GetDefaultPaymentMethod`).
public typealias IdentityServiceClient = Binario_Identity_V1_Identity.Client<BinarioClientTransport>

extension IdentityServiceClient {
  /// Identity's `LookupAccounts` for any number of ids, asked 500 at a time (its limit per call);
  /// unknown ids are left out.
  public func accounts(ids userIDs: [String]) async throws -> [Binario_Identity_V1_AccountRecord] {
    var found: [Binario_Identity_V1_AccountRecord] = []
    for start in stride(from: 0, to: userIDs.count, by: 500) {
      let page = Array(userIDs[start..<min(start + 500, userIDs.count)])
      found += try await lookupAccounts(.with { $0.userIds = page }).accounts
    }
    return found
  }
}

/// The `--identity-address` setting of a service that calls identity. Add it to the service's
/// command with `@OptionGroup var identityAddress: IdentityAddressOption` and pass
/// ``additionalSettings`` to ``ServiceRunner/run(options:serviceName:additionalSettings:environment:transport:services:)``;
/// then, in the setup closure:
///
/// ```swift
/// let identity = try context.identityClient()
/// ```
public struct IdentityAddressOption: ParsableArguments, Sendable {
  /// The key in the config file; `BINARIO_IDENTITY_ADDRESS` in the environment.
  public static let key = "identityAddress"

  @Option(
    name: .customLong("identity-address"),
    help: ArgumentHelp("Where identity listens (host:port). (BINARIO_IDENTITY_ADDRESS)", valueName: "host:port"))
  public var identityAddress: String?

  public init() {}

  public var additionalSettings: [AdditionalSetting] {
    [AdditionalSetting(key: Self.key, flagValue: identityAddress)]
  }
}

extension ServiceRunnerContext {
  /// Identity's client at the address of the `identityAddress` setting (``IdentityAddressOption``),
  /// presenting this process's certificate; it runs beside the server.
  /// - Throws: ``ConfigurationError`` when the address is missing or malformed, or TLS is not configured.
  public func identityClient() throws -> IdentityServiceClient {
    IdentityServiceClient(
      wrapping: try peerClient(setting: IdentityAddressOption.key, flag: "identity-address", name: "identity", port: 7101))
  }

  /// A client of the peer at the address of setting `key` (`--flag`, `BINARIO_<KEY>`).
  func peerClient(setting key: String, flag: String, name: String, port: Int) throws -> GRPCClient<BinarioClientTransport> {
    guard let address = try additionalSettings.parsed(key, { try ServiceAddress(parsing: $0) }).first else {
      let variable = "BINARIO_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
      throw ConfigurationError(
        setting: key, source: .defaults,
        reason: "set --\(flag) (\(variable)) to where \(name) listens, e.g. \(name):\(port)")
    }
    return try serviceClient(at: address, name: name)
  }
}
