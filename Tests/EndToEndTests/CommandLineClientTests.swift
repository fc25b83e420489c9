import BinarioTestSupport
import Foundation
import Testing

/// The `binario` command-line client against the running suite, as a person would type it:
/// exit statuses, what it prints, and the session file it keeps.
@Suite("The command-line client, end to end through the gateway", .serialized)
struct CommandLineClientTests {
  @Test func healthRegisterConfirmLoginMeLogoutAndTheKeptTokenIsRefused() async throws {
    try await RunningSuite.with { suite in
      let cli = CommandLine(suite: suite)
      let health = try await cli.run(["health"])
      #expect(health.status == 0, "\(health.standardError)")
      #expect(health.standardOutput == "the suite: SERVING\n")
      let identityHealth = try await cli.run(["health", "--service", "identity", "--wait", "30"])
      #expect(identityHealth.status == 0, "\(identityHealth.standardError)")
      #expect(identityHealth.standardOutput == "identity: SERVING\n")
      let unknown = try await cli.run(["health", "--service", "nowhere"])
      #expect(unknown.status != 0)
      #expect(unknown.standardError.contains("[notFound]"), "\(unknown.standardError)")

      let adminSession = cli.file("admin-session.json")
      let admin = try await cli.run(
        ["login", "--email", RunningSuite.adminEmail, "--password-stdin", "--session", adminSession],
        standardInput: RunningSuite.adminPassword + "\n"
      )
      #expect(admin.status == 0, "\(admin.standardError)")

      let email = "grace@example.com"
      let details = [
        "--first-name", "Grace", "--last-name", "Hopper", "--birth-date", "1906-12-09", "--gender", "female",
      ]
      let refused = try await cli.run(
        ["register", "--password-stdin", "--email", email, "--phone", "+39 bad"] + details,
        standardInput: "a-good-password-1\n"
      )
      #expect(refused.status != 0)
      #expect(refused.standardError.hasPrefix("error: 1 field is not valid [invalidArgument]\n  phone: \"+39 bad\""))
      #expect(!refused.standardError.contains("Fatal error"))

      let registered = try await cli.run(
        ["register", "--password-stdin", "--email", email, "--phone", "+393331234567"] + details,
        standardInput: "a-good-password-1\n"
      )
      #expect(registered.status == 0, "\(registered.standardError)")
      let confirmed = try await cli.run(["confirm", "--email", email, "--from-outbox", "--admin-session", adminSession])
      #expect(confirmed.status == 0, "\(confirmed.standardError)")

      let login = try await cli.run(["login", "--email", email], environment: ["BINARIO_PASSWORD": "a-good-password-1"])
      #expect(login.status == 0, "\(login.standardError)")
      let permissions = try FileManager.default.attributesOfItem(atPath: cli.session)[.posixPermissions] as? Int
      #expect(permissions == 0o600)

      let me = try await cli.run(["me"])
      #expect(me.status == 0, "\(me.standardError)")
      #expect(me.standardOutput.contains(email))
      #expect(me.standardOutput.contains("Grace"))

      // Keep a copy of the signed-in session, sign out, then try the copy: the gateway must
      // refuse its access token at once, not when it expires.
      let kept = cli.file("kept-session.json")
      try FileManager.default.copyItem(atPath: cli.session, toPath: kept)
      let logout = try await cli.run(["logout"])
      #expect(logout.status == 0, "\(logout.standardError)")
      #expect(!FileManager.default.fileExists(atPath: cli.session))

      let afterLogout = try await cli.run(["me", "--session", kept])
      #expect(afterLogout.status != 0)
      #expect(afterLogout.standardError.contains("[unauthenticated]"), "\(afterLogout.standardError)")

      let signedOut = try await cli.run(["me"])
      #expect(signedOut.status != 0)
      #expect(signedOut.standardError.contains("not signed in"), "\(signedOut.standardError)")
    }
  }
}

/// Runs `binario` against one running suite, with a session file in the suite's folder.
private struct CommandLine {
  let suite: RunningSuite

  var session: String { self.file("session.json") }

  func file(_ name: String) -> String {
    self.suite.folder.appendingPathComponent("cli").appendingPathComponent(name).path
  }

  func run(
    _ arguments: [String],
    environment: [String: String] = [:],
    standardInput: String = ""
  ) async throws -> CommandRun {
    let settings = [
      "BINARIO_GATEWAY": "localhost:\(self.suite.gatewayPort)",
      "BINARIO_CA": self.suite.caFile,
      "BINARIO_SESSION": self.session,
    ]
    return try await CommandRun.run(
      "binario",
      arguments,
      environment: settings.merging(environment) { $1 },
      standardInput: standardInput
    )
  }
}
