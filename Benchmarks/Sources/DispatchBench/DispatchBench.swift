import ArgumentParser
import BenchSupport
import BinarioProto
import BinarioServiceKit
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import Synchronization

/// `dispatch-bench`: a thousand simulated taxis through the gateway, each reporting its position
/// every second and listening on its driver stream, accepting every offer at once; passengers
/// requesting at a steady rate. It reports the position reports per second dispatch sustains
/// with the server CPU per report (the baseline: reports alone), then, per request rate, the
/// latency from a request's start to the offer arriving on the driver's stream (target: p99
/// under 5 ms), and the highest rate at which the target holds.
///
/// The suite's executables are built beside this one and started as `scripts/run-local.sh`
/// starts them; this process is every client (taxis, passengers), on the same two cores.
@main
struct DispatchBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "dispatch-bench",
    abstract: "Taxis reporting positions and passengers requesting through the gateway: request → offer latency and reports per second."
  )

  @Option(help: "Simulated taxis (each reports once a second and keeps its driver stream open).") var taxis = 1000
  @Option(help: "Passengers taking turns to request.") var passengers = 64
  @Option(help: "Seconds per case.") var seconds: Double = 8
  @Option(help: "Request rates (per second) to try, in order.") var rates: [Double] = [5, 10, 20, 40, 80]
  @Option(help: "Connections to the gateway the taxis share (a connection takes at most 100 open calls: 1,000 driver streams need more than 10).")
  var connections = 32
  @Option(help: "The p99 target for request → offer, in milliseconds.") var targetMilliseconds: Double = 5

  func run() throws {
    try EventLoopConcurrency.run(installing: true) { try await self.measure() }
  }

  func measure() async throws {
    let flags = RunningSuite.ExtraFlags(
      identity: ["--access-token-lifetime", "3600", "--password-hash-cost", "10"],
      dispatch: ["--offer-timeout", "30"],
      gateway: ["--rate-limit", "off"]
    )
    try await RunningSuite.with(extraFlags: flags) { suite in
      try await suite.waitUntilTheGatewaySeesServing("dispatch")
      let pids = suite.processIdentifiers
      Output.line(
        "dispatch-bench: \(taxis) taxis, \(passengers) passengers; gateway, dispatch, identity, scheduling as their own processes; "
          + "this process every client; \(ProcessInfo.processInfo.activeProcessorCount) cores; TLS on loopback"
      )
      let clients = try (0 ..< connections).map { _ in
        GRPCClient(
          transport: try BinarioClientTransport(
            host: "127.0.0.1",
            port: suite.gatewayPort,
            serverHostname: "localhost",
            tls: .client(trustRoots: .file(suite.caFile))
          )
        )
      }
      try await withThrowingDiscardingTaskGroup { group in
        for client in clients { group.addTask { try await client.runConnections() } }
        defer { clients.forEach { $0.beginGracefulShutdown() } }
        let fleet = try await Fleet.prepare(clients: clients, taxis: taxis, passengers: passengers)
        Output.line("prepared: \(fleet.drivers.count) taxis available, \(fleet.riders.count) passengers ready")

        // Every driver's stream, accepting each offer as it comes; the passenger then cancels
        // (free) and the taxi gets its place back: the queues stay full.
        let offers = OfferLog()
        for (index, driver) in fleet.drivers.enumerated() {
          let dispatch = Binario_Dispatch_V1_Dispatch.Client(wrapping: clients[index % clients.count])
          group.addTask {
            try? await dispatch.watchJobs(.init(), metadata: bearer(driver.tokens)) { response in
              for try await message in response.messages {
                guard case .offer(let offer) = message.event else { continue }
                offers.arrived(offer.ride.rideID)
                _ = try? await dispatch.acceptOffer(.with { $0.offerID = offer.offerID }, metadata: bearer(driver.tokens))
                if let rider = offers.rider(of: offer.ride.rideID) {
                  _ = try? await dispatch.cancelRide(.with { $0.rideID = offer.ride.rideID }, metadata: bearer(rider))
                }
                offers.finished(offer.ride.rideID)
              }
            }
          }
        }
        var processes = pids.filter { ["gateway", "dispatch", "identity"].contains($0.key) }
        // The clients' own share of the two cores: a thousand taxis' TLS and streams.
        processes["clients"] = ProcessInfo.processInfo.processIdentifier

        Output.line()
        Output.line("## Position reports, \(taxis) taxis once a second each, \(seconds) s per case (CPU: µs per call)")
        Output.line(
          "| case | requests per s | reports per s | report p99 µs | offers | request → offer p50 µs | p99 µs | RequestRide p50 µs | p99 µs | CPU dispatch | gateway | clients | cores busy |"
        )
        Output.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        var best: Double?
        for rate in [0] + rates {
          let outcome = try await Self.run(fleet: fleet, clients: clients, rate: rate, seconds: seconds, offers: offers, processes: processes)
          let calls = outcome.reports.calls + outcome.requests
          func cpu(_ name: String) -> String {
            guard let usage = outcome.reports.usage[name], calls > 0 else { return "-" }
            return String(Int((Double(usage.cpuNanoseconds) / 1_000 / Double(calls)).rounded()))
          }
          // All the processes' CPU over the case's wall time: 2.0 is both cores.
          func busy(_ load: LoadResult) -> String {
            let seconds = Double(load.elapsed.components.seconds) + Double(load.elapsed.components.attoseconds) / 1e18
            let total = load.usage.values.reduce(0) { $0 + Double($1.cpuNanoseconds) }
            return seconds > 0 ? String(format: "%.2f", total / 1e9 / seconds) : "-"
          }
          let latency = outcome.offerLatencies.sorted()
          func percentile(_ p: Double) -> String {
            latency.isEmpty ? "-" : String(latency[min(latency.count - 1, Int(Double(latency.count) * p))] / 1_000)
          }
          Output.line(
            "| \(rate == 0 ? "reports only (baseline)" : "reports + requests") | \(Int(rate)) | \(Int(outcome.reports.callsPerSecond)) "
              + "| \(Int(outcome.reports.percentile(0.99))) | \(latency.count)/\(outcome.requests) | \(percentile(0.5)) | \(percentile(0.99)) "
              + "| \(outcome.requestP50.map(String.init) ?? "-") | \(outcome.requestP99.map(String.init) ?? "-") "
              + "| \(cpu("dispatch")) | \(cpu("gateway")) | \(cpu("clients")) | \(busy(outcome.reports)) |"
          )
          if outcome.reports.failures > 0, let failure = outcome.reports.firstFailure {
            Output.line("warning: \(outcome.reports.failures) reports failed: \(failure)")
          }
          if let failure = outcome.requestFailure { Output.line("warning: a request failed: \(failure)") }
          if rate > 0, !latency.isEmpty, latency.count >= outcome.requests * 9 / 10,
            Double(latency[min(latency.count - 1, Int(Double(latency.count) * 0.99))]) / 1_000_000 < targetMilliseconds
          {
            best = rate
          }
        }
        Output.line()
        Output.line(
          best.map { "highest request rate with request → offer p99 under \(targetMilliseconds) ms: \(Int($0))/s (with \(taxis) reports/s)" }
            ?? "the p99 target of \(targetMilliseconds) ms was not met at any rate tried"
        )
        let memory = ["dispatch", "gateway"].compactMap { name -> String? in
          guard let pid = pids[name], let figures = ProcessMemory.of(processIdentifier: pid) else { return nil }
          return "\(name) \(ProcessMemory.mebibytes(figures.residentBytes)) (peak \(ProcessMemory.mebibytes(figures.peakResidentBytes)))"
        }
        Output.line("resident memory at the end: \(memory.joined(separator: "; "))")
        group.cancelAll()
      }
    }
  }

  struct Outcome {
    var reports: LoadResult
    var requests: Int
    var offerLatencies: [UInt64]
    var requestFailure: String?
    var requestP50: UInt64?
    var requestP99: UInt64?
  }

  /// One case: every taxi reports once a second (paced), and passengers request at `rate`.
  static func run(
    fleet: Fleet,
    clients: [GRPCClient<BinarioClientTransport>],
    rate: Double,
    seconds: Double,
    offers: OfferLog,
    processes: [String: Int32]
  ) async throws -> Outcome {
    let duration = Duration.milliseconds(Int64(seconds * 1000))
    let requests = RequestLog()
    async let reports = PacedReports.run(fleet: fleet, clients: clients, for: duration, measuring: processes)
    if rate > 0 {
      let dispatch = Binario_Dispatch_V1_Dispatch.Client(wrapping: clients[0])
      let interval = Duration.nanoseconds(Int64(1_000_000_000 / rate))
      let start = ContinuousClock.now
      await withDiscardingTaskGroup { group in
        var next = start
        var turn = 0
        while next < start + duration {
          try? await Task.sleep(until: next, clock: .continuous)
          let rider = fleet.riders[turn % fleet.riders.count]
          turn += 1
          let place = fleet.randomPlace()
          group.addTask {
            let began = ContinuousClock.now
            do {
              let ride = try await dispatch.requestRide(
                .with {
                  $0.pickup = .with {
                    $0.position = .with {
                      $0.latitude = place.latitude
                      $0.longitude = place.longitude
                    }
                  }
                  $0.idempotencyKey = UUID().uuidString
                },
                metadata: bearer(rider)
              ).ride
              let (seconds, attoseconds) = (ContinuousClock.now - began).components
              offers.started(ride.rideID, at: began, by: rider)
              requests.count(UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
            } catch {
              requests.failed("\(error)")
            }
          }
          next += interval
        }
      }
      // Let the last offers arrive and their rides end before the next case.
      try await offers.drain()
    }
    let latencies = offers.takeLatencies()
    return Outcome(
      reports: await reports,
      requests: requests.total,
      offerLatencies: latencies,
      requestFailure: requests.firstFailure,
      requestP50: requests.percentile(0.5),
      requestP99: requests.percentile(0.99)
    )
  }
}

