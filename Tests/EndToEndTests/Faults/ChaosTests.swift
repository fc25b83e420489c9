import BinarioChaos
import BinarioTestSupport
import Foundation
import Testing

/// The chaos run's short form: 40 seconds of mixed load through the gateway while a process is
/// killed every 1.5 to 2.5 seconds (each of the seven at least once) and restarted. Every
/// acknowledged write must be there exactly once afterwards, and every follower's stream must
/// have brought each notification once. `scripts/chaos.sh` runs the long form.
@Suite("Chaos: kill -9 under load", .serialized, .timeLimit(.minutes(8)))
struct ChaosTests {
  @Test func acknowledgedWritesSurviveRandomKills() async throws {
    let report = try await ChaosRun(ChaosConfiguration(duration: .seconds(40), killInterval: 1.5 ... 2.5, seed: 22)).run()
    print(report)
    #expect(report.violations.isEmpty, "\(report.violations.joined(separator: "\n"))")
    #expect(Set(report.kills.keys) == Set(RunningSuite.processNames), "killed only \(report.kills)")
    // While a service was down, clients heard which one it was, never its address (the
    // gateway's own address and "the server" are for when the gateway itself was down).
    for failure in report.retriedFailures.keys {
      #expect(!failure.replacingOccurrences(of: report.gatewayAddress, with: "the gateway").contains("127.0.0.1"), "\(failure)")
    }
    for section in report.sections {
      #expect(section.counts.first.map { $0.1 > 0 } == true, "\(section.name): nothing was written")
    }
  }
}
