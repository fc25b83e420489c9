import AsyncHTTPClient
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOHTTP1
import Testing

/// Traces across the suite: every service exports its spans over OTLP/HTTP (JSON) to a receiver
/// this test runs, as it would to an OpenTelemetry collector.
@Suite("Traces, end to end", .serialized)
struct TracingTests {
  typealias Span = OTLPTraceReceiver.ReceivedSpan
  static let clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
  static let clientSpan = "00f067aa0ba902b7"

  @Test(.timeLimit(.minutes(3)))
  func oneTraceAcrossTheGatewayAndTwoServices() async throws {
    let receiver = try await OTLPTraceReceiver.start()
    let flags = RunningSuite.ExtraFlags(
      all: ["--otlp-endpoint", receiver.endpoint],
      // OTLP/JSON, which the receiver reads; spans leave every 50 ms rather than every 5 s.
      environment: ["OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_BSP_SCHEDULE_DELAY": "50"]
    )
    do {
      try await RunningSuite.with(extraFlags: flags) { suite in
        try await suite.waitUntilTheGatewaySeesServing("ticketing")
        try await suite.withGatewayConnection { connection in
          try await Self.check(suite: suite, connection: connection, receiver: receiver)
        }
      }
    } catch {
      await receiver.stop()
      throw error
    }
    await receiver.stop()
  }

