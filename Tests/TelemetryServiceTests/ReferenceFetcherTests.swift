import BinarioDomain
import BinarioStorage
import BinarioTestSupport
import Foundation
import Testing

@testable import TelemetryService

@Suite("Fetching from the open-data portal")
struct ReferenceFetcherTests {
  /// A local server playing the portal, a store on a temporary database, and a fetcher on a
  /// manual clock. The database is removed when the fixture goes away: a test ends by stopping
  /// the server, which keeps it until then.
  struct Fixture {
    let server: StaticHTTPServer
    let database: TemporaryDatabase
    let store: TelemetryStore
    let clock: ManualClock
    let fetcher: ReferenceFetcher

    func stop() async {
      await server.stop()
      try? database.remove()
    }
  }

  static func fixture() async throws -> Fixture {
    let server = try await StaticHTTPServer.start()
    let database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    let store = TelemetryStore(pool: database.pool)
    let clock = ManualClock(Date(timeIntervalSince1970: 1_672_617_600))
    let registry = DeviceRegistry(store: store, clock: clock)
    let reference = ReferenceData(store: store, queries: ReadingQueries(store: store, registry: registry))
    let fetcher = ReferenceFetcher(reference: reference, store: store, downloader: HTTPReferenceDownloader(), clock: clock)
    return Fixture(server: server, database: database, store: store, clock: clock, fetcher: fetcher)
  }

  static func rows(hours: Range<Int>) -> String {
    "["
      + hours.map { hour in
        "{\"idsensore\":\"5504\",\"data\":\"2023-01-01T\(String(format: "%02d", hour)):00:00.000\",\"valore\":\"\(10 + hour)\",\"stato\":\"VA\"}"
      }.joined(separator: ",") + "]"
  }

  @Test("a catalogue whole, measurements incrementally (only what is newer), a failure recorded and never fatal")
  func fetches() async throws {
    let fixture = try await Self.fixture()
    let (server, store, fetcher) = (fixture.server, fixture.store, fixture.fetcher)

    server.serve(ArpaImportTests.catalogueJSON, at: "/resource/ib47-atvt.json?$limit=5000")
    let stations = ReferenceSource(name: "air-stations", url: server.url("/resource/ib47-atvt.json?$limit=5000"), kind: .catalogue)
    #expect(try await fetcher.fetch(stations).added == 2)

    let values = ReferenceSource(name: "air-values", url: server.url("/resource/nicp-bhqi.json?idsensore=5504"), kind: .measurements)
    server.serve(Self.rows(hours: 0 ..< 12), at: "/resource/nicp-bhqi.json?idsensore=5504")
    #expect(try await fetcher.fetch(values).added == 12)
    // The next fetch asks only for what is later than 11:00 (the portal's standard time).
    let next = try await fetcher.url(for: values)
    #expect(next.contains("idsensore=5504") && next.contains("$where=data%20%3E%20'2023-01-01T11:00:00'"), "\(next)")
    server.serve(Self.rows(hours: 12 ..< 24), at: String(next.dropFirst(server.url("").count)))
    #expect(try await fetcher.fetch(values).added == 12)
    #expect(try await store.fetchState(source: "air-values").newest == Date(timeIntervalSince1970: 1_672_527_600 + 23 * 3600))

    // A source that fails: the error is recorded, the state kept, the next try starts from it.
    let broken = ReferenceSource(name: "broken", url: server.url("/nothing-here"), kind: .measurements)
    await #expect(throws: ServiceError.self) { try await fetcher.fetch(broken) }
    #expect(try await store.fetchState(source: "broken").lastError?.contains("HTTP 404") == true)
    #expect(ReferenceFetcher.backoff(failures: 1, period: .seconds(3600)) == .seconds(5))
    #expect(ReferenceFetcher.backoff(failures: 4, period: .seconds(3600)) == .seconds(40))
    #expect(ReferenceFetcher.backoff(failures: 30, period: .seconds(3600)) == .seconds(3600))
    await fixture.stop()
  }

  @Test("the example sources file decodes: a catalogue of the air-quality network, and measurements (network left out)")
  func exampleSources() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Services/Telemetry/DemoData/reference-sources.example.json")
    let sources = try JSONDecoder().decode([ReferenceSource].self, from: Data(contentsOf: file))
    #expect(sources.map(\.kind) == [.catalogue, .measurements])
    #expect(sources.allSatisfy { $0.network == .airQuality && $0.url.hasPrefix("https://www.dati.lombardia.it/resource/") })
  }

  @Test("sources fall due by their stored state: at once, a period after a success, after a backoff when failing; admins save and delete theirs")
  func schedule() async throws {
    let fixture = try await Self.fixture()
    let (server, store, clock, fetcher) = (fixture.server, fixture.store, fixture.clock, fixture.fetcher)
    server.serve(ArpaImportTests.catalogueJSON, at: "/stations.json")
    let configured = ReferenceSource(name: "stations", url: server.url("/stations.json"), kind: .catalogue)
    let sources = ReferenceSources(store: store, clock: clock, configured: [configured])
    let hour = Duration.seconds(3600)

    // Never fetched: due at once; then a period later.
    var next = await fetcher.fetchDue(sources, period: hour)
    #expect(next == clock.now().addingTimeInterval(3600))
    #expect(server.requestCount == 1)
    clock.advance(by: 1_800)
    #expect(await fetcher.fetchDue(sources, period: hour) == next && server.requestCount == 1)

    // An admin's source that fails: retried after 5 s, then 10 s; the configured one is untouched.
    try await sources.save(ReferenceSource(name: "values", url: server.url("/missing.json"), kind: .measurements))
    next = await fetcher.fetchDue(sources, period: hour)
    #expect(next == clock.now().addingTimeInterval(5) && server.requestCount == 2)
    clock.advance(by: 5)
    next = await fetcher.fetchDue(sources, period: hour)
    #expect(next == clock.now().addingTimeInterval(10) && server.requestCount == 3)
    #expect(try await store.fetchState(source: "values").consecutiveFailures == 2)
    // Once it is there, it succeeds and falls back to the period.
    server.serve(Self.rows(hours: 0 ..< 2), at: "/missing.json")
    clock.advance(by: 10)
    _ = await fetcher.fetchDue(sources, period: hour)
    let state = try await store.fetchState(source: "values")
    #expect(state.consecutiveFailures == 0 && ReferenceFetcher.nextFetch(state, period: hour) == clock.now().addingTimeInterval(3600))

    // What an admin may do with sources.
    #expect(try await sources.all().map(\.source.name) == ["stations", "values"])
    #expect(try await sources.all().map(\.configured) == [true, false])
    await #expect(throws: ServiceError.self) {
      try await sources.save(ReferenceSource(name: "stations", url: "https://example.org/x", kind: .catalogue))
    }
    await #expect(throws: ServiceError.self) {
      try await sources.save(ReferenceSource(name: "bad name!", url: "https://example.org/x", kind: .catalogue))
    }
    await #expect(throws: ServiceError.self) { try await sources.save(ReferenceSource(name: "x", url: "ftp://example.org/x", kind: .catalogue)) }
    await #expect(throws: ServiceError.self) { try await sources.delete(name: "stations") }
    try await sources.delete(name: "values")
    await #expect(throws: ServiceError.self) { try await sources.delete(name: "values") }
    #expect(try await sources.all().map(\.source.name) == ["stations"])
    await fixture.stop()
  }
}
