import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore
import SwiftProtobuf

/// A connection to the gateway for the length of one command. ``SessionClientInterceptor``
/// attaches the signed-in session's token to the calls that need it, and every call but a watch
/// has the `--timeout`: commands just call.
struct GatewayConnection {
  let identity: Binario_Identity_V1_Identity.Client<BinarioClientTransport>
  let scheduling: Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>
  let notifications: Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>
  let itineraries: Binario_Scheduling_V1_Itineraries.Client<BinarioClientTransport>
  let tickets: Binario_Ticketing_V1_Tickets.Client<BinarioClientTransport>
  let subscriptions: Binario_Ticketing_V1_Subscriptions.Client<BinarioClientTransport>
  let geoOffers: Binario_GeoOffers_V1_GeoOffers.Client<BinarioClientTransport>
  let dispatch: Binario_Dispatch_V1_Dispatch.Client<BinarioClientTransport>
  let telemetry: Binario_Telemetry_V1_Telemetry.Client<BinarioClientTransport>
  /// The gateway's own health service (it answers for itself and its upstreams).
  let health: Grpc_Health_V1_Health.Client<BinarioClientTransport>
  private(set) var sessionFile: SessionFile

  /// Connects (lazily: the first call dials), runs `body`, then closes the connection.
  static func with<Result: Sendable>(
    _ gatewayOptions: GatewayConnectionOptions,
    _ body: (GatewayConnection) async throws -> Result
  ) async throws -> Result {
    let (host, port) = try gatewayOptions.endpoint()
    guard FileManager.default.fileExists(atPath: gatewayOptions.caFile) else {
      throw CLIError(
        "the CA file \(gatewayOptions.caFile) does not exist: pass --ca (or set BINARIO_CA) to the CA that signed the gateway's certificate"
      )
    }
    // Every call but a server stream (a watch, which runs until stopped) has --timeout.
    let timeout = gatewayOptions.timeoutSeconds > 0 ? Duration.milliseconds(Int64(gatewayOptions.timeoutSeconds * 1000)) : nil
    let transport = try BinarioClientTransport(
      host: host,
      port: port,
      tls: .client(trustRoots: .file(gatewayOptions.caFile)),
      methodConfig: { descriptor in
        descriptor.type == .serverStreaming || descriptor.type == .bidirectionalStreaming
          ? nil : MethodConfig(names: [], timeout: timeout)
      }
    )
    let session = SessionSource()
    return try await withGRPCClient(transport: transport, interceptors: [SessionClientInterceptor(session: session)]) { client in
      let gateway = GatewayConnection(
        identity: Binario_Identity_V1_Identity.Client(wrapping: client),
        scheduling: Binario_Scheduling_V1_Scheduling.Client(wrapping: client),
        notifications: Binario_Scheduling_V1_Notifications.Client(wrapping: client),
        itineraries: Binario_Scheduling_V1_Itineraries.Client(wrapping: client),
        tickets: Binario_Ticketing_V1_Tickets.Client(wrapping: client),
        subscriptions: Binario_Ticketing_V1_Subscriptions.Client(wrapping: client),
        geoOffers: Binario_GeoOffers_V1_GeoOffers.Client(wrapping: client),
        dispatch: Binario_Dispatch_V1_Dispatch.Client(wrapping: client),
        telemetry: Binario_Telemetry_V1_Telemetry.Client(wrapping: client),
        health: Grpc_Health_V1_Health.Client(wrapping: client),
        sessionFile: SessionFile(path: gatewayOptions.sessionFile)
      )
      session.attach(gateway)
      return try await body(gateway)
    }
  }

  /// The same connection with another session (an admin's, say).
  func with(sessionFile: SessionFile) -> GatewayConnection {
    var other = self
    other.sessionFile = sessionFile
    return other
  }

  /// Metadata carrying the signed-in session's access token, refreshed first if it is about to
  /// expire. Throws when nobody is signed in.
  func signedIn() async throws -> Metadata {
    guard var session = try self.sessionFile.load() else {
      throw CLIError("not signed in: run 'binario login --email <address>' first")
    }
    if session.accessTokenExpiresAt.timeIntervalSinceNow < 30 {
      session = try await self.refresh(session)
    }
    return bearer(session.accessToken)
  }

  /// The token metadata if someone is signed in, else none (for public methods that behave
  /// differently for a signed-in caller).
  func signedInIfAny() async throws -> Metadata {
    guard try self.sessionFile.load() != nil else { return [:] }
    return try await self.signedIn()
  }

  /// Trades the session's refresh token for a new pair and stores it.
  @discardableResult
  func refresh(_ session: StoredSession) async throws -> StoredSession {
    let response = try await self.identity.refresh(.with { $0.refreshToken = session.refreshToken })
    let renewed = StoredSession(tokens: response.tokens, email: session.email)
    try self.sessionFile.save(renewed)
    return renewed
  }
}

extension StoredSession {
  init(tokens: Binario_Identity_V1_TokenPair, email: String) {
    self.init(
      userID: tokens.userID,
      email: email,
      roles: tokens.roles.map(\.displayName),
      accessToken: tokens.accessToken,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt.date,
      refreshToken: tokens.refreshToken,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt.date
    )
  }
}

/// Metadata carrying an access token, as the gateway expects it.
func bearer(_ accessToken: String) -> Metadata {
  ["authorization": "Bearer \(accessToken)"]
}
