import BinarioDevCertificates
import BinarioProto
import BinarioTransport
import BinarioWebPush
import Foundation
import GRPCCore
import Synchronization

/// The suite as separate processes on loopback: `identity`, `scheduling` (with the demo
/// network), `ticketing` (with the demo fare table), `geo-offers` (with the demo shops, deals,
/// places and route offers), `dispatch` (with Milan's taxi zones), `telemetry` and `gateway` with
/// development certificates and SQLite files in a temporary folder, as `scripts/run-local.sh` starts them.
/// The end-to-end tests and `gateway-bench` run against it.
public final class RunningSuite: Sendable {
  public static let adminEmail = "admin@binario.test"
  public static let adminPassword = "admin-password-123"

  /// Flags added to each process's command line, after the suite's own.
  public struct ExtraFlags: Sendable {
    public var identity: [String]
    public var scheduling: [String]
    public var ticketing: [String]
    public var geoOffers: [String]
    public var dispatch: [String]
    public var telemetry: [String]
    public var gateway: [String]
    /// Flags for every process (before its own extra ones).
    public var all: [String]
    /// Environment variables set for every process.
    public var environment: [String: String]

    public init(
      identity: [String] = [],
      scheduling: [String] = [],
      ticketing: [String] = [],
      geoOffers: [String] = [],
      dispatch: [String] = [],
      telemetry: [String] = [],
      gateway: [String] = [],
      all: [String] = [],
      environment: [String: String] = [:]
    ) {
      self.all = all
      self.environment = environment
      self.identity = identity
      self.scheduling = scheduling
      self.ticketing = ticketing
      self.geoOffers = geoOffers
      self.dispatch = dispatch
      self.telemetry = telemetry
      self.gateway = gateway
    }
  }

  public let folder: URL
  private let extraFlags: ExtraFlags
  private let processes: Mutex<[String: ServiceProcess]>

  /// Scheduling's VAPID key, new for each suite: pushes to browsers go out signed with it, to push
  /// services whose TLS chains to the suite's CA (a test's ``StandInPushService``).
  public let webPushPrivateKey = VAPIDIdentity.generatePrivateKey()

  public var certificates: URL { self.folder.appendingPathComponent("certs") }
  public var caFile: String { self.certificates.appendingPathComponent("ca.pem").path }
  public var gatewayPort: Int { self.processes.withLock { $0["gateway"]!.port } }
  /// The gateway's gRPC (HTTP/2) front door.
  public var gatewayGRPCPort: Int { self.processes.withLock { $0["gateway"]!.port(of: "grpc") } }
  /// The gateway's HTTP/JSON front door.
  public var gatewayHTTPPort: Int { self.processes.withLock { $0["gateway"]!.port(of: "http") } }

  /// This package's folder (the tests' tools live under it: `.tools/`, `proto/`).
  public static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  /// Swagger UI, as `scripts/install-swagger-ui.sh` installs it.
  public static let documentationFolder = packageRoot.appendingPathComponent(".tools/swagger-ui")
  /// The web app the gateway serves at `/`.
  public static let webFolder = packageRoot.appendingPathComponent("clients/web")
  /// Where Debian's libjs packages put the web app's libraries (`scripts/install-system-packages.sh`).
  public static let webLibrariesFolder = URL(fileURLWithPath: "/usr/share/javascript")
  /// Whether the web app's libraries are installed, so the gateway can serve it.
  public static var webAppLibrariesInstalled: Bool {
    ["leaflet/leaflet.min.js", "chart.js/chart.min.js", "qrcode-generator/qrcode.js"].allSatisfy {
      FileManager.default.fileExists(atPath: webLibrariesFolder.appendingPathComponent($0).path)
    }
  }
  public var identityPort: Int { self.processes.withLock { $0["identity"]!.port } }
  public var schedulingPort: Int { self.processes.withLock { $0["scheduling"]!.port } }
  public var ticketingPort: Int { self.processes.withLock { $0["ticketing"]!.port } }
  /// Geo-offers' port, chosen before anything starts: ticketing and geo-offers call each other.
  public let geoOffersPort: Int
  /// Dispatch's port, chosen before anything starts: a test restarts it there after `kill -9`.
  public let dispatchPort: Int
  /// Telemetry's port, chosen before anything starts: a test restarts it there after `kill -9`.
  public let telemetryPort: Int
  /// Milan's taxi zones and the demo area's addresses dispatch loads.
  public static let demoZones = packageRoot.appendingPathComponent("Services/Dispatch/DemoData/zones.json")
  public static let demoAddresses = packageRoot.appendingPathComponent("Services/Dispatch/DemoData/addresses.json")
  /// The demo shops, deals, places and route offers geo-offers loads at first start.
  public static let demoOffers = packageRoot.appendingPathComponent("Services/GeoOffers/DemoData/offers.json")
  /// The demo fare table ticketing loads.
  public static let demoFareTable = packageRoot.appendingPathComponent("Services/Ticketing/DemoFares/fares.json")
  /// The demo network scheduling loads at first start.
  public static let demoNetworkFolder = packageRoot.appendingPathComponent("Services/Scheduling/DemoNetwork")
  /// The port of each running service's `/metrics` endpoint, by executable name.
  public var metricsPorts: [String: Int] { self.processes.withLock { $0.mapValues { $0.port(of: "metrics") } } }
  /// The process ids of the running services, by executable name.
  public var processIdentifiers: [String: Int32] { self.processes.withLock { $0.mapValues(\.processIdentifier) } }

