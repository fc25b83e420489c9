import BinarioLoad
import BinarioTestSupport
import Foundation
import Testing

extension FrontDoorTests {
  /// `binario-loadgen` as an operator runs it, on the front doors' suite start: every operation
  /// it knows, in equal shares (taxi requests a quarter of that: a passenger has one ride open at a
  /// time, and two drivers take a while over each), through each door in turn with the same
  /// people. Nothing may fail, every operation must have run through every door, and the
  /// notification streams stay open.
  static func loadGenerator(_ suite: RunningSuite) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loadgen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let names = LoadOperation.catalogue.keys.sorted()
    let mix = LoadMix(
      rate: Double(names.count) * 2,
      travellers: 8,
      drivers: 2,
      notificationStreams: 3,
      operations: names.map { LoadMix.Operation(name: $0, share: $0 == "taxi request" ? 0.25 : 1, why: nil) }
    )
    let mixFile = folder.appendingPathComponent("mix.json")
    try JSONEncoder().encode(mix).write(to: mixFile)
    let reportFile = folder.appendingPathComponent("reports.json")

    let run = try await CommandRun.run(
      "binario-loadgen",
      [
        "--host", "localhost", "--binario-port", "\(suite.gatewayPort)", "--grpc-port", "\(suite.gatewayGRPCPort)",
        "--http-port", "\(suite.gatewayHTTPPort)", "--ca", suite.caFile, "--mix", mixFile.path,
        "--door", "binario", "--door", "grpc", "--door", "http-json", "--seconds", "2", "--warm-up", "1", "--json", reportFile.path,
      ],
      environment: ["BINARIO_ADMIN_EMAIL": RunningSuite.adminEmail, "BINARIO_ADMIN_PASSWORD": RunningSuite.adminPassword]
    )
    #expect(run.status == 0, "binario-loadgen: \(run.standardOutput.suffix(4000))\(run.standardError)")
    let reports = try JSONDecoder().decode([LoadReport].self, from: Data(contentsOf: reportFile))
    #expect(reports.map(\.door) == [.binario, .grpc, .httpJSON])
    for report in reports {
      #expect(report.operations.map(\.name).sorted() == names)
      for operation in report.operations {
        // Two a second for two seconds (taxi requests one in two seconds), from their intended starts.
        #expect(
          operation.completed >= (operation.name == "taxi request" ? 1 : 3),
          "\(report.door) \(operation.name): \(operation.completed) completed"
        )
        #expect(operation.failed == 0, "\(report.door) \(operation.name): \(operation.failures) \(operation.examples)")
        #expect(operation.p50 > 0 && operation.p50 <= operation.p99 && operation.p99 <= operation.max)
      }
      #expect(report.streams.open == mix.notificationStreams, "\(report.door): streams \(report.streams)")
      #expect(report.streams.failures.isEmpty, "\(report.door): streams \(report.streams)")
      #expect(report.notStarted == 0)
    }
    #expect(run.standardOutput.contains("| departures board | Trenord |"), "the table: \(run.standardOutput.suffix(3000))")
  }
}
