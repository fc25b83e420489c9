import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import SwiftProtobuf
import Testing

/// Where scripts/test.sh builds the C device client.
private let cClientBuild = RunningSuite.packageRoot.appendingPathComponent(".build/c")
private let cClientIsBuilt = FileManager.default.isExecutableFile(atPath: cClientBuild.appendingPathComponent("binario-sensor").path)

/// The C device client (clients/c) against the suite, with one suite start: the library's own
/// integration tests (cmocka), `binario-sensor` uploading, keeping readings in its spool while the
/// gateway is stopped and sending them once it is back (nothing lost, nothing stored twice), and
/// `binario-taxi` signing a driver in, reporting a track and accepting the offer a passenger's
/// request makes. Everything C runs built with AddressSanitizer and UBSan: an error or a leak
/// fails its process. The binaries come from `.build/c`, which the test command
/// (scripts/test.sh) builds before `swift test`.
@Suite(
  "The C device client against the suite",
  .serialized,
  .enabled(if: cClientIsBuilt, "build clients/c into .build/c first (scripts/test.sh does)")
)
struct CDeviceClientTests {
  typealias Telemetry = Binario_Telemetry_V1_Telemetry.Client<BinarioClientTransport>
  typealias Identity = Binario_Identity_V1_Identity.Client<BinarioClientTransport>
  typealias Dispatch = Binario_Dispatch_V1_Dispatch.Client<BinarioClientTransport>

  static let build = cClientBuild

