import ArgumentParser
import BinarioAuth
import BinarioEvents
import BinarioServiceKit
import Foundation
import IdentityService

/// The identity process: accounts, sessions and tokens (password, reset, Google), profiles and
/// phone verification, roles, friends and contacts, emergency contacts, payment methods,
/// administration. Listens on the Binario transport (mutual TLS), keeps `identity.sqlite` in its data
/// directory, and creates its signing key (and, if configured, the first admin) at first start.
public struct IdentityCommand: EventLoopCommand {
  public static let configuration = CommandConfiguration(
    commandName: "identity",
    abstract: "Binario's identity service."
  )

  @OptionGroup var options: ServiceOptions
  @OptionGroup var identity: IdentityOptions

  /// The services that follow identity's events (docs/events.md): only they may read the log,
  /// and it keeps events until each has acknowledged them.
  static let eventConsumers = ["scheduling", "geo-offers", "telemetry", "ticketing", "dispatch"]

  public init() {}

  public func runOnEventLoops() async throws {
    try await ServiceRunner.run(options: options, serviceName: "identity", additionalSettings: identity.given, transport: .binario) { context in
      let policy = try IdentityOptions.policy(context.additionalSettings)
      let admin = try IdentityOptions.admin(context.additionalSettings)
      let google = try IdentityOptions.googleSignIn(context.additionalSettings)
      let store = try IdentityStore(directory: try context.ownDataDirectory())
      context.backUp(database: store.database)
      let domain = try await IdentityDomain.start(
        store: store,
        policy: policy,
        googleSignIn: google.map { OpenIDConnectVerifier(configuration: $0) }
      )
      if let google {
        context.logger.notice("sign-in with Google enabled", metadata: ["google.client_id": "\(google.clientID)"])
      }
      if let admin {
        if let created = try await domain.ensureFirstAdmin(email: admin.email, password: admin.password) {
          context.logger.notice("made the first admin", metadata: ["email": "\(created.email)"])
        }
      }
      // The gateways' revocation feeds would otherwise hold the drain open for the whole grace
      // period; ended, each gateway subscribes again (to this process once it is back).
      context.onGracefulShutdown { domain.revocations.close() }
      let events = context.addEventLog(
        EventLog(producer: "identity", database: store.database, outbox: store.events, consumers: Self.eventConsumers)
      )
      context.checkAccess(with: AuthorizationServerInterceptor(policy: .identity.merging(.events).merging(.health)))
      return [IdentityHandler(domain: domain), events]
    }
  }
}
