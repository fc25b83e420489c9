import ArgumentParser
import BinarioLoad
import BinarioServiceKit
import Foundation

/// `binario-loadgen`: the five apps' people against a running suite, at a constant arrival rate,
/// through one of the gateway's front doors (`docs/capacity.md`).
public struct LoadGeneratorCommand: ParsableCommand, Sendable {
  public static let configuration = CommandConfiguration(
    commandName: "binario-loadgen",
    abstract: "Plays the five apps' people against a running suite at a constant arrival rate and reports each operation's latency.",
    discussion: """
      Makes its own travellers and drivers first (new accounts, through the door, with the admin's \
      account to read their confirmation codes), then plays the mix. Latency counts from each \
      call's intended start. Exits 1 when an operation failed or, with --find-capacity, when no rate \
      was sustained.
      """
  )

  @Option(help: "The gateway's host: the name in its certificate.")
  var host = "localhost"

  @Option(help: "The gateway's Binario port.")
  var binarioPort = 7100

  @Option(help: "The gateway's gRPC port.")
  var grpcPort = 7110

  @Option(help: "The gateway's HTTPS (HTTP/JSON) port.")
  var httpPort = 7443

  @Option(help: "The CA certificate (PEM) the gateway's certificate is checked against.")
  var ca = ".dev/certs/ca.pem"

  @Option(help: "The front door: binario, grpc or http-json; repeated, each in turn with the same people (made through the first).")
  var door: [DoorKind] = [.binario]

  @Option(help: "The mix: what people do, how often, and how many of them.")
  var mix = "Benchmarks/LoadGenerator/mix.json"

  @Option(help: "Operations per second, all together (default: the mix's).")
  var rate: Double?

  @Option(help: "Seconds of measured load (0: until stopped, a report every --report-every seconds).")
  var seconds = 30

  @Option(help: "Seconds of load before measuring.")
  var warmUp = 2

  @Option(help: "With --seconds 0: seconds between reports.")
  var reportEvery = 60

  @Flag(help: "Find the highest rate sustained with every operation's p99 under --p99-limit and nothing failed, from --rate up.")
  var findCapacity = false

  @Option(help: "Milliseconds every operation's p99 must stay under.")
  var p99Limit = 100

  @Option(help: "Travellers to make (default: the mix's).")
  var travellers: Int?

  @Option(help: "Drivers to make (default: the mix's).")
  var drivers: Int?

  @Option(help: "The admin's email (reads the new accounts' codes, makes drivers' taxis, delays runs).")
  var adminEmail = ProcessInfo.processInfo.environment["BINARIO_ADMIN_EMAIL"] ?? "admin@binario.local"

  @Option(help: "A file holding the admin's password (else BINARIO_ADMIN_PASSWORD, else .dev/admin-password).")
  var adminPasswordFile: String?

  @Option(help: "Connections to the gateway (Binario and gRPC doors; a connection carries at most 100 calls at once).")
  var connections = 8

  @Option(help: "Also write the reports as JSON to this file.")
  var json: String?

  public func validate() throws {
    guard seconds >= 0 else { throw ValidationError("--seconds: \(seconds) is below 0") }
    guard warmUp >= 0 else { throw ValidationError("--warm-up: \(warmUp) is below 0") }
    guard reportEvery > 0 else { throw ValidationError("--report-every: \(reportEvery) is not above 0") }
    guard connections > 0 else { throw ValidationError("--connections: \(connections) is not above 0") }
    guard p99Limit > 0 else { throw ValidationError("--p99-limit: \(p99Limit) is not above 0") }
    if let rate, !(rate > 0) { throw ValidationError("--rate: \(rate) is not above 0") }
    if findCapacity, seconds == 0 { throw ValidationError("--find-capacity needs --seconds above 0 (each step's length)") }
  }

  public init() {}

  public func run() throws {
    // NIO's event loops as the executor, as the services run: fewer thread hops per call, so
    // more of the two cores is left to the suite.
    try EventLoopConcurrency.run(installing: true) { try await self.generate() }
  }

