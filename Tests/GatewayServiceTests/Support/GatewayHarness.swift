import BinarioDomain
import BinarioEcho
import BinarioTransport
import GRPCCore
import GatewayService
import Logging
import NIOCore
import NIOPosix

/// An upstream service: a GRPCServer on the Binario transport (mutual TLS) on 127.0.0.1.
final class TestUpstream: Sendable {
  let transport: BinarioServerTransport
  let server: GRPCServer<BinarioServerTransport>
  let port: Int
  private let task: Task<Void, any Error>

  private init(transport: BinarioServerTransport, server: GRPCServer<BinarioServerTransport>, port: Int, task: Task<Void, any Error>) {
    self.transport = transport
    self.server = server
    self.port = port
    self.task = task
  }

  static func start(
    services: [any RegistrableRPCService],
    interceptors: [any ServerInterceptor] = [],
    port: Int = 0
  ) async throws -> TestUpstream {
    let transport = BinarioServerTransport(host: "127.0.0.1", port: port, tls: GatewayTestPKI.upstreamTLS)
    let server = GRPCServer(transport: transport, services: services, interceptors: interceptors)
    let task = Task { try await server.serve() }
    let bound = try await transport.listeningAddress().port!
    return TestUpstream(transport: transport, server: server, port: bound, task: task)
  }

  /// Stops taking calls and waits until the server has stopped.
  func stop() async {
    self.server.beginGracefulShutdown()
    _ = try? await self.task.value
  }

  /// Stops at once, cancelling open calls (for handlers that would hold a graceful stop open).
  func kill() async {
    self.task.cancel()
    _ = try? await self.task.value
  }
}

/// Runs an upstream for the duration of `body`.
func withUpstream<Result: Sendable>(
  services: [any RegistrableRPCService],
  _ body: (_ upstream: TestUpstream) async throws -> Result
) async throws -> Result {
  let upstream = try await TestUpstream.start(services: services)
  do {
    let result = try await body(upstream)
    await upstream.stop()
    return result
  } catch {
    await upstream.stop()
    throw error
  }
}

/// Lets every call through, signed out.
struct AllowAllAuthorizer: CallAuthorizer {
  func authorize(method: String, authorization: String?) -> AuthorizationDecision { .allow(nil) }
}

/// Decides with a closure.
struct StubAuthorizer: CallAuthorizer {
  let decide: @Sendable (String, String?) -> AuthorizationDecision
  func authorize(method: String, authorization: String?) -> AuthorizationDecision { self.decide(method, authorization) }
}

/// A running gateway: its listener, and the assembled gateway behind it.
struct RunningGateway: Sendable {
  let gateway: Gateway
  let listener: BinarioListener
  var port: Int { self.listener.localAddress!.port! }
}

/// Runs a gateway on 127.0.0.1 (ephemeral port) routing to `upstreams` for the duration of `body`,
/// then shuts it down gracefully.
func withGateway<Result: Sendable>(
  upstreams: [String: Int],
  routes: [String: String] = [:],
  rateLimit: RateLimit? = nil,
  authorizer: (any CallAuthorizer)? = AllowAllAuthorizer(),
  clock: any GatewayClock = SystemGatewayClock(),
  healthCacheDuration: Duration = .zero,
  healthWatchInterval: Duration = .milliseconds(50),
  metrics: GatewayMetrics? = nil,
  upstreamHold: UpstreamHold? = nil,
  _ body: (_ gateway: RunningGateway) async throws -> Result
) async throws -> Result {
  let configuration = GatewayConfiguration(
    routing: try RoutingTable(
      upstreams: upstreams.mapValues { UpstreamAddress(host: "127.0.0.1", port: $0) },
      routes: routes
    ),
    upstreamTLS: GatewayTestPKI.gatewayClientTLS,
    rateLimit: rateLimit,
    upstreamPool: .init(initialBackoff: .milliseconds(20), maximumBackoff: .milliseconds(200)),
    upstreamHold: upstreamHold,
    healthCacheDuration: healthCacheDuration,
    healthCheckTimeout: .seconds(2),
    healthWatchInterval: healthWatchInterval,
    identityRetry: Backoff(initial: .milliseconds(20), maximum: .milliseconds(200)),
    minimumKeyRefreshInterval: .zero
  )
  var logger = Logger(label: "gateway-test")
  logger.logLevel = .debug
  let gateway = try Gateway(configuration: configuration, authorizer: authorizer, clock: clock, metrics: metrics, logger: logger)
  let listener = try await BinarioListener.bind(
    host: "127.0.0.1",
    port: 0,
    tls: GatewayTestPKI.gatewayListenerTLS,
    logger: logger,
    acceptor: gateway.acceptor
  )
  let running = RunningGateway(gateway: gateway, listener: listener)
  let background = Task {
    await withThrowingTaskGroup(of: Void.self) { group in
      for service in gateway.backgroundServices { group.addTask { try await service.run() } }
      while (try? await group.next()) != nil {}
    }
  }
  func shutDown() async {
    background.cancel()
    await background.value
    gateway.enterShutdown()
    listener.beginGracefulShutdown(gracePeriod: .seconds(2))
    await listener.waitUntilClosed()
    gateway.shutDownUpstreams()
  }
  do {
    let result = try await body(running)
    await shutDown()
    return result
  } catch {
    await shutDown()
    throw error
  }
}

/// A GRPCClient to the gateway for the duration of `body`.
func withGatewayClient<Result: Sendable>(
  _ gateway: RunningGateway,
  _ body: (_ client: GRPCClient<BinarioClientTransport>) async throws -> Result
) async throws -> Result {
  let transport = try BinarioClientTransport(host: "127.0.0.1", port: gateway.port, tls: GatewayTestPKI.clientTLS)
  return try await withGRPCClient(transport: transport) { client in
    try await body(client)
  }
}

/// A port nothing listens on.
func unusedPort() async throws -> Int {
  let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .bind(host: "127.0.0.1", port: 0).get()
  let port = channel.localAddress!.port!
  try await channel.close()
  return port
}
