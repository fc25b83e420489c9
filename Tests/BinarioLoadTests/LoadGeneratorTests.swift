import BinarioProto
import Foundation
import GRPCCore
import GatewayService
import NIOCore
import Testing

@testable import BinarioLoad

@Suite("The load generator's parts")
struct LoadGeneratorTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func arrivalsAreEvenlySpacedFromTheStartWithoutDrift() {
    let start = ContinuousClock.now
    let schedule = ArrivalSchedule(start: start, perSecond: 3)
    #expect(schedule.instant(of: 0) == start)
    #expect(schedule.instant(of: 1) == start + .nanoseconds(333_333_333))
    #expect(schedule.instant(of: 3) == start + .seconds(1))
    #expect(schedule.instant(of: 3_000_000) == start + .seconds(1_000_000))
    #expect(schedule.count(before: start + .seconds(1)) == 3)  // 0, 1/3, 2/3: the one at 1 s is not before it
    #expect(schedule.count(before: start + .milliseconds(1_001)) == 4)
    #expect(ArrivalSchedule(start: start, perSecond: 2.5).count(before: start + .seconds(2)) == 5)
    #expect(schedule.count(before: start) == 0)
  }

  @Test func theShippedMixIsValidAndSharesBecomeRates() throws {
    let mix = try LoadMix.read(Self.packageRoot.appendingPathComponent("Benchmarks/LoadGenerator/mix.json"))
    #expect(mix.operations.count == LoadOperation.catalogue.count, "the shipped mix plays every operation the generator knows")
    #expect(mix.operations.allSatisfy { !($0.why ?? "").isEmpty }, "every share says why")
    let rates = mix.rates(total: 1000)
    #expect(abs(rates.reduce(0) { $0 + $1.perSecond } - 1000) < 1e-6)
    let board = try #require(rates.first { $0.operation == "departures board" })
    let request = try #require(rates.first { $0.operation == "taxi request" })
    #expect(abs(board.perSecond / request.perSecond - 40) < 1e-9)
  }

  @Test func aMixIsRefusedByTheFieldAtFault() throws {
    func refusal(_ json: String) -> String? {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("mix-\(UUID().uuidString).json")
      try? Data(json.utf8).write(to: file)
      defer { try? FileManager.default.removeItem(at: file) }
      do {
        _ = try LoadMix.read(file)
        return nil
      } catch {
        return "\(error)"
      }
    }
    let valid = #"{"rate": 5, "travellers": 2, "drivers": 1, "notificationStreams": 1, "operations": [{"name": "profile", "share": 1}]}"#
    #expect(refusal(valid) == nil)
    #expect(refusal(valid.replacingOccurrences(of: #""rate": 5, "#, with: ""))?.contains("rate is missing") == true)
    #expect(
      refusal(valid.replacingOccurrences(of: #""share": 1"#, with: #""share": 0"#))?.contains("operations[0].share: 0.0 is not above 0") == true
    )
    #expect(
      refusal(valid.replacingOccurrences(of: #""profile""#, with: #""teleport""#))?.contains(#"operations[0].name: "teleport" is not an operation"#)
        == true
    )
    #expect(
      refusal(valid.replacingOccurrences(of: #""notificationStreams": 1"#, with: #""notificationStreams": 3"#))?.contains("notificationStreams: 3")
        == true
    )
    #expect(refusal(valid.replacingOccurrences(of: #""share": 1"#, with: #""share": "many""#))?.contains("operations[0].share") == true)
    let driverless = valid.replacingOccurrences(of: #""drivers": 1"#, with: #""drivers": 0"#).replacingOccurrences(
      of: #""profile""#,
      with: #""driver step""#
    )
    #expect(refusal(driverless)?.contains("drivers: 0, but operations[0] (driver step) needs drivers") == true)
  }

  @Test func requestsTakeTheShapeOfTheirHTTPRoute() throws {
    let routes = Dictionary(HTTPRouteTable.generated.map { ($0.rpc, $0) }, uniquingKeysWith: { first, _ in first })
    let cancel = try HTTPJSONRequest(
      route: try #require(routes["/binario.dispatch.v1.Dispatch/CancelRide"]),
      message: Binario_Dispatch_V1_CancelRideRequest.with { $0.rideID = "ride/1 è" }
    )
    #expect(cancel.verb == "POST")
    #expect(cancel.target == "/v1/taxi/rides/ride%2F1%20%C3%A8:cancel")
    #expect(cancel.body == "{}")

    let board = try HTTPJSONRequest(
      route: try #require(routes["/binario.scheduling.v1.Scheduling/GetDeparturesBoard"]),
      message: Binario_Scheduling_V1_GetDeparturesBoardRequest.with {
        $0.stationID = "MI_CENTRALE"
        $0.limit = 10
      }
    )
    #expect(board.verb == "GET")
    #expect(board.body == nil)
    #expect(board.target.hasSuffix("?limit=10"))
    #expect(board.target.contains("/MI_CENTRALE"))

    let edit = try HTTPJSONRequest(
      route: try #require(routes["/binario.ticketing.v1.Subscriptions/UpdateSubscription"]),
      message: Binario_Ticketing_V1_UpdateSubscriptionRequest.with {
        $0.subscriptionID = "s-1"
        $0.details.price = .with {
          $0.amountMinor = 1299
          $0.currency = "EUR"
        }
      }
    )
    #expect(edit.target.hasSuffix("/s-1"))
    let body = try Binario_Ticketing_V1_UpdateSubscriptionRequest(jsonString: try #require(edit.body))
    #expect(body.subscriptionID.isEmpty, "the path's field is not sent twice")
    #expect(body.details.price.amountMinor == 1299)

    #expect(throws: CallFailure.self) {
      try HTTPJSONRequest(route: try #require(routes["/binario.dispatch.v1.Dispatch/CancelRide"]), message: Binario_Dispatch_V1_CancelRideRequest())
    }
  }

  @Test func serverSentEventsAreCutAtBlankLinesAcrossChunks() {
    var events = ServerSentEvents()
    #expect(events.take(ByteBuffer(string: ": hello\n\nid: 1\ndata: {\"a\"")).isEmpty)
    #expect(
      events.take(ByteBuffer(string: ":1}\n\nevent: error\ndata: {\"code\":\"UNAVAILABLE\"}\n\n")) == [
        .init(name: "message", data: #"{"a":1}"#),
        .init(name: "error", data: #"{"code":"UNAVAILABLE"}"#),
      ]
    )
  }

  @Test func aRunIsSustainedOnlyWithEveryP99UnderTheLimitAndNothingFailed() {
    func operation(p99: UInt64, failures: [String: Int] = [:]) -> LoadReport.Operation {
      .init(
        name: "x",
        app: "y",
        scheduledPerSecond: 1,
        completed: 10,
        p50: 1,
        p90: 1,
        p99: p99,
        p999: p99,
        max: p99,
        failures: failures,
        examples: [:]
      )
    }
    var report = LoadReport(door: .binario, rate: 10, seconds: 1, operations: [operation(p99: 99_999)], streams: .init(), notStarted: 0)
    #expect(report.sustained(p99Under: 100_000))
    report.operations.append(operation(p99: 100_000))
    #expect(!report.sustained(p99Under: 100_000))
    report.operations = [operation(p99: 10, failures: ["UNAVAILABLE": 1])]
    #expect(!report.sustained(p99Under: 100_000))
    report.operations = [operation(p99: 10)]
    report.streams.failures["ended"] = 1
    #expect(!report.sustained(p99Under: 100_000))
    report.streams.failures = [:]
    report.notStarted = 1
    #expect(!report.sustained(p99Under: 100_000))
  }

  @Test func failuresAreNamedAsTheDoorsNameThem() {
    #expect(CallFailure.from(RPCError(code: .deadlineExceeded, message: "late")).code == "DEADLINE_EXCEEDED")
    #expect(CallFailure.from(RPCError(code: .resourceExhausted, message: "slow down")).code == "RESOURCE_EXHAUSTED")
    #expect(CallFailure.from(CallFailure(code: "HTTP 502", message: "bad gateway")).code == "HTTP 502")
  }
}
