import ArgumentParser
import BenchSupport
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import GeoOffersService

/// `geo-bench`: geo-offers with a million deals spread over Lombardy.
///
/// 1. In the store (this process opens geo-offers' database beside the running service): radius
///    queries (300 m and 1 km, at most 100 hits) at random points, against a brute-force scan of
///    the same deals held in memory; the k nearest stations against a scan of the stations.
/// 2. Through the gateway: the same radius queries, nearest stations, and location reports with
///    their no-repeat bookkeeping (each report records what it offers and notifies it through
///    scheduling), against geo-offers' cheapest call (ListRouteOffers of a station with none).
///
/// identity, scheduling, ticketing, geo-offers and the gateway are the executables built beside
/// this one, started as `scripts/run-local.sh` starts them; geo-offers' database is written
/// before it starts.
@main
struct GeoBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "geo-bench",
    abstract: "Radius queries, nearest stations and location reports over a million deals, in the store and through the gateway."
  )

  @Option(help: "How many deals (each at its own shop).") var deals: Int = 1_000_000
  @Option(help: "Seconds per case.") var seconds: Double = 4
  @Option(help: "Calls in flight through the gateway.") var inFlight: [Int] = [1, 16]
  @Option(help: "Only the cases whose name starts with one of these, to profile one.") var only: [String] = []

  /// Lombardy's bounding box, roughly.
  static let latitudes = 44.68 ... 46.64
  static let longitudes = 8.50 ... 11.43

  static func randomPoint() -> GeoPoint {
    GeoPoint(latitude: .random(in: latitudes), longitude: .random(in: longitudes))
  }

  func run() throws {
    try EventLoopConcurrency.run(installing: true) { try await self.measure() }
  }

  func wanted(_ name: String) -> Bool { only.isEmpty || only.contains(where: { name.hasPrefix($0) }) }

  func measure() async throws {
    let positions = (0 ..< deals).map { _ in Self.randomPoint() }
    let flags = RunningSuite.ExtraFlags(identity: ["--access-token-lifetime", "3600"], gateway: ["--rate-limit", "off"])
    try await RunningSuite.with(
      extraFlags: flags,
      prepare: { folder in
        try await Self.writeDeals(positions, into: folder("geo-offers"))
      }
    ) { suite in
      try await suite.waitUntilTheGatewaySeesServing("geo-offers")
      Output.line(
        "geo-bench: \(deals) deals over Lombardy (\(Self.latitudes), \(Self.longitudes)); gateway, geo-offers, scheduling, "
          + "ticketing, identity as their own processes; this process the clients; \(ProcessInfo.processInfo.activeProcessorCount) cores"
      )
      let store = try GeoOffersStore(directory: suite.folder.appendingPathComponent("data/geo-offers").path)
      try await storeCases(store, positions: positions)
      try await gatewayCases(suite)
    }
  }

  /// The deals, each at a shop of its own, valid for a year, in transactions of 50,000.
  static func writeDeals(_ positions: [GeoPoint], into folder: URL) async throws {
    let started = ContinuousClock.now
    let store = try GeoOffersStore(directory: folder.path)
    let now = Date()
    for start in stride(from: 0, to: positions.count, by: 50_000) {
      var shops: [Shop] = []
      var deals: [(id: String, draft: DealDraft, from: Date, until: Date)] = []
      for index in start ..< min(start + 50_000, positions.count) {
        let shop = Shop(id: "sh_\(index)", name: "Shop \(index)", description: "", position: positions[index], stationID: "")
        shops.append(shop)
        let draft = DealDraft(shopID: shop.id, description: "Deal \(index)", discountPercent: 10 + index % 40, validFrom: nil, validUntil: nil)
        deals.append(("dl_\(index)", draft, now.addingTimeInterval(-3600), now.addingTimeInterval(365 * 86_400)))
      }
      try await store.insertAll(shops: shops, deals: deals, at: now)
    }
    Output.line("wrote \(positions.count) deals in \(started.duration(to: .now))")
  }

  // MARK: - In the store

  func storeCases(_ store: GeoOffersStore, positions: [GeoPoint]) async throws {
    Output.line()
    Output.line("## In the store, one query at a time (this process, geo-offers' database)")
    Output.line("| query | queries | per s | p50 µs | p99 µs | hits (mean, max) | brute-force scan: p50 µs | speed-up |")
    Output.line("|---|---:|---:|---:|---:|---:|---:|---:|")
    let now = Date()
    for radius in [300.0, 1_000.0] {
      let name = "deals within \(Int(radius)) m"
      guard wanted(name) else { continue }
      var latencies: [UInt64] = []
      var hits: [Int] = []
      let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
      while ContinuousClock.now < deadline {
        let point = Self.randomPoint()
        let start = ContinuousClock.now
        let found = try await store.activeDeals(within: radius, of: point, at: now, limit: 100)
        latencies.append(Self.nanoseconds(start.duration(to: .now)))
        hits.append(found.count)
      }
      // The same question by scanning every deal (in memory, no SQL: a floor for any scan), a
      // few times; the answers must agree.
      var scanLatencies: [UInt64] = []
      for _ in 0 ..< 5 {
        let point = Self.randomPoint()
        let start = ContinuousClock.now
        let scanned = positions.indices.filter { point.distance(to: positions[$0]) <= radius }
          .sorted { (point.distance(to: positions[$0]), $0) < (point.distance(to: positions[$1]), $1) }.prefix(100)
        scanLatencies.append(Self.nanoseconds(start.duration(to: .now)))
        let indexed = try await store.activeDeals(within: radius, of: point, at: now, limit: 100)
        guard indexed.map(\.item.id) == scanned.map({ "dl_\($0)" }) else {
          throw BenchError(message: "the R*Tree and the scan disagree at \(point) within \(radius) m")
        }
      }
      let result = LoadResult(calls: latencies.count, failures: 0, elapsed: .seconds(seconds), latencies: latencies, firstFailure: nil)
      let scan = LoadResult(calls: scanLatencies.count, failures: 0, elapsed: .seconds(1), latencies: scanLatencies, firstFailure: nil)
      Output.line(
        "| \(name) | \(latencies.count) | \(Int(result.callsPerSecond)) | \(Int(result.percentile(0.5))) | \(Int(result.percentile(0.99))) "
          + "| \(String(format: "%.1f", Double(hits.reduce(0, +)) / Double(max(hits.count, 1)))), \(hits.max() ?? 0) "
          + "| \(Int(scan.percentile(0.5))) | \(Int(scan.percentile(0.5) / max(result.percentile(0.5), 1)))× |"
      )
    }
    if wanted("nearest 3 stations") {
      let stations = try await store.stations()
      var latencies: [UInt64] = []
      let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
      while ContinuousClock.now < deadline {
        let start = ContinuousClock.now
        _ = try await store.nearestStations(to: Self.randomPoint(), count: 3)
        latencies.append(Self.nanoseconds(start.duration(to: .now)))
      }
      var scanLatencies: [UInt64] = []
      for _ in 0 ..< 1_000 {
        let point = Self.randomPoint()
        let start = ContinuousClock.now
        _ = stations.sorted { point.distance(to: $0.position) < point.distance(to: $1.position) }.prefix(3)
        scanLatencies.append(Self.nanoseconds(start.duration(to: .now)))
      }
      let result = LoadResult(calls: latencies.count, failures: 0, elapsed: .seconds(seconds), latencies: latencies, firstFailure: nil)
      let scan = LoadResult(calls: scanLatencies.count, failures: 0, elapsed: .seconds(1), latencies: scanLatencies, firstFailure: nil)
      Output.line(
        "| nearest 3 stations (of \(stations.count)) | \(latencies.count) | \(Int(result.callsPerSecond)) | \(Int(result.percentile(0.5))) "
          + "| \(Int(result.percentile(0.99))) | 3, 3 | \(Int(scan.percentile(0.5))) | - |"
      )
    }
  }

  // MARK: - Through the gateway

  func gatewayCases(_ suite: RunningSuite) async throws {
    let client = GRPCClient(
      transport: try BinarioClientTransport(
        host: "127.0.0.1",
        port: suite.gatewayPort,
        serverHostname: "localhost",
        tls: .client(trustRoots: .file(suite.caFile))
      )
    )
    try await withThrowingDiscardingTaskGroup { group in
      group.addTask { try await client.runConnections() }
      defer { client.beginGracefulShutdown() }
      let identity = Binario_Identity_V1_Identity.Client(wrapping: client)
      let geo = Binario_GeoOffers_V1_GeoOffers.Client(wrapping: client)
      let admin = try await identity.signInAdmin()
      var travellers: [Binario_Identity_V1_TokenPair] = []
      for index in 0 ..< 4 { travellers.append(try await identity.signUp(email: "traveller\(index)@example.com", admin: admin)) }
      let people = travellers
      let processes = suite.processIdentifiers.filter { ["gateway", "geo-offers", "scheduling", "ticketing"].contains($0.key) }

      Output.line()
      Output.line("## Through the gateway, \(seconds) s per case (CPU: µs per call)")
      Output.line("| case | in flight | per s | p50 µs | p99 µs | CPU: geo-offers | gateway | scheduling | ticketing |")
      Output.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
      let cases: [(String, @Sendable () async throws -> Void)] = [
        ("ListRouteOffers, none (baseline)", { _ = try await geo.listRouteOffers(.with { $0.stationID = "LODI" }) }),
        (
          "ListNearbyDeals 300 m",
          {
            let point = Self.randomPoint()
            _ = try await geo.listNearbyDeals(
              .with {
                $0.latitude = point.latitude
                $0.longitude = point.longitude
                $0.radiusMetres = 300
              }
            )
          }
        ),
        (
          "ListNearbyDeals 1 km",
          {
            let point = Self.randomPoint()
            _ = try await geo.listNearbyDeals(
              .with {
                $0.latitude = point.latitude
                $0.longitude = point.longitude
                $0.radiusMetres = 1_000
              }
            )
          }
        ),
        (
          "ListNearestStations 3",
          {
            let point = Self.randomPoint()
            _ = try await geo.listNearestStations(
              .with {
                $0.latitude = point.latitude
                $0.longitude = point.longitude
                $0.count = 3
              }
            )
          }
        ),
        (
          "ReportLocation (no-repeat, Notify)",
          {
            let point = Self.randomPoint()
            _ = try await geo.reportLocation(
              .with {
                $0.latitude = point.latitude
                $0.longitude = point.longitude
                $0.accuracyMetres = 25
              },
              metadata: bearer(people.randomElement()!)
            )
          }
        ),
      ]
      for concurrency in inFlight {
        for (name, call) in cases where wanted(name) {
          let result = await AsyncCallLoad.run(
            concurrency: concurrency,
            for: .milliseconds(Int64(seconds * 1000)),
            measuring: processes,
            call: call
          )
          if let failure = result.firstFailure { Output.line("warning: \(result.failures) failed (\(name)): \(failure)") }
          func cpu(_ process: String) -> String { result.cpuPerCall(process).map { String(Int($0.rounded())) } ?? "-" }
          Output.line(
            "| \(name) | \(concurrency) | \(Int(result.callsPerSecond)) | \(Int(result.percentile(0.5))) | \(Int(result.percentile(0.99))) "
              + "| \(cpu("geo-offers")) | \(cpu("gateway")) | \(cpu("scheduling")) | \(cpu("ticketing")) |"
          )
        }
      }
      if let pid = suite.processIdentifiers["geo-offers"], let memory = ProcessMemory.of(processIdentifier: pid) {
        Output.line()
        Output.line(
          "geo-offers' resident memory at the end: \(ProcessMemory.mebibytes(memory.residentBytes)) "
            + "(peak \(ProcessMemory.mebibytes(memory.peakResidentBytes))), of which its own (anonymous) "
            + "\(ProcessMemory.mebibytes(memory.anonymousBytes)); the rest is the database file mapped by each connection"
        )
      }
    }
  }

  static func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
  }
}