  private static func check(suite: RunningSuite, connection: GRPCClient<BinarioClientTransport>, receiver: OTLPTraceReceiver) async throws {
    let identity = Binario_Identity_V1_Identity.Client(wrapping: connection)
    let tickets = Binario_Ticketing_V1_Tickets.Client(wrapping: connection)
    let scheduling = Binario_Scheduling_V1_Scheduling.Client(wrapping: connection)
    let admin = try await identity.signInAdmin()
    let ada = try await identity.signUp(email: "ada@example.com", admin: admin)

    // A quote for a run: the gateway calls ticketing, which asks scheduling for the run.
    let board = try await scheduling.getDeparturesBoard(
      .with {
        $0.stationID = "MI_CENTRALE"
        $0.limit = 20
      }
    )
    let departure = try #require(board.departures.first { $0.run.stops.count > 1 })
    var metadata = bearer(ada)
    metadata.addString("00-\(Self.clientTrace)-\(Self.clientSpan)-01", forKey: "traceparent")
    metadata.addString("vendor=opaque", forKey: "tracestate")
    _ = try await tickets.quoteTicket(
      .with {
        $0.station = .with {
          $0.run = .with {
            $0.tripID = departure.run.run.tripID
            $0.serviceDate = departure.run.run.serviceDate
          }
          $0.fromStationID = "MI_CENTRALE"
          $0.toStationID = departure.run.stops[1].station.stationID
        }
      },
      metadata: metadata
    )

    // Each process exports on its own schedule: wait for every span the checks need.
    let trace = await receiver.spans { spans in
      let trace = spans.filter { $0.traceID == Self.clientTrace }
      return trace.contains { $0.service == "scheduling" && $0.name.hasPrefix("read ") }
        && trace.contains { $0.service == "scheduling" && $0.kind == 2 }
        && trace.contains { $0.service == "gateway" }
        && trace.contains { $0.service == "ticketing" && $0.kind == 2 }
        && trace.contains { $0.service == "ticketing" && $0.kind == 3 }
    }.filter { $0.traceID == Self.clientTrace }

    func one(_ service: String, _ name: String, kind: Int) throws -> Span {
      let found = trace.filter { $0.service == service && $0.name == name && $0.kind == kind }
      try #require(found.count == 1, "one \(service) span \(name) of kind \(kind) in \(trace.map { "\($0.service) \($0.name)" })")
      return found[0]
    }
    let quote = "binario.ticketing.v1.Tickets/QuoteTicket"
    let getRun = "binario.scheduling.v1.Scheduling/GetRun"
    let atGateway = try one("gateway", quote, kind: 2)
    let atTicketing = try one("ticketing", quote, kind: 2)
    let ticketingCalls = try one("ticketing", getRun, kind: 3)
    let atScheduling = try one("scheduling", getRun, kind: 2)

    // The client's span is the parent of the gateway's, and each hop the child of the one before.
    #expect(atGateway.parentSpanID == Self.clientSpan)
    #expect(atTicketing.parentSpanID == atGateway.spanID)
    #expect(ticketingCalls.parentSpanID == atTicketing.spanID)
    #expect(atScheduling.parentSpanID == ticketingCalls.spanID)
    let reads = trace.filter { $0.service == "scheduling" && $0.name.hasPrefix("read ") }
    #expect(!reads.isEmpty && reads.allSatisfy { $0.parentSpanID == atScheduling.spanID && $0.kind == 3 })
    #expect(reads.first?.attributes["db.system.name"] == "sqlite")
    #expect(Set(trace.map(\.spanID)).count == trace.count)

    // The semantic conventions' attributes.
    #expect(atGateway.attributes["rpc.system.name"] == "grpc")
    #expect(atGateway.attributes["rpc.method"] == quote)
    #expect(atGateway.attributes["rpc.response.status_code"] == "OK")
    #expect(atGateway.attributes["binario.upstream"] == "ticketing")
    #expect(atTicketing.attributes["rpc.response.status_code"] == "OK")
    #expect(ticketingCalls.attributes["server.address"] == "127.0.0.1")
    #expect(atScheduling.attributes["binario.peer.identity"] == "spiffe://binario/ticketing")

    // A malformed traceparent is replaced by a new trace; the call goes through.
    var malformed = bearer(ada)
    malformed.addString("00-not-a-trace-01", forKey: "traceparent")
    malformed.addString("trace-test-malformed", forKey: "x-request-id")
    _ = try await identity.getMe(.init(), metadata: malformed)
    let replaced = await receiver.spans { spans in
      spans.contains {
        $0.service == "identity" && $0.name == "binario.identity.v1.Identity/GetMe"
          && $0.traceID == Self.traceID(ofRequest: "trace-test-malformed", in: spans)
      }
    }
    let gatewayRoot = try #require(replaced.first { $0.attributes["binario.request_id"] == "trace-test-malformed" })
    #expect(gatewayRoot.parentSpanID.isEmpty)
    #expect(gatewayRoot.traceID.count == 32 && gatewayRoot.traceID != Self.clientTrace)

    // The HTTP/JSON front door continues a client's trace the same way.
    let http = try FrontDoorHTTP(port: suite.gatewayHTTPPort, caFile: suite.caFile)
    var request = HTTPClientRequest(url: http.url("/v1/me"))
    request.headers.add(name: "authorization", value: "Bearer \(ada.accessToken)")
    request.headers.add(name: "traceparent", value: "00-\(Self.httpTrace)-\(Self.clientSpan)-01")
    let response = try await http.client.execute(request, timeout: .seconds(30))
    _ = try await response.body.collect(upTo: 1 << 20)
    try await http.client.shutdown()
    #expect(response.status == .ok)
    let overHTTP = await receiver.spans { spans in
      spans.contains { $0.traceID == Self.httpTrace && $0.service == "identity" && $0.kind == 2 }
        && spans.contains { $0.traceID == Self.httpTrace && $0.service == "gateway" }
    }.filter { $0.traceID == Self.httpTrace }
    let httpAtGateway = try #require(overHTTP.first { $0.service == "gateway" })
    #expect(httpAtGateway.parentSpanID == Self.clientSpan)
    #expect(overHTTP.first { $0.service == "identity" && $0.kind == 2 }?.parentSpanID == httpAtGateway.spanID)

    // And so does the gRPC (HTTP/2) front door.
    let grpc = try HTTP2ClientTransport.Posix(
      target: .ipv4(address: "127.0.0.1", port: suite.gatewayGRPCPort),
      transportSecurity: .tls { $0.trustRoots = .certificates([.file(path: suite.caFile, format: .pem)]) },
      config: .defaults { $0.http2.authority = "localhost" }
    )
    try await withGRPCClient(transport: grpc) { client in
      var metadata = bearer(ada)
      metadata.addString("00-\(Self.grpcTrace)-\(Self.clientSpan)-01", forKey: "traceparent")
      _ = try await Binario_Identity_V1_Identity.Client(wrapping: client).getMe(.init(), metadata: metadata)
    }
    let overGRPC = await receiver.spans { spans in
      spans.contains { $0.traceID == Self.grpcTrace && $0.service == "identity" && $0.kind == 2 }
        && spans.contains { $0.traceID == Self.grpcTrace && $0.service == "gateway" }
    }.filter { $0.traceID == Self.grpcTrace }
    let grpcAtGateway = try #require(overGRPC.first { $0.service == "gateway" })
    #expect(grpcAtGateway.parentSpanID == Self.clientSpan)
    #expect(overGRPC.first { $0.service == "identity" && $0.kind == 2 }?.parentSpanID == grpcAtGateway.spanID)
  }

  static let httpTrace = "0af7651916cd43dd8448eb211c80319c"
  static let grpcTrace = "1bf92f3577b34da6a3ce929d0e0e4737"

  /// The trace of the gateway span that carries `requestID`, if it arrived.
  static func traceID(ofRequest requestID: String, in spans: [Span]) -> String? {
    spans.first { $0.service == "gateway" && $0.attributes["binario.request_id"] == requestID }?.traceID
  }
}