/// The simulated fleet and the passengers.
struct Fleet: Sendable {
  struct Driver: Sendable {
    var tokens: Binario_Identity_V1_TokenPair
    var position: (latitude: Double, longitude: Double)
  }

  var drivers: [Driver]
  var riders: [Binario_Identity_V1_TokenPair]

  /// Inside Milan's nine demo zones.
  func randomPlace() -> (latitude: Double, longitude: Double) {
    (Double.random(in: 45.395 ... 45.535), Double.random(in: 9.065 ... 9.275))
  }

  static func prepare(clients: [GRPCClient<BinarioClientTransport>], taxis: Int, passengers: Int) async throws -> Fleet {
    let identity = Binario_Identity_V1_Identity.Client(wrapping: clients[0])
    let dispatch = Binario_Dispatch_V1_Dispatch.Client(wrapping: clients[0])
    let admin = try await identity.signInAdmin()
    let drivers = try await withThrowingTaskGroup(of: Driver.self) { group in
      var made: [Driver] = []
      for index in 0 ..< taxis {
        if index >= 8 { made.append(try await group.next()!) }
        group.addTask {
          let email = "driver\(index)@bench.test"
          let profile = try await identity.createDriver(
            .with {
              $0.email = email
              $0.password = "a-driver-password-1"
              $0.firstName = "Driver"
              $0.lastName = "\(index)"
            },
            metadata: bearer(admin)
          ).profile
          let code = String(format: "B-%04d", index)
          _ = try await dispatch.createTaxi(
            .with {
              $0.taxi = .with {
                $0.code = code
                $0.plate = "BENCH\(index)"
                $0.driverUserID = profile.userID
              }
            },
            metadata: bearer(admin)
          )
          let tokens = try await identity.login(
            .with {
              $0.email = email
              $0.password = "a-driver-password-1"
            }
          ).tokens
          let place = (Double.random(in: 45.395 ... 45.535), Double.random(in: 9.065 ... 9.275))
          _ = try await dispatch.reportPosition(
            .with {
              $0.position = .with {
                $0.latitude = place.0
                $0.longitude = place.1
              }
            },
            metadata: bearer(tokens)
          )
          _ = try await dispatch.setAvailability(.with { $0.available = true }, metadata: bearer(tokens))
          return Driver(tokens: tokens, position: place)
        }
      }
      for try await driver in group { made.append(driver) }
      return made
    }
    var riders: [Binario_Identity_V1_TokenPair] = []
    for index in 0 ..< passengers {
      // One at a time: each reads its own phone code from the outbox.
      let email = "rider\(index)@bench.test"
      let phone = String(format: "+3934%08d", index)
      _ = try await identity.register(
        .with {
          $0.email = email
          $0.password = "a-rider-password-1"
          $0.firstName = "Rider"
          $0.lastName = "\(index)"
          $0.phone = phone
        }
      )
      let code = try await identity.confirmationCode(for: email, admin: admin)
      _ = try await identity.confirmEmail(
        .with {
          $0.email = email
          $0.code = code
        }
      )
      let tokens = try await identity.login(
        .with {
          $0.email = email
          $0.password = "a-rider-password-1"
        }
      ).tokens
      let phoneCode = try await identity.phoneCode(for: phone, admin: admin)
      _ = try await identity.verifyPhone(.with { $0.code = phoneCode }, metadata: bearer(tokens))
      _ = try await identity.addPaymentMethod(
        .with {
          $0.cardNumber = "4242424242424242"
          $0.expiryMonth = 12
          $0.expiryYear = 2035
          $0.securityCode = "123"
        },
        metadata: bearer(tokens)
      )
      riders.append(tokens)
    }
    return Fleet(drivers: drivers, riders: riders)
  }
}