  private init(folder: URL, extraFlags: ExtraFlags) throws {
    self.folder = folder
    self.extraFlags = extraFlags
    self.processes = Mutex([:])
    self.geoOffersPort = try ServiceProcess.unusedPort()
    self.dispatchPort = try ServiceProcess.unusedPort()
    self.telemetryPort = try ServiceProcess.unusedPort()
  }

  /// Starts identity, scheduling, ticketing, geo-offers, then the gateway routing to them; runs
  /// `body`; stops them all and removes the folder. `prepare` runs first, with the data folder
  /// of each service (`data/<name>`) still empty: a benchmark's database written beforehand.
  public static func with<Result: Sendable>(
    extraFlags: ExtraFlags = ExtraFlags(),
    prepare: (_ dataFolder: (String) -> URL) async throws -> Void = { _ in },
    _ body: (RunningSuite) async throws -> Result
  ) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binario-suite-\(UUID().uuidString)")
    let suite = try RunningSuite(folder: folder, extraFlags: extraFlags)
    defer {
      suite.stopAll()
      try? FileManager.default.removeItem(at: folder)
    }
    _ = try DevCertificateSet.write(to: suite.certificates)
    try await prepare { folder.appendingPathComponent("data/\($0)") }
    try await suite.startIdentity(port: 0)
    try await suite.startScheduling(port: 0)
    try await suite.startTicketing(port: 0)
    try await suite.startGeoOffers()
    try await suite.startDispatch()
    try await suite.startTelemetry()
    try await suite.startGateway()
    return try await body(suite)
  }

  private func commonFlags(_ name: String) -> [String] {
    let certificates = self.certificates.path
    return [
      "--host", "127.0.0.1",
      "--tls-certificate", "\(certificates)/\(name).pem",
      "--tls-private-key", "\(certificates)/\(name).key",
      "--tls-trusted-ca", "\(certificates)/ca.pem",
      "--data-directory", self.folder.appendingPathComponent("data/\(name)").path,
      "--metrics-host", "127.0.0.1", "--metrics-port", "0",
    ] + self.extraFlags.all
  }

  /// Starts identity on `port` (0: any) with its data folder (kept across restarts).
  public func startIdentity(port: Int) async throws {
    let process = try await ServiceProcess.start(
      "identity",
      arguments: self.commonFlags("identity") + ["--port", "\(port)"] + self.extraFlags.identity,
      environment: self.extraFlags.environment.merging(
        ["BINARIO_ADMIN_EMAIL": Self.adminEmail, "BINARIO_ADMIN_PASSWORD": Self.adminPassword]) { $1 }
    )
    self.processes.withLock { $0["identity"] = process }
  }

  /// Starts scheduling on `port` (0: any) with its data folder (kept across restarts), the demo
  /// network loaded at first start, calling identity.
  public func startScheduling(port: Int) async throws {
    let process = try await ServiceProcess.start(
      "scheduling",
      arguments: self.commonFlags("scheduling") + [
        "--port", "\(port)", "--identity-address", "127.0.0.1:\(self.identityPort)",
        "--timetable-folder", Self.demoNetworkFolder.path,
        "--web-push-trust-roots", self.caFile, "--web-push-subject", "mailto:operations@binario.test",
      ] + self.extraFlags.scheduling,
      environment: self.extraFlags.environment.merging(["BINARIO_WEB_PUSH_PRIVATE_KEY": self.webPushPrivateKey]) { $1 }
    )
    self.processes.withLock { $0["scheduling"] = process }
  }

  /// Starts ticketing on `port` (0: any) with its data folder (kept across restarts) and the demo
  /// fare table, calling identity and scheduling.
  public func startTicketing(port: Int) async throws {
    let process = try await ServiceProcess.start(
      "ticketing",
      arguments: self.commonFlags("ticketing") + [
        "--port", "\(port)", "--identity-address", "127.0.0.1:\(self.identityPort)",
        "--scheduling-address", "127.0.0.1:\(self.schedulingPort)", "--fare-table", Self.demoFareTable.path,
        "--geo-offers-address", "127.0.0.1:\(self.geoOffersPort)",
      ] + self.extraFlags.ticketing,
      environment: self.extraFlags.environment
    )
    self.processes.withLock { $0["ticketing"] = process }
  }

  /// Starts geo-offers on its port with its data folder (kept across restarts) and the demo
  /// offers, calling scheduling and ticketing, following identity's events.
  public func startGeoOffers() async throws {
    let process = try await ServiceProcess.start(
      "geo-offers",
      arguments: self.commonFlags("geo-offers") + [
        "--port", "\(self.geoOffersPort)", "--identity-address", "127.0.0.1:\(self.identityPort)",
        "--scheduling-address", "127.0.0.1:\(self.schedulingPort)",
        "--ticketing-address", "127.0.0.1:\(self.ticketingPort)", "--demo-data", Self.demoOffers.path,
      ] + self.extraFlags.geoOffers,
      environment: self.extraFlags.environment,
      events: ["stations in step with scheduling"]
    )
    self.processes.withLock { $0["geo-offers"] = process }
  }

  /// Starts dispatch on its port with its data folder (kept across restarts), Milan's zones and
  /// the demo addresses, calling identity and scheduling; the suite's admin is alerted.
  public func startDispatch() async throws {
    let process = try await ServiceProcess.start(
      "dispatch",
      arguments: self.commonFlags("dispatch") + [
        "--port", "\(self.dispatchPort)", "--identity-address", "127.0.0.1:\(self.identityPort)",
        "--scheduling-address", "127.0.0.1:\(self.schedulingPort)", "--zones", Self.demoZones.path,
        "--addresses", Self.demoAddresses.path, "--alert-emails", Self.adminEmail, "--test-clock", self.clockFile("dispatch").path,
      ] + self.extraFlags.dispatch,
      environment: self.extraFlags.environment
    )
    self.processes.withLock { $0["dispatch"] = process }
  }

  /// The file a process started with `--test-clock` reads its clock's offset from.
  func clockFile(_ name: String) -> URL {
    folder.appendingPathComponent("\(name).clock")
  }

  /// Moves the clock of `name` (started with `--test-clock`: dispatch) `seconds` ahead: the file
  /// gets the new offset and the process a SIGUSR1; this returns once the process says it runs
  /// at the new offset (`<file>.applied`), and its jobs due by then run at once. A test then
  /// waits for what the jobs do (a stream's event), never for time.
  public func advanceClock(of name: String, by seconds: TimeInterval) async throws {
    let file = clockFile(name)
    let target = clockOffset(of: name) + seconds
    try "\(target)\n".write(to: file, atomically: true, encoding: .utf8)
    guard let pid = processIdentifiers[name] else { throw CocoaError(.fileNoSuchFile) }
    Foundation.kill(pid, SIGUSR1)
    let applied = URL(fileURLWithPath: file.path + ".applied")
    _ = try await eventually("\(name) runs \(target) s ahead") { () -> Bool? in
      let now = (try? String(contentsOf: applied, encoding: .utf8)).flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
      return (now ?? -1) >= target ? true : nil
    }
  }

  /// How far ahead of the wall clock the clock of `name` runs.
  public func clockOffset(of name: String) -> TimeInterval {
    (try? String(contentsOf: clockFile(name), encoding: .utf8)).flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
  }

  /// Starts telemetry on its port with its data folder (kept across restarts), following
  /// identity's events and notifying through scheduling.
  public func startTelemetry() async throws {
    let process = try await ServiceProcess.start(
      "telemetry",
      arguments: self.commonFlags("telemetry") + [
        "--port", "\(self.telemetryPort)", "--identity-address", "127.0.0.1:\(self.identityPort)",
        "--scheduling-address", "127.0.0.1:\(self.schedulingPort)",
      ] + self.extraFlags.telemetry,
      environment: self.extraFlags.environment
    )
    self.processes.withLock { $0["telemetry"] = process }
  }

  /// The gateway with every front door on a free port. Rate limits are off (tests make calls
  /// as fast as they can; a test of the limit passes its own `--rate-limit`); the docs page is
  /// served when Swagger UI is installed, the web app when its libraries are.
  private func startGateway(port: Int = 0) async throws {
    var flags = [
      "--port", "\(port)", "--grpc-port", "0", "--http-port", "0", "--tls-client-authentication", "none",
      "--upstream", "identity=127.0.0.1:\(self.identityPort)",
      "--upstream", "scheduling=127.0.0.1:\(self.schedulingPort)",
      "--upstream", "ticketing=127.0.0.1:\(self.ticketingPort)",
      "--upstream", "geo-offers=127.0.0.1:\(self.geoOffersPort)",
      "--upstream", "dispatch=127.0.0.1:\(self.dispatchPort)", "--upstream", "telemetry=127.0.0.1:\(self.telemetryPort)",
      "--rate-limit", "off",
    ]
    if FileManager.default.fileExists(atPath: Self.documentationFolder.appendingPathComponent("swagger-ui-bundle.js").path) {
      flags += ["--docs-folder", Self.documentationFolder.path]
    }
    if Self.webAppLibrariesInstalled {
      flags += ["--web-folder", Self.webFolder.path, "--web-libraries", Self.webLibrariesFolder.path]
    }
    let process = try await ServiceProcess.start(
      "gateway",
      arguments: self.commonFlags("gateway") + flags + self.extraFlags.gateway,
      environment: self.extraFlags.environment,
      listeners: ["grpc", "http"]
    )
    self.processes.withLock { $0["gateway"] = process }
  }

  /// Returns once the gateway reports identity serving (its health `Watch`), so a call made
  /// next does not meet the gateway's reconnect backoff.
  public func waitUntilTheGatewaySeesIdentityServing() async throws {
    try await self.waitUntilTheGatewaySeesServing("identity")
  }

  /// Returns once the gateway reports the upstream `service` serving (its health `Watch`).
  public func waitUntilTheGatewaySeesServing(_ service: String) async throws {
    let transport = try BinarioClientTransport(
      host: "127.0.0.1",
      port: self.gatewayPort,
      serverHostname: "localhost",
      tls: .client(trustRoots: .file(self.caFile))
    )
    try await withGRPCClient(transport: transport) { client in
      try await Grpc_Health_V1_Health.Client(wrapping: client).watch(.with { $0.service = service }) { response in
        for try await update in response.messages where update.status == .serving { return }
      }
    }
  }

  /// Stops the gateway gracefully (SIGTERM): clients see it go away, and cannot reach it until
  /// ``restartGateway()``.
  public func stopGateway() {
    self.processes.withLock { $0.removeValue(forKey: "gateway") }?.terminate()
  }

  /// Starts the gateway again on the Binario port it had (the other doors get new ports), after
  /// ``stopGateway()``.
  public func restartGateway(port: Int) async throws {
    try await self.startGateway(port: port)
  }

  /// `kill -9` of identity: whatever it acknowledged must be on disk already.
  public func killIdentity() {
    self.processes.withLock { $0["identity"] }?.kill()
  }

  /// `kill -9` of scheduling.
  public func killScheduling() {
    self.processes.withLock { $0["scheduling"] }?.kill()
  }

  /// `kill -9` of dispatch.
  public func killDispatch() {
    self.processes.withLock { $0["dispatch"] }?.kill()
  }

  /// `kill -9` of telemetry.
  public func killTelemetry() {
    self.processes.withLock { $0["telemetry"] }?.kill()
  }

  /// `kill -9` of ticketing.
  public func killTicketing() {
    self.processes.withLock { $0["ticketing"] }?.kill()
  }

  /// Every process of the suite, in the order it starts them.
  public static let processNames = ["identity", "scheduling", "ticketing", "geo-offers", "dispatch", "telemetry", "gateway"]

  /// How a process is stopped before it starts again.
  public enum Stop: String, Sendable, CaseIterable {
    /// SIGTERM: it drains (refusing new calls, finishing those in flight) and exits.
    case terminate = "SIGTERM"
    /// `kill -9`: gone at once, its sockets closed by the kernel.
    case kill = "kill -9"
  }

  /// How long a restart took: from the signal to the old process's exit, and from that exit to
  /// the new process listening.
  public struct RestartTimes: Sendable {
    public var stopping: Duration
    public var starting: Duration
  }

  /// `kill -9` of the process named `name` (one of ``processNames``), then starts it again on
  /// the port it had with its data folder, returning once it listens: a crash and a restart,
  /// as a supervisor would do it.
  public func killAndRestart(_ name: String) async throws {
    try await self.restart(name, stop: .kill)
  }

  /// Stops the process named `name` (one of ``processNames``) as `stop` says, then starts it
  /// again on the port it had with its data folder, returning once it listens.
  @discardableResult
  public func restart(_ name: String, stop: Stop) async throws -> RestartTimes {
    guard let process = self.processes.withLock({ $0[name] }) else {
      throw ServiceProcess.Failure(description: "no process \(name) is running")
    }
    let port = process.port
    let signalled = ContinuousClock.now
    switch stop {
    case .terminate: process.terminate()
    case .kill: process.kill()
    }
    let exited = ContinuousClock.now
    switch name {
    case "identity": try await self.startIdentity(port: port)
    case "scheduling": try await self.startScheduling(port: port)
    case "ticketing": try await self.startTicketing(port: port)
    case "geo-offers": try await self.startGeoOffers()
    case "dispatch": try await self.startDispatch()
    case "telemetry": try await self.startTelemetry()
    case "gateway": try await self.startGateway(port: port)
    default: throw ServiceProcess.Failure(description: "\(name) is not a process of the suite")
    }
    return RestartTimes(stopping: exited - signalled, starting: ContinuousClock.now - exited)
  }

  private func stopAll() {
    let all = self.processes.withLock { processes in
      defer { processes = [:] }
      return processes
    }
    for name in ["gateway", "telemetry", "dispatch", "geo-offers", "ticketing", "scheduling", "identity"] { all[name]?.terminate() }
  }

  /// A client of the gateway's public side, as an app would be: no client certificate.
  public func withGatewayClient<Result: Sendable>(
    _ body: (Binario_Identity_V1_Identity.Client<BinarioClientTransport>) async throws -> Result
  ) async throws -> Result {
    try await self.withGatewayConnection { client in try await body(Binario_Identity_V1_Identity.Client(wrapping: client)) }
  }

  /// A connection to the gateway's public side (no client certificate), for any service's
  /// generated client: `Binario_Scheduling_V1_Scheduling.Client(wrapping: client)`.
  public func withGatewayConnection<Result: Sendable>(
    _ body: (GRPCClient<BinarioClientTransport>) async throws -> Result
  ) async throws -> Result {
    let transport = try BinarioClientTransport(
      host: "127.0.0.1",
      port: self.gatewayPort,
      serverHostname: "localhost",
      tls: .client(trustRoots: .file(self.caFile))
    )
    return try await withGRPCClient(transport: transport) { client in try await body(client) }
  }

  /// A connection straight to scheduling (around the gateway) holding `certificate`'s identity.
  public func withDirectSchedulingConnection<Result: Sendable>(
    as certificate: String,
    _ body: (GRPCClient<BinarioClientTransport>) async throws -> Result
  ) async throws -> Result {
    try await withGRPCClient(transport: try self.directTransport(to: "scheduling", port: self.schedulingPort, as: certificate)) {
      client in try await body(client)
    }
  }

  /// A connection straight to geo-offers (around the gateway) holding `certificate`'s identity.
  public func withDirectGeoOffersConnection<Result: Sendable>(
    as certificate: String,
    _ body: (GRPCClient<BinarioClientTransport>) async throws -> Result
  ) async throws -> Result {
    try await withGRPCClient(transport: try self.directTransport(to: "geo-offers", port: self.geoOffersPort, as: certificate)) {
      client in try await body(client)
    }
  }

  /// A mutual-TLS transport straight to a service, presenting `certificate`'s identity.
  private func directTransport(to service: String, port: Int, as certificate: String) throws -> BinarioClientTransport {
    let certificates = self.certificates.path
    return try BinarioClientTransport(
      host: "127.0.0.1",
      port: port,
      serverHostname: service,
      tls: .mutual(
        certificateChain: .file("\(certificates)/\(certificate).pem"),
        privateKey: .file("\(certificates)/\(certificate).key"),
        trustRoots: .file(self.caFile)
      )
    )
  }

  /// A client straight to identity (around the gateway) holding `certificate`'s identity.
  public func withDirectIdentityClient<Result: Sendable>(
    as certificate: String,
    _ body: (Binario_Identity_V1_Identity.Client<BinarioClientTransport>) async throws -> Result
  ) async throws -> Result {
    let transport = try self.directTransport(to: "identity", port: self.identityPort, as: certificate)
    return try await withGRPCClient(transport: transport) { client in
      try await body(Binario_Identity_V1_Identity.Client(wrapping: client))
    }
  }
}
