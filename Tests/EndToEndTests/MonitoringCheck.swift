import AsyncHTTPClient
import BinarioTestSupport
import Foundation
import Testing

extension FrontDoorTests {
  /// The alerts and the dashboard (`deploy/monitoring`) against what the suite's processes
  /// really expose, after the apps' mix went through all three front doors: every process's
  /// `/metrics` written to a folder, then `deploy/monitoring/check.py` (promtool: the rules, their
  /// unit tests, the dashboard's queries, each scrape's lint, and no alert or panel watching a
  /// metric nothing exposes).
  static func monitoring(_ suite: RunningSuite, _ tools: FrontDoorTools) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scrapes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let ports = suite.metricsPorts
    #expect(ports.count == 7 && ports.values.allSatisfy { $0 > 0 }, "every process serves /metrics: \(ports)")
    for (name, port) in ports {
      let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics"), timeout: .seconds(10))
      #expect(response.status == .ok, "\(name)'s /metrics")
      let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
      try Data(buffer: body).write(to: folder.appendingPathComponent("\(name).txt"))
    }
    let check = try await tools.python("deploy/monitoring/check.py", ["--scrapes", folder.path])
    #expect(check.status == 0, "deploy/monitoring/check.py: \(check.standardOutput)\(check.standardError)")
  }
}
