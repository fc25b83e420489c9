import BenchSupport
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import Synchronization

/// The departures board (Milano Centrale, the next 10, live) through the gateway, against the
/// same call straight to scheduling (with the gateway's certificate) as the baseline; and through
/// the gateway computed afresh on every call (alternating between now and an hour ago, so
/// scheduling's board cache never holds the answer), its cost without the cache.
enum BoardLoad {
  static func measure(suite: RunningSuite, seconds: Double, inFlight: [Int]) async throws {
    let throughGateway = try gatewayClients(suite, count: 1)[0]
    let certificates = suite.certificates.path
    let direct = GRPCClient(
      transport: try BinarioClientTransport(
        host: "127.0.0.1",
        port: suite.schedulingPort,
        serverHostname: "scheduling",
        tls: .mutual(
          certificateChain: .file("\(certificates)/gateway.pem"),
          privateKey: .file("\(certificates)/gateway.key"),
          trustRoots: .file(suite.caFile)
        )
      )
    )
    try await withClients([throughGateway, direct]) {
      let paths = [
        ("gateway", Binario_Scheduling_V1_Scheduling.Client(wrapping: throughGateway)),
        ("direct", Binario_Scheduling_V1_Scheduling.Client(wrapping: direct)),
        ("gateway, computed each call", Binario_Scheduling_V1_Scheduling.Client(wrapping: throughGateway)),
      ]
      let request = Binario_Scheduling_V1_GetDeparturesBoardRequest.with {
        $0.stationID = "MI_CENTRALE"
        $0.limit = 10
      }
      let flips = Atomic<Int>(0)
      @Sendable func uncached() -> Binario_Scheduling_V1_GetDeparturesBoardRequest {
        var fresh = request
        let hourAgo = flips.add(1, ordering: .relaxed).newValue % 2 == 0
        fresh.after = .init(date: Date().addingTimeInterval(hourAgo ? -3600 : 0))
        return fresh
      }
      for (_, client) in paths { _ = try await client.getDeparturesBoard(request) }  // warm

      Output.line()
      Output.line("## The departures board (Milano Centrale, next 10, live), \(seconds) s per case")
      Output.line("| path | in flight | calls/s | p50 µs | p99 µs | CPU µs/call: scheduling | gateway |")
      Output.line("|---|---:|---:|---:|---:|---:|---:|")
      var gatewayP99: [String: Double] = [:]
      for concurrency in inFlight {
        for (name, client) in paths {
          let pids = suite.processIdentifiers.filter { ["scheduling", "gateway"].contains($0.key) }
          let result = await AsyncCallLoad.run(
            concurrency: concurrency,
            for: .milliseconds(Int64(seconds * 1000)),
            measuring: pids
          ) { _ = try await client.getDeparturesBoard(name.hasSuffix("each call") ? uncached() : request) }
          if let failure = result.firstFailure { Output.line("warning: \(result.failures) failed calls (\(name)): \(failure)") }
          func cpu(_ process: String) -> String { result.cpuPerCall(process).map { String(Int($0.rounded())) } ?? "-" }
          Output.line(
            "| \(name) | \(concurrency) | \(Int(result.callsPerSecond)) | \(Int(result.percentile(0.5))) | \(Int(result.percentile(0.99))) "
              + "| \(cpu("scheduling")) | \(name == "direct" ? "-" : cpu("gateway")) |"
          )
          gatewayP99["\(name)-\(concurrency)"] = result.percentile(0.99)
        }
      }
      let one = inFlight.first ?? 1
      if let p99 = gatewayP99["gateway-\(one)"], let computed = gatewayP99["gateway, computed each call-\(one)"] {
        Output.line()
        Output.line(
          "departures board p99 through the gateway at \(one) in flight: \(Int(p99)) µs (target: under 2000); "
            + "computed on every call: \(Int(computed)) µs"
        )
      }
    }
  }
}