/// Every taxi reports its position once a second, spread evenly over the second.
enum PacedReports {
  static func run(
    fleet: Fleet,
    clients: [GRPCClient<BinarioClientTransport>],
    for duration: Duration,
    measuring processes: [String: Int32]
  ) async -> LoadResult {
    let before = processes.compactMapValues { ProcessUsage.of(processIdentifier: $0) }
    let started = ContinuousClock.now
    let deadline = started + duration
    let lanes = 64
    let outcomes = await withTaskGroup(of: (latencies: [UInt64], failures: Int, firstFailure: String?).self) { group in
      for lane in 0 ..< lanes {
        let mine = stride(from: lane, to: fleet.drivers.count, by: lanes).map { fleet.drivers[$0] }
        let dispatch = Binario_Dispatch_V1_Dispatch.Client(wrapping: clients[lane % clients.count])
        group.addTask {
          var latencies: [UInt64] = []
          var failures = 0
          var firstFailure: String?
          guard !mine.isEmpty else { return (latencies, failures, firstFailure) }
          let spacing = Duration.nanoseconds(1_000_000_000 / Int64(mine.count))
          var next = started + .nanoseconds(Int64(lane) * 1_000_000_000 / Int64(lanes * max(mine.count, 1)))
          var index = 0
          while next < deadline {
            try? await Task.sleep(until: next, clock: .continuous)
            let driver = mine[index % mine.count]
            index += 1
            let jitter = (Double.random(in: -0.0002 ... 0.0002), Double.random(in: -0.0002 ... 0.0002))
            let begin = ContinuousClock.now
            do {
              _ = try await dispatch.reportPosition(
                .with {
                  $0.position = .with {
                    $0.latitude = driver.position.latitude + jitter.0
                    $0.longitude = driver.position.longitude + jitter.1
                  }
                },
                metadata: bearer(driver.tokens)
              )
              let (seconds, attoseconds) = (ContinuousClock.now - begin).components
              latencies.append(UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
            } catch {
              failures += 1
              if firstFailure == nil { firstFailure = "\(error)" }
            }
            next += spacing
          }
          return (latencies, failures, firstFailure)
        }
      }
      var all: [(latencies: [UInt64], failures: Int, firstFailure: String?)] = []
      for await outcome in group { all.append(outcome) }
      return all
    }
    var result = LoadResult(
      calls: outcomes.reduce(0) { $0 + $1.latencies.count },
      failures: outcomes.reduce(0) { $0 + $1.failures },
      elapsed: ContinuousClock.now - started,
      latencies: outcomes.flatMap(\.latencies),
      firstFailure: outcomes.lazy.compactMap(\.firstFailure).first
    )
    for (name, pid) in processes {
      if let earlier = before[name], let now = ProcessUsage.of(processIdentifier: pid) { result.usage[name] = now.since(earlier) }
    }
    return result
  }
}

/// When each request started and when its offer reached a driver.
final class OfferLog: Sendable {
  private struct State {
    var starts: [String: (ContinuousClock.Instant, Binario_Identity_V1_TokenPair)] = [:]
    var arrivals: [String: ContinuousClock.Instant] = [:]
    var open = 0
  }

