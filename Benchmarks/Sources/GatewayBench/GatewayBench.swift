import ArgumentParser
import BenchSupport
import BinarioAuth
import BinarioDevCertificates
import BinarioProto
import BinarioServiceKit
import BinarioStorage
import BinarioTransport
import Foundation
import GRPCCore
import GatewayService
import IdentityService
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// `gateway-bench`: logins per second, and token-checked calls (`Identity/GetMe`) per second
/// through the gateway versus the same call made directly to identity (with the gateway's
/// certificate and caller metadata, as the gateway forwards it), at 1 and 64 in flight; and, as
/// the floor of the gateway's latency, a health check the gateway answers itself.
///
/// Identity, the gateway and the load all run in this one process over real TLS on loopback, on
/// NIO's shared event loops: the figures compare the two paths on the same machine and
/// include the gateway's CPU; they are not the figures of separate processes.
@main
struct GatewayBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "gateway-bench",
    abstract: "Logins/s, and token-checked calls through the gateway versus directly to identity."
  )

  @Option(help: "Seconds per measured case.") var seconds: Double = 3
  @Option(help: "Runs per case (alternating gateway and direct).") var runs: Int = 3
  @Option(help: "Seconds of logins to measure.") var loginSeconds: Double = 3
  @Option(help: "The paths to measure (gateway, direct, gateway-health); all by default.")
  var paths: [BenchPath] = BenchPath.allCases
  @Option(help: "The numbers of calls in flight to measure at.") var inFlight: [Int] = [1, 64]
  @OptionGroup var executor: ExecutorOptions
  @Flag(help: "Run the gateway on an event loop of its own (named NIO-ELT-…, one thread), to profile it apart.")
  var isolatedGateway = false

  func run() throws {
    try EventLoopConcurrency.run(installing: self.executor.nioExecutor) { try await self.measure() }
  }

  func measure() async throws {
    let setup = try await BenchSetup.start(
      gatewayGroup: self.isolatedGateway ? MultiThreadedEventLoopGroup(numberOfThreads: 1) : MultiThreadedEventLoopGroup.singleton)
    let duration = Duration.milliseconds(Int64(self.seconds * 1000))

    let logins = try await setup.measureLogins(for: .milliseconds(Int64(self.loginSeconds * 1000)), inFlight: 4)
    print("logins: \(Int(logins.callsPerSecond)) per second (4 in flight, identity's production password hashing), p50 \(Int(logins.percentile(0.5))) µs")

    print("")
    print("| path | in flight | calls/s | p50 µs | p99 µs | CPU µs/call | switches/call |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    var medians: [String: Double] = [:]
    var p50s: [String: Double] = [:]
    for inFlight in self.inFlight {
      var results: [String: [LoadResult]] = [:]
      for _ in 0..<self.runs {
        for path in self.paths {
          let result = try await setup.measure(path, inFlight: inFlight, for: duration)
          if let failure = result.firstFailure { print("warning: \(result.failures) failed calls (\(path.rawValue)): \(failure)") }
          results[path.rawValue, default: []].append(result)
        }
      }
      for path in self.paths.map(\.rawValue) {
        let sorted = results[path]!.sorted { $0.callsPerSecond < $1.callsPerSecond }
        let median = sorted[sorted.count / 2]
        medians["\(path)-\(inFlight)"] = median.callsPerSecond
        p50s["\(path)-\(inFlight)"] = median.percentile(0.5)
        let cpu = median.cpuPerCall.map { String(Int($0)) } ?? "-"
        let switches = median.contextSwitchesPerCall.map { String(format: "%.1f", $0) } ?? "-"
        print("| \(path) | \(inFlight) | \(Int(median.callsPerSecond)) | \(Int(median.percentile(0.5))) | \(Int(median.percentile(0.99))) | \(cpu) | \(switches) |")
      }
    }
    print("")
    let added = (p50s["gateway-1"] ?? 0) - (p50s["direct-1"] ?? 0)
    print("gateway adds \(Int(added)) µs to p50 at 1 in flight")
    let ratio = (medians["gateway-64"] ?? 0) / max(medians["direct-64"] ?? 1, 1e-9)
    print("gateway/direct throughput ratio at 64 in flight: \(String(format: "%.2f", ratio))")
    await setup.stop()
  }
}