  /// Runs a C program of `.build/c`; fails the test when a sanitizer reported anything.
  static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:], standardInput: String = "") async throws -> CommandRun {
    // The test command runs `swift test` under stdbuf, whose LD_PRELOAD the child inherits; ASan
    // wants to come first, and the preload is nothing to it.
    let run = try await CommandRun.run(
      executable: build.appendingPathComponent(name),
      arguments,
      environment: environment.merging(["ASAN_OPTIONS": "detect_leaks=1:verify_asan_link_order=0"]) { $1 },
      standardInput: standardInput
    )
    #expect(!run.standardError.contains("Sanitizer"), "\(name): \(run.standardError)")
    #expect(!run.standardError.contains("runtime error"), "\(name): \(run.standardError)")
    return run
  }

  /// `count` readings from `first` (seconds after 2024-01-20T08:00:00Z) as the board's CSV.
  static func readingsCSV(from first: Int, count: Int) -> String {
    var lines = ["time,latitude,longitude,temperature,pm2.5"]
    let start = Date(timeIntervalSince1970: 1_705_737_600)
    for index in first ..< (first + count) {
      let time = start.addingTimeInterval(Double(index)).formatted(.iso8601)
      lines.append("\(time),45.4642,9.19,\(3 + Double(index) / 10),\(10 + index % 7)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func libraryTestsSensorSpoolAndTaxi() async throws {
    try await RunningSuite.with { suite in
      try await suite.waitUntilTheGatewaySeesServing("telemetry")
      try await suite.waitUntilTheGatewaySeesServing("dispatch")
      let folder = suite.folder.appendingPathComponent("c-client")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let (token, deviceID, owner, admin, driver) = try await suite.withGatewayConnection { connection in
        let identity = Identity(wrapping: connection)
        let admin = try await identity.signInAdmin()
        let owner = try await identity.signUp(email: "moqa@example.com", admin: admin)
        let registered = try await Telemetry(wrapping: connection).registerDevice(.with { $0.name = "MOQA board" }, metadata: bearer(owner))
        let driver = try await DispatchTests.driver(identity, Dispatch(wrapping: connection), admin: admin, taxi: "MI-C1", at: DispatchTests.brera)
        return (registered.token, registered.device.id, owner, admin, driver)
      }
      let gateway = "127.0.0.1:\(suite.gatewayPort)"
      let common = ["--gateway", gateway, "--ca", suite.caFile, "--server-name", "localhost"]

      // The library's integration tests.
      let library = try await Self.run(
        "test_suite_calls",
        [],
        environment: [
          "BINARIO_TEST_GATEWAY": gateway, "BINARIO_TEST_CA": suite.caFile,
          "BINARIO_TEST_DEVICE_TOKEN": token, "BINARIO_TEST_DRIVER_TOKEN": driver.accessToken,
        ]
      )
      #expect(library.status == 0, "\(library.standardOutput)\n\(library.standardError)")
      #expect((library.standardOutput + library.standardError).contains("[  PASSED  ] 8 test(s)."), "\(library.standardOutput)")

      // The sensor: a file, then the same file again (already stored), JSON lines from stdin.
      let tokenFile = folder.appendingPathComponent("board.token")
      try Data(token.utf8).write(to: tokenFile)
      let spool = folder.appendingPathComponent("board.spool").path
      let sensor = common + ["--token-file", tokenFile.path, "--spool", spool]
      let first = folder.appendingPathComponent("first.csv")
      try Data(Self.readingsCSV(from: 0, count: 30).utf8).write(to: first)
      let sent = try await Self.run("binario-sensor", sensor + ["--batch", "7", first.path])
      #expect(sent.status == 0, "\(sent.standardError)")
      #expect(sent.standardOutput.contains("sent 30 readings: 30 accepted (30 stored, 0 already stored), 0 rejected"), "\(sent.standardOutput)")
      let again = try await Self.run("binario-sensor", sensor + [first.path])
      #expect(again.standardOutput.contains("sent 30 readings: 30 accepted (0 stored, 30 already stored)"), "\(again.standardOutput)")
      let piped = try await Self.run(
        "binario-sensor",
        sensor + ["-"],
        standardInput: #"{"time": "2024-01-20T09:00:00Z", "latitude": 45.4642, "longitude": 9.19, "pm2.5": 8.5}"# + "\n"
          + #"{"time": "2024-01-20T09:00:01Z", "latitude": 145, "longitude": 9.19}"# + "\nnot a reading\n"
      )
      #expect(
        piped.standardOutput.contains("sent 2 readings: 1 accepted (1 stored, 0 already stored), 1 rejected, 1 lines skipped"),
        "\(piped.standardOutput)"
      )
      #expect(piped.standardError.contains("not on the globe") && piped.standardError.contains("line 3"), "\(piped.standardError)")

      // The gateway stops: the readings wait in the spool (exit 75). Back on the same port, the
      // next run sends the spool first, then its own.
      let port = suite.gatewayPort
      suite.stopGateway()
      let offline = folder.appendingPathComponent("offline.csv")
      try Data(Self.readingsCSV(from: 100, count: 12).utf8).write(to: offline)
      let kept = try await Self.run("binario-sensor", sensor + ["--batch", "5", offline.path])
      #expect(kept.status == 75, "\(kept.standardOutput) \(kept.standardError)")
      #expect(kept.standardOutput.contains("12 readings wait in \(spool)"), "\(kept.standardOutput)")
      #expect(kept.standardError.contains("UNAVAILABLE"), "\(kept.standardError)")
      try await suite.restartGateway(port: port)
      try await suite.waitUntilTheGatewaySeesServing("telemetry")
      let back = folder.appendingPathComponent("back.csv")
      try Data(Self.readingsCSV(from: 200, count: 5).utf8).write(to: back)
      let resent = try await Self.run("binario-sensor", sensor + ["--batch", "5", back.path])
      #expect(resent.status == 0, "\(resent.standardError)")
      #expect(resent.standardOutput.contains("sent 17 readings: 17 accepted (17 stored, 0 already stored)"), "\(resent.standardOutput)")
      #expect(!FileManager.default.fileExists(atPath: spool))

      // A revoked token: refused (exit 1), the readings kept for a new token.
      try await suite.withGatewayConnection { connection in
        _ = try await Telemetry(wrapping: connection).revokeDeviceToken(.with { $0.deviceID = deviceID }, metadata: bearer(owner))
      }
      let late = folder.appendingPathComponent("late.csv")
      try Data(Self.readingsCSV(from: 300, count: 3).utf8).write(to: late)
      let refused = try await Self.run("binario-sensor", sensor + [late.path])
      #expect(refused.status == 1 && refused.standardError.contains("UNAUTHENTICATED"), "\(refused.standardError)")
      #expect(refused.standardOutput.contains("3 readings wait in \(spool)"), "\(refused.standardOutput)")

      // What telemetry holds: each reading once (30 + 12 + 5 with a temperature; the piped one has none).
      try await suite.withGatewayConnection { connection in
        let statistics = try await Telemetry(wrapping: connection).getStatistics(
          .with {
            $0.deviceID = deviceID
            $0.measure = .temperature
            $0.from = Google_Protobuf_Timestamp(date: Date(timeIntervalSince1970: 1_705_737_000))
            $0.to = Google_Protobuf_Timestamp(date: Date(timeIntervalSince1970: 1_705_800_000))
          },
          metadata: bearer(owner)
        )
        #expect(statistics.count == 47)
      }

      try await Self.taxi(suite, common: common, folder: folder, admin: admin, driver: driver)
    }
  }

  /// binario-taxi: a driver's unit becomes available, gets the offer of a passenger's request
  /// and accepts it; the first driver (the library tests') takes a break so the offer is its.
  static func taxi(
    _ suite: RunningSuite,
    common: [String],
    folder: URL,
    admin: Binario_Identity_V1_TokenPair,
    driver: Binario_Identity_V1_TokenPair
  ) async throws {
    try await suite.withGatewayConnection { connection in
      let identity = Identity(wrapping: connection)
      let dispatch = Dispatch(wrapping: connection)
      _ = try await dispatch.setAvailability(
        .with {
          $0.available = false
          $0.reason = "break"
        },
        metadata: bearer(driver)
      )
      let unit = try await DispatchTests.driver(identity, dispatch, admin: admin, taxi: "MI-C2", at: DispatchTests.duomo)
      _ = try await dispatch.setAvailability(
        .with {
          $0.available = false
          $0.reason = "off"
        },
        metadata: bearer(unit)
      )
      let passenger = try await identity.signUp(email: "rider@example.com", admin: admin)
      try await DispatchTests.makeReady(identity, passenger, admin: admin)

      let track = folder.appendingPathComponent("track.gpx")
      try Data(
        """
        <?xml version="1.0"?><gpx version="1.1"><trk><trkseg>
          <trkpt lat="45.46400" lon="9.18900"></trkpt>
          <trkpt lat="45.46419" lon="9.18960"></trkpt>
        </trkseg></trk></gpx>
        """.utf8
      ).write(to: track)
      let password = folder.appendingPathComponent("driver.password")
      try Data("a-driver-password-1\n".utf8).write(to: password)

      try await withThrowingTaskGroup(of: Void.self) { group in
        let monitor = StreamFeed<Binario_Dispatch_V1_MonitorSnapshot>(group: &group) { yield in
          try await dispatch.watchMonitor(.init(), metadata: bearer(admin)) { response in
            for try await message in response.messages { yield(message.snapshot) }
          }
        }
        // Awaiting a Task's value ignores cancellation; the stream's end is what the race waits on.
        let (unitEnded, unitEnding) = AsyncStream<Never>.makeStream()
        let unit = Task {
          defer { unitEnding.finish() }
          return try await Self.run(
            "binario-taxi",
            common + [
              "--email", "mi-c2@drivers.test", "--password-file", password.path, "--track", track.path, "--pace", "0.2", "--accept", "--offers", "1",
            ]
          )
        }
        // Once the unit has made its taxi available, a passenger asks for a taxi at the Duomo;
        // a unit that ends before that fails the test rather than leave it waiting.
        let queued = try await withThrowingTaskGroup(of: Bool.self) { race in
          race.addTask {
            _ = try await monitor.next { $0.zones.first { $0.zoneID == "C" }?.queue.map(\.code) == ["MI-C2"] }
            return true
          }
          race.addTask {
            for await _ in unitEnded {}
            return false
          }
          defer { race.cancelAll() }
          return try await race.next() ?? false
        }
        guard queued else {
          let run = try await unit.value
          Issue.record("binario-taxi ended before its taxi was queued: \(run.standardOutput)\n\(run.standardError)")
          group.cancelAll()
          return
        }
        let ride = try await dispatch.requestRide(DispatchTests.request(at: DispatchTests.duomo), metadata: bearer(passenger)).ride
        let run = try await unit.value
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(run.standardOutput.contains("signed in as mi-c2@drivers.test"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("at 45.464000,9.189000"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("accepted offer "), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("ride \(ride.rideID)"), "\(run.standardOutput)")
        let allocated = try await dispatch.getRide(.with { $0.rideID = ride.rideID }, metadata: bearer(passenger)).ride
        #expect(allocated.taxiCode == "MI-C2")
        group.cancelAll()
      }
    }
  }
}