  private let state = Mutex(State())

  func started(_ rideID: String, at instant: ContinuousClock.Instant, by rider: Binario_Identity_V1_TokenPair) {
    state.withLock {
      $0.starts[rideID] = (instant, rider)
      $0.open += 1
    }
  }

  func arrived(_ rideID: String) {
    let now = ContinuousClock.now
    state.withLock { if $0.arrivals[rideID] == nil { $0.arrivals[rideID] = now } }
  }

  func rider(of rideID: String) -> Binario_Identity_V1_TokenPair? {
    state.withLock { $0.starts[rideID]?.1 }
  }

  func finished(_ rideID: String) {
    state.withLock { if $0.starts[rideID] != nil { $0.open -= 1 } }
  }

  /// Waits (up to 10 s) for every started request's ride to be offered and cancelled.
  func drain() async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while state.withLock({ $0.open > 0 }) && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  /// Request → offer latencies in nanoseconds, forgetting them.
  func takeLatencies() -> [UInt64] {
    state.withLock { state in
      let latencies = state.starts.compactMap { rideID, start -> UInt64? in
        guard let arrival = state.arrivals[rideID] else { return nil }
        let (seconds, attoseconds) = (arrival - start.0).components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
      }
      state = State()
      return latencies
    }
  }
}

/// How many requests were made and the first failure.
final class RequestLog: Sendable {
  private let state = Mutex((total: 0, firstFailure: String?.none, latencies: [UInt64]()))

  func count(_ latency: UInt64) {
    state.withLock {
      $0.total += 1
      $0.latencies.append(latency)
    }
  }
  /// The `RequestRide` call's own latency at `p`, in µs.
  func percentile(_ p: Double) -> UInt64? {
    state.withLock { state in
      let sorted = state.latencies.sorted()
      return sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] / 1_000
    }
  }
  func failed(_ description: String) { state.withLock { if $0.firstFailure == nil { $0.firstFailure = description } } }
  var total: Int { state.withLock { $0.total } }
  var firstFailure: String? { state.withLock { $0.firstFailure } }
}