/// Identity and the gateway, running in this process, and a signed-in account.
struct BenchSetup {
  /// Kept for the whole run: the temporary database is removed when released.
  let database: TemporaryDatabase
  let identityServer: GRPCServer<BinarioServerTransport>
  let identityTask: Task<Void, any Error>
  let gateway: Gateway
  let gatewayBackground: Task<Void, Never>
  let listener: BinarioListener
  let toGateway: BinarioClientConnection
  let toIdentity: BinarioClientConnection
  let userID: String
  let accessToken: String
  let email: String
  let password: String

  static func start(gatewayGroup: any EventLoopGroup) async throws -> BenchSetup {
    var quiet = Logger(label: "gateway-bench")
    quiet.logLevel = .error
    let ca = try DevCertificateAuthority.create(commonName: "Gateway Bench CA")
    let identityLeaf = try ca.issue(commonName: "identity", uriSANs: ["spiffe://binario/identity"], dnsSANs: ["localhost"])
    let gatewayLeaf = try ca.issue(commonName: "gateway", uriSANs: ["spiffe://binario/gateway"], dnsSANs: ["localhost"])
    func mutual(_ leaf: DevLeafCertificate) -> BinarioTLSConfiguration {
      .mutual(certificateChain: .pem(leaf.certificatePEM), privateKey: .pem(leaf.privateKeyPEM), trustRoots: .pem(ca.certificatePEM))
    }

    let database = try TemporaryDatabase(migrations: IdentityMigrations.all)
    let store = IdentityStore(pool: database.pool)
    let domain = try await IdentityDomain.start(store: store)
    let email = "bench@example.com"
    let password = "correct horse 42"
    let account = try await domain.register(
      PersonalDetails(
        email: email, password: password, firstName: "Bench", lastName: "Mark",
        phone: "+393331234567", birthDate: "1990-05-17", gender: .other)
    )
    let mail = try await store.outboxMessages(recipient: email, limit: 1)
    let code = String(mail.first?.subject.split(separator: " ").last ?? "")
    try await domain.confirmEmail(email: email, code: code)

    let transport = BinarioServerTransport(host: "127.0.0.1", port: 0, tls: mutual(identityLeaf))
    let identityServer = GRPCServer(
      transport: transport,
      services: [IdentityHandler(domain: domain, logger: quiet)],
      interceptors: [AuthorizationServerInterceptor(policy: .identity)]
    )
    let identityTask = Task { try await identityServer.serve() }
    let identityPort = try await transport.listeningAddress().port!

    let gateway = try Gateway(
      configuration: GatewayConfiguration(
        routing: try RoutingTable(upstreams: ["identity": UpstreamAddress(host: "127.0.0.1", port: identityPort)]),
        upstreamTLS: mutual(gatewayLeaf)
      ),
      group: gatewayGroup,
      logger: quiet
    )
    let services = gateway.backgroundServices
    let gatewayBackground = Task {
      await withThrowingTaskGroup(of: Void.self) { group in
        for service in services { group.addTask { try await service.run() } }
        while (try? await group.next()) != nil {}
      }
    }
    let listener = try await BinarioListener.bind(
      host: "127.0.0.1",
      port: 0,
      tls: .serverOnly(certificateChain: .pem(gatewayLeaf.certificatePEM), privateKey: .pem(gatewayLeaf.privateKeyPEM)),
      group: gatewayGroup,
      logger: quiet,
      acceptor: gateway.acceptor
    )
    await gateway.signingKeys.waitUntilLoaded()

    let clientTLS = try mutual(gatewayLeaf).makeClientContext(verifyHostname: false)
    let toGateway = try await BinarioClientConnection.connect(
      host: "127.0.0.1", port: listener.localAddress!.port!, serverHostname: nil, tls: clientTLS, logger: quiet)
    let toIdentity = try await BinarioClientConnection.connect(
      host: "127.0.0.1", port: identityPort, serverHostname: nil, tls: clientTLS, logger: quiet)

    var setup = BenchSetup(
      database: database,
      identityServer: identityServer, identityTask: identityTask, gateway: gateway,
      gatewayBackground: gatewayBackground, listener: listener, toGateway: toGateway, toIdentity: toIdentity,
      userID: account.id, accessToken: "", email: email, password: password
    )
    setup = BenchSetup(
      database: database,
      identityServer: identityServer, identityTask: identityTask, gateway: gateway,
      gatewayBackground: gatewayBackground, listener: listener, toGateway: toGateway, toIdentity: toIdentity,
      userID: account.id, accessToken: try await setup.login(), email: email, password: password
    )
    return setup
  }