  private func generate() async throws {
    var mix: LoadMix
    do {
      mix = try LoadMix.read(URL(fileURLWithPath: self.mix))
    } catch let error as MixError {
      throw ValidationError("--mix \(error)")
    }
    if let travellers { mix.travellers = travellers }
    if let drivers { mix.drivers = drivers }
    mix.notificationStreams = min(mix.notificationStreams, mix.travellers)
    do {
      try mix.check()
    } catch let error as MixError {
      throw ValidationError("--mix: \(error)")
    }
    let password = try adminPassword()
    let gateway = Gateway(host: host, binarioPort: binarioPort, grpcPort: grpcPort, httpPort: httpPort, caFile: ca)
    let began = ContinuousClock.now
    let cast = try await gateway.withDoor(door[0], connections: 1, timeout: .seconds(30)) { door in
      try await Cast.make(
        through: door,
        admin: adminEmail,
        password: password,
        travellers: mix.travellers,
        drivers: mix.drivers,
        progress: {
          print("cast: \($0)")
          fflush(nil)
        }
      )
    }
    print("cast: ready in \(ContinuousClock.now - began)")
    var reports: [LoadReport] = []
    var failed = false
    for kind in door {
      try await gateway.withDoor(kind, connections: connections, timeout: .seconds(10)) { door in
        let (played, clean) = try await LoadGenerator(door: door, cast: cast, mix: mix).withNotificationStreamsOpen { generator in
          await play(generator, mix: mix)
        }
        reports += played
        failed = failed || !clean
      }
    }
    if let json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(reports).write(to: URL(fileURLWithPath: json))
    }
    if failed { throw ExitCode(1) }
  }

  /// Plays the mix through one door as the flags say: its reports, and whether they were clean
  /// (nothing failed; with --find-capacity, a rate sustained).
  private func play(_ generator: LoadGenerator, mix: LoadMix) async -> ([LoadReport], Bool) {
    let rate = self.rate ?? mix.rate
    let door = generator.door.kind.rawValue
    if findCapacity {
      let search = CapacitySearch(startRate: rate, p99Limit: .milliseconds(p99Limit), stepDuration: .seconds(seconds), warmUp: .seconds(warmUp))
      let result = await search.run(
        generator,
        step: { report, sustained in
          print("\n\(sustained ? "sustained" : "NOT sustained"): \(report.table)")
          fflush(nil)
        }
      )
      if let best = result.sustained {
        print(
          "\ncapacity through \(door): \(String(format: "%.0f", best.rate)) operations/s "
            + "(\(String(format: "%.0f", best.completedPerSecond)) completed/s) with every p99 under \(p99Limit) ms"
        )
      } else {
        print("\ncapacity through \(door): no rate tried was sustained")
      }
      if let failed = result.failedAbove, let slowest = failed.slowest {
        print("what gave first at \(String(format: "%.0f", failed.rate))/s: \(slowest.name) p99 \(slowest.p99 / 1000) ms, \(failed.failed) failed")
      }
      return (result.steps, result.sustained != nil)
    }
    if seconds == 0 {
      var warmUp = Duration.seconds(self.warmUp)
      while !Task.isCancelled {
        let report = await generator.run(rate: rate, for: .seconds(reportEvery), warmUp: warmUp)
        print("\n\(report.table)")
        fflush(nil)  // each report as it is made, also into a container's log
        warmUp = .zero
      }
      return ([], true)
    }
    let report = await generator.run(rate: rate, for: .seconds(seconds), warmUp: .seconds(warmUp))
    print("\n\(report.table)")
    return ([report], report.failed == 0)
  }

  private func adminPassword() throws -> String {
    if let adminPasswordFile {
      return try String(contentsOfFile: adminPasswordFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    if let password = ProcessInfo.processInfo.environment["BINARIO_ADMIN_PASSWORD"], !password.isEmpty { return password }
    if let password = try? String(contentsOfFile: ".dev/admin-password", encoding: .utf8) {
      return password.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    throw ValidationError("the admin's password: pass --admin-password-file or set BINARIO_ADMIN_PASSWORD")
  }
}

extension DoorKind: ExpressibleByArgument {}
