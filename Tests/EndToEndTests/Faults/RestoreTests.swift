import AsyncHTTPClient
import BinarioProto
import BinarioTestSupport
import Foundation
import GRPCCore
import Synchronization
import Testing

/// A service's database lost under load and restored from its last backup, as an operator would
/// do it (deploy/README.md, "Backups and restore"): identity's files deleted while accounts keep
/// being registered, identity killed, `binario-backup restore --latest`, identity started again.
/// The suite serves again; what was acknowledged before the backup is there, what came after it
/// is gone and nothing else (the loss is bounded by the recovery point); and the services that
/// follow identity's events notice it went back in time. A suite start of its own: it destroys
/// identity's database, which no shared suite could go on with.
@Suite("A database lost under load, restored from its backup", .timeLimit(.minutes(3)))
struct RestoreTests {
  @Test func identityRestoredFromItsLastBackup() async throws {
    try await RunningSuite.with { suite in
      try await suite.waitUntilTheGatewaySeesIdentityServing()
      let data = suite.folder.appendingPathComponent("data/identity")
      try await suite.withGatewayClient { identity in
        _ = try await identity.signUp(email: "before@example.com", admin: try await identity.signInAdmin())
      }
      // A backup now, online (identity goes on serving): the recovery point.
      let take = try await CommandRun.run("binario-backup", ["take", "--service", "identity", "--data-directory", data.path])
      #expect(take.status == 0, "binario-backup take: \(take.standardOutput)\(take.standardError)")

      // Load: accounts registered one after another, each remembered once acknowledged.
      let acknowledged = Mutex<[String]>([])
      let load = Task {
        try await suite.withGatewayClient { identity in
          let admin = try await identity.signInAdmin()
          var next = 0
          while !Task.isCancelled {
            next += 1
            let email = "after-\(next)@example.com"
            if (try? await identity.signUp(email: email, admin: admin)) != nil { acknowledged.withLock { $0.append(email) } }
          }
        }
      }
      _ = try await eventually("accounts are registered after the backup") { acknowledged.withLock { $0.count >= 3 ? true : nil } }
      // The database's files deleted under load: identity goes on writing to what it has open,
      // which the next start will not find.
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(at: data.appendingPathComponent("identity.sqlite\(suffix)"))
      }
      let registeredBefore = acknowledged.withLock { $0.count }
      _ = try await eventually("accounts are registered after the deletion") {
        acknowledged.withLock { $0.count >= registeredBefore + 2 ? true : nil }
      }
      let port = suite.identityPort
      suite.killIdentity()
      load.cancel()
      _ = await load.result
      let lost = acknowledged.withLock { $0 }

      let list = try await CommandRun.run("binario-backup", ["list", "--data-directory", data.path])
      #expect(list.standardOutput.components(separatedBy: "\n").filter { $0.hasPrefix("identity ") }.count == 2, "\(list.standardOutput)")
      let restore = try await CommandRun.run("binario-backup", ["restore", "--service", "identity", "--latest", "--data-directory", data.path])
      #expect(restore.status == 0, "binario-backup restore: \(restore.standardOutput)\(restore.standardError)")
      #expect(restore.standardOutput.hasPrefix("restored identity from identity-"), "\(restore.standardOutput)")
      try await suite.startIdentity(port: port)
      try await suite.waitUntilTheGatewaySeesIdentityServing()

      try await suite.withGatewayClient { identity in
        // Before the backup: there.
        let before = try await identity.login(
          .with {
            $0.email = "before@example.com"
            $0.password = "a-good-password-1"
          }
        )
        #expect(try await identity.getMe(.init(), metadata: bearer(before.tokens)).profile.email == "before@example.com")
        // After it: gone, every one of them (an unknown account is refused like a wrong password).
        for email in lost {
          await #expect(throws: RPCError.self, "\(email) came after the backup") {
            _ = try await identity.login(
              .with {
                $0.email = email
                $0.password = "a-good-password-1"
              }
            )
          }
        }
        // And the suite takes new accounts again.
        _ = try await identity.signUp(email: "again@example.com", admin: try await identity.signInAdmin())
      }

      // Scheduling follows identity's events: its cursor was past the restored log's head.
      let schedulingMetrics = try #require(suite.metricsPorts["scheduling"])
      _ = try await eventually("scheduling counts identity's rewound events") { () -> Bool? in
        let response = try await HTTPClient.shared.execute(
          HTTPClientRequest(url: "http://127.0.0.1:\(schedulingMetrics)/metrics"),
          timeout: .seconds(5)
        )
        let text = String(buffer: try await response.body.collect(upTo: 16 * 1024 * 1024))
        let line = text.split(separator: "\n").first { $0.hasPrefix(#"binario_events_rewound_total{producer="identity"}"#) }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { $0 > 0 } == true ? true : nil
      }
    }
  }
}
