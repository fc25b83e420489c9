import BenchSupport
import BinarioEcho
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import SwiftProtobuf

/// Each service's simplest read for a signed-in passenger, called straight at the service as
/// the gateway would forward it (the gateway's certificate, the caller as metadata): the same
/// method as the `direct` path, so every service's server CPU per call compares with identity's
/// `GetMe`.
struct ServiceRead: Sendable {
  var service: String
  var method: String
  var request: Data

  /// The baseline of the table, measured in the same run: `binario-echo-server` answering
  /// `Echo/Get` through the same server path as every service (GRPCCore on the Binario transport,
  /// TLS, the tracing, logging, metrics and error interceptors) with no access check and no
  /// database. What a read costs above it is the read's own.
  static let echo = ServiceRead(service: "echo", method: "/binario.echo.v1.Echo/Get", request: Binario_Echo_V1_EchoRequest.with { $0.text = "bench" })

  static let all: [ServiceRead] = [
    ServiceRead(service: "identity", method: "/binario.identity.v1.Identity/GetMe", request: Binario_Identity_V1_GetMeRequest()),
    ServiceRead(
      service: "scheduling",
      method: "/binario.scheduling.v1.Scheduling/ListFollowedRuns",
      request: Binario_Scheduling_V1_ListFollowedRunsRequest()
    ),
    ServiceRead(service: "ticketing", method: "/binario.ticketing.v1.Tickets/ListPurchases", request: Binario_Ticketing_V1_ListPurchasesRequest()),
    ServiceRead(
      service: "geo-offers",
      method: "/binario.geo_offers.v1.GeoOffers/GetMyLocation",
      request: Binario_GeoOffers_V1_GetMyLocationRequest()
    ),
    ServiceRead(service: "dispatch", method: "/binario.dispatch.v1.Dispatch/ListSavedPlaces", request: Binario_Dispatch_V1_ListSavedPlacesRequest()),
    ServiceRead(service: "telemetry", method: "/binario.telemetry.v1.Telemetry/ListDevices", request: Binario_Telemetry_V1_ListDevicesRequest()),
  ]

  init(service: String, method: String, request: some SwiftProtobuf.Message) {
    self.service = service
    self.method = method
    self.request = try! request.serializedData()
  }
}

extension BenchSuite {
  /// The port `service` listens on.
  func port(of service: String) -> Int {
    switch service {
    case "identity": return self.suite.identityPort
    case "scheduling": return self.suite.schedulingPort
    case "ticketing": return self.suite.ticketingPort
    case "geo-offers": return self.suite.geoOffersPort
    case "dispatch": return self.suite.dispatchPort
    default: return self.suite.telemetryPort
    }
  }

  /// Starts ``ServiceRead/echo``'s server, `binario-echo-server` (built beside this benchmark),
  /// with identity's certificate and a data folder of its own.
  func startEchoServer() async throws -> ServiceProcess {
    let certificates = self.suite.certificates.path
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-bench-echo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    return try await ServiceProcess.start(
      "binario-echo-server",
      arguments: [
        "--host", "127.0.0.1", "--port", "0",
        "--tls-certificate", "\(certificates)/identity.pem",
        "--tls-private-key", "\(certificates)/identity.key",
        "--tls-trusted-ca", self.suite.caFile,
        "--data-directory", data.path,
        "--metrics-port", "off",
      ]
    )
  }

  /// `read` at `inFlight` calls in flight for `duration`, on a connection of its own; `echo`
  /// serves ``ServiceRead/echo``.
  ///
  /// With `sampled`, every call carries a `traceparent` whose flag says whether the caller
  /// sampled the trace: services follow it (parent-based sampling), so one suite that exports
  /// spans measures a read with and without its spans recorded.
  func measure(
    _ read: ServiceRead,
    echo: ServiceProcess? = nil,
    inFlight: Int,
    for duration: Duration,
    sampled: Bool? = nil
  ) async throws -> LoadResult {
    let certificates = self.suite.certificates.path
    let asGateway = BinarioTLSConfiguration.mutual(
      certificateChain: .file("\(certificates)/gateway.pem"),
      privateKey: .file("\(certificates)/gateway.key"),
      trustRoots: .file(self.suite.caFile)
    )
    var processes = self.processIdentifiers
    if let echo { processes["echo"] = echo.processIdentifier }
    let connection = try await BinarioClientConnection.connect(
      host: "127.0.0.1",
      port: read.service == "echo" ? echo?.port ?? 0 : self.port(of: read.service),
      serverHostname: read.service == "echo" ? "identity" : read.service,
      tls: try asGateway.makeClientContext(),
      logger: self.quietLogger
    )
    defer { connection.close() }
    var metadata = WireMetadata()
    var entries = [("x-user-id", self.userID), ("x-roles", "passenger"), ("x-session-id", "bench")]
    if let sampled { entries.append(("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-\(sampled ? "01" : "00")")) }
    for (key, value) in entries {
      var entry = WireMetadataEntry()
      entry.key = key
      entry.value = .text(value)
      metadata.append(entry)
    }
    let request = BinarioCallRequest(method: read.method, metadata: metadata, firstMessage: read.request, halfClose: true)
    return try await FrameCallLoad.run(request, on: connection, concurrency: inFlight, for: duration, measuring: processes)
  }
}