  private var loginRequest: BinarioCallRequest {
    let payload = try! Binario_Identity_V1_LoginRequest.with {
      $0.email = self.email
      $0.password = self.password
    }.serializedData()
    return BinarioCallRequest(method: "/binario.identity.v1.Identity/Login", firstMessage: payload, halfClose: true)
  }

  func login() async throws -> String {
    let response = NIOLockedValueBoxHolder()
    let end = await withCheckedContinuation { (continuation: CheckedContinuation<WireEnd, Never>) in
      _ = self.toGateway.openCall(self.loginRequest) { event in
        switch event {
        case .message(let data): response.set(data)
        case .headers: ()
        case .end(let end): continuation.resume(returning: end)
        }
      }
    }
    guard end.statusCode == 0, let data = response.get() else {
      throw BenchError(message: "login failed: \(end.statusCode) \(end.statusMessage)")
    }
    return try Binario_Identity_V1_LoginResponse(serializedBytes: data).tokens.accessToken
  }

  func measureLogins(for duration: Duration, inFlight: Int) async throws -> LoadResult {
    try await FrameCallLoad.run(self.loginRequest, on: self.toGateway, concurrency: inFlight, for: duration)
  }

  func measure(_ path: BenchPath, inFlight: Int, for duration: Duration) async throws -> LoadResult {
    let payload = try Binario_Identity_V1_GetMeRequest().serializedData()
    let method = "/binario.identity.v1.Identity/GetMe"
    var metadata = WireMetadata()
    func entry(_ key: String, _ value: String) -> WireMetadataEntry {
      var entry = WireMetadataEntry()
      entry.key = key
      entry.value = .text(value)
      return entry
    }
    switch path {
    case .gatewayHealth:
      let health = try Grpc_Health_V1_HealthCheckRequest().serializedData()
      return try await FrameCallLoad.run(
        BinarioCallRequest(method: "/grpc.health.v1.Health/Check", firstMessage: health, halfClose: true),
        on: self.toGateway, concurrency: inFlight, for: duration)
    case .gateway:
      metadata.append(entry("authorization", "Bearer \(self.accessToken)"))
      return try await FrameCallLoad.run(
        BinarioCallRequest(method: method, metadata: metadata, firstMessage: payload, halfClose: true),
        on: self.toGateway, concurrency: inFlight, for: duration)
    case .direct:
      // What the gateway forwards: the caller as metadata, on a connection with its certificate.
      metadata.append(entry("x-user-id", self.userID))
      metadata.append(entry("x-roles", "passenger"))
      metadata.append(entry("x-session-id", "bench"))
      return try await FrameCallLoad.run(
        BinarioCallRequest(method: method, metadata: metadata, firstMessage: payload, halfClose: true),
        on: self.toIdentity, concurrency: inFlight, for: duration)
    }
  }

  func stop() async {
    self.toGateway.close()
    self.toIdentity.close()
    self.gatewayBackground.cancel()
    await self.gatewayBackground.value
    self.gateway.enterShutdown()
    self.listener.beginGracefulShutdown(gracePeriod: .seconds(1))
    await self.listener.waitUntilClosed()
    self.gateway.shutDownUpstreams()
    self.identityServer.beginGracefulShutdown()
    _ = try? await self.identityTask.value
  }
}

/// The ways a call is measured.
enum BenchPath: String, CaseIterable, ExpressibleByArgument {
  /// `Identity/GetMe` through the gateway: token check, then forwarded to identity.
  case gateway
  /// The same call straight to identity, with the metadata the gateway would forward.
  case direct
  /// `grpc.health.v1.Health/Check`, which the gateway answers itself (upstream status cached):
  /// the cost of the hop to the gateway and back, without an upstream.
  case gatewayHealth = "gateway-health"
}

struct BenchError: Error, CustomStringConvertible {
  var message: String
  var description: String { self.message }
}

/// A value set on the event loop and read after the call ended.
final class NIOLockedValueBoxHolder: Sendable {
  private let box = NIOLockedValueBox<Data?>(nil)
  func set(_ data: Data) { self.box.withLockedValue { $0 = data } }
  func get() -> Data? { self.box.withLockedValue { $0 } }
}
