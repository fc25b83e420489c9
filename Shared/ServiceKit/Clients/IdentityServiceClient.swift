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
      let page = Array(userIDs[start ..< min(start + 500, userIDs.count)])
      found += try await lookupAccounts(.with { $0.userIds = page }).accounts
    }
    return found
  }
}

extension ServiceRunnerContext {
  /// Identity's client at the address of the `identityAddress` setting (``IdentityAddressOption``),
  /// presenting this process's certificate; it runs beside the server.
  /// - Throws: ``ConfigurationError`` when the address is missing or malformed, or TLS is not configured.
  public func identityClient() throws -> IdentityServiceClient {
    IdentityServiceClient(wrapping: try peerClient(IdentityPeer.self))
  }
}
