import BinarioDomain
import BinarioStorage
import BinarioTestSupport
import Foundation
import Synchronization
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

  @Test("a file that is not the query API is read whole over HTTP; a failure is recorded and never fatal")
  func fetches() async throws {
    let fixture = try await Self.fixture()
    let (server, store, fetcher) = (fixture.server, fixture.store, fixture.fetcher)

    server.serve(String(decoding: try ArpaImportTests.fixture("stazioni-aria.json"), as: UTF8.self), at: "/files/stazioni.json")
    let stations = ReferenceSource(name: "air-stations", url: server.url("/files/stazioni.json"), kind: .catalogue)
    #expect(try await fetcher.fetch(stations).added == 4)
    server.serve(String(decoding: try ArpaImportTests.fixture("sensori-aria-2024.csv"), as: UTF8.self), at: "/files/sensori_aria_2024.csv")
    let archive = ReferenceSource(name: "air-2024", url: server.url("/files/sensori_aria_2024.csv"), kind: .measurements)
    let outcome = try await fetcher.fetch(archive)
    #expect(outcome.added == 4 && outcome.skipped == 2 && server.requestCount == 2)
    #expect(
      try await store.cursors(source: "air-2024") == [
        "5504": Date(timeIntervalSince1970: 1_704_150_000), "6956": Date(timeIntervalSince1970: 1_704_067_200),
      ]
    )

    // A source that fails: the error is recorded, the state kept, the next try starts from it.
    let broken = ReferenceSource(name: "broken", url: server.url("/nothing-here"), kind: .measurements)
    await #expect(throws: ServiceError.self) { try await fetcher.fetch(broken) }
    #expect(try await store.fetchState(source: "broken").lastError?.contains("HTTP 404") == true)
    #expect(ReferenceFetcher.backoff(failures: 1, period: .seconds(3600)) == .seconds(5))
    #expect(ReferenceFetcher.backoff(failures: 4, period: .seconds(3600)) == .seconds(40))
    #expect(ReferenceFetcher.backoff(failures: 30, period: .seconds(3600)) == .seconds(3600))
    await fixture.stop()
  }

  /// The portal's query API as far as the fetcher uses it: `$where` clauses ANDed (`idsensore =`,
  /// `data >=`, `data <`), `$order`, `$limit` and `$offset`, and a cap on a page's rows it
  /// applies whatever `$limit` asks (as Socrata does), so a page comes back cut short.
  final class FakePortal: ReferenceDownloader, Sendable {
    typealias Row = [String: String]
    let state = Mutex<(datasets: [String: [Row]], asked: [String])>(([:], []))
    let cap: Int

    init(cap: Int) { self.cap = cap }

    func publish(_ rows: [Row], at path: String) {
      state.withLock { $0.datasets[path, default: []] += rows }
    }

    var asked: [String] { state.withLock { $0.asked } }

    func get(_ url: String) async throws -> Data {
      let components = try #require(URLComponents(string: url))
      let query = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
      let all = state.withLock { state in
        state.asked.append(url)
        return state.datasets[components.path] ?? []
      }
      var rows = all
      for clause in (query["$where"] ?? "").components(separatedBy: " AND ") where !clause.isEmpty {
        let parts = clause.trimmingCharacters(in: CharacterSet(charactersIn: "() ")).components(separatedBy: " ")
        let value = parts.last!.trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        switch (parts[0], parts[1]) {
        case ("idsensore", "="): rows = rows.filter { $0["idsensore"] == value }
        case ("data", ">="): rows = rows.filter { $0["data"]! >= value }
        case ("data", "<"): rows = rows.filter { $0["data"]! < value }
        default: throw ServiceError.invalid("$where", "the fake portal does not know \(clause)")
        }
      }
      #expect(query["$order"] == "data, idsensore, idoperatore")
      rows.sort { ($0["data"]!, $0["idsensore"]!, $0["idoperatore"] ?? "1") < ($1["data"]!, $1["idsensore"]!, $1["idoperatore"] ?? "1") }
      let offset = Int(query["$offset"] ?? "0")!
      let limit = min(Int(query["$limit"] ?? "1000")!, cap)
      let page = Array(rows.dropFirst(offset).prefix(limit))
      return try JSONSerialization.data(withJSONObject: page)
    }
  }

  static func row(_ sensor: String, _ time: String, _ value: Double, stato: String? = "VA") -> [String: String] {
    var row = ["idsensore": sensor, "data": time + ".000", "valore": "\(value)", "idoperatore": "1"]
    row["stato"] = stato
    return row
  }

  static func fakeFixture(cap: Int) throws -> (FakePortal, TelemetryStore, ReferenceFetcher, ManualClock, TemporaryDatabase) {
    let portal = FakePortal(cap: cap)
    let database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    let store = TelemetryStore(pool: database.pool)
    let clock = ManualClock(Date(timeIntervalSince1970: 1_795_773_600))  // 2026-11-27 10:00 UTC
    let registry = DeviceRegistry(store: store, clock: clock)
    let reference = ReferenceData(store: store, queries: ReadingQueries(store: store, registry: registry))
    return (portal, store, ReferenceFetcher(reference: reference, store: store, downloader: portal, clock: clock), clock, database)
  }

  @Test("the source's own filter is kept on every fetch; pages are ordered and a page cut short skips nothing")
  func filterAndPaging() async throws {
    let (portal, store, fetcher, _, database) = try Self.fakeFixture(cap: 3)
    defer { try? database.remove() }
    let hours = (0 ..< 7).map { String(format: "2026-11-27T%02d:00:00", $0) }
    portal.publish(
      hours.enumerated().map { Self.row("5504", $1, Double($0)) } + hours.map { Self.row("9999", $0, 1) },
      at: "/resource/nicp-bhqi.json"
    )
    // Its own filter, and a $limit the portal will not honour (it caps pages at 3 rows).
    let source = ReferenceSource(
      name: "air-5504",
      url: "https://www.dati.lombardia.it/resource/nicp-bhqi.json?$where=idsensore%20%3D%20'5504'&$limit=5",
      kind: .measurements
    )
    let outcome = try await fetcher.fetch(source)
    #expect(outcome.added == 7, "\(portal.asked)")
    #expect(try await store.referenceValues(sensorID: "5504", overlapping: .distantPast ..< .distantFuture).map(\.value) == [0, 1, 2, 3, 4, 5, 6])
    #expect(try await store.referenceValues(sensorID: "9999", overlapping: .distantPast ..< .distantFuture).isEmpty)
    // Pages from 0, 3, 6, then an empty one at 7.
    #expect(portal.asked.map { URLComponents(string: $0)!.queryItems!.first { $0.name == "$offset" }!.value! } == ["0", "3", "6", "7"])

    // The next fetch starts from the newest stored, with the source's filter still there.
    portal.publish([Self.row("5504", "2026-11-27T07:00:00", 7)], at: "/resource/nicp-bhqi.json")
    #expect(try await fetcher.fetch(source).added == 1)
    let last = try #require(portal.asked.last.flatMap(URLComponents.init(string:))?.queryItems)
    #expect(last.first { $0.name == "$where" }?.value == "(idsensore = '5504') AND data >= '2026-11-27T06:00:00'")
    #expect(last.first { $0.name == "$limit" }?.value == "5")
  }

  @Test("the cursor is per sensor: a sensor's late rows still arrive after others' newer ones")
  func lateRows() async throws {
    let (portal, store, fetcher, _, database) = try Self.fakeFixture(cap: 1_000)
    defer { try? database.remove() }
    let source = ReferenceSource(name: "air", url: "https://www.dati.lombardia.it/resource/nicp-bhqi.json", kind: .measurements)
    portal.publish(
      [Self.row("5504", "2026-11-27T08:00:00", 1), Self.row("6328", "2026-11-27T08:00:00", 1), Self.row("6328", "2026-11-27T09:00:00", 2)],
      at: "/resource/nicp-bhqi.json"
    )
    _ = try await fetcher.fetch(source)
    // 5504's 09:00 comes late, after 6328's 10:00 was fetched: a single cursor at 10:00 would skip it.
    portal.publish([Self.row("6328", "2026-11-27T10:00:00", 3)], at: "/resource/nicp-bhqi.json")
    _ = try await fetcher.fetch(source)
    portal.publish([Self.row("5504", "2026-11-27T09:00:00", 2)], at: "/resource/nicp-bhqi.json")
    #expect(try await fetcher.fetch(source).added == 1)
    #expect(try await store.referenceValues(sensorID: "5504", overlapping: .distantPast ..< .distantFuture).map(\.value) == [1, 2])
    // A sensor more than a week behind no longer holds fetches back.
    portal.publish([Self.row("6328", "2026-12-05T10:00:00", 4)], at: "/resource/nicp-bhqi.json")
    _ = try await fetcher.fetch(source)
    #expect(try await fetcher.since(for: source) == Date(timeIntervalSince1970: 1_796_461_200))  // 2026-12-05 10:00 at UTC+1
  }

  @Test("after a day of downtime the near-real-time feed's gap is filled from the dataset that still holds it")
  func gapFill() async throws {
    let (portal, store, fetcher, clock, database) = try Self.fakeFixture(cap: 1_000)
    defer { try? database.remove() }
    _ = try await fetcher.reference.importCatalogue(try ArpaImportTests.fixture("stazioni-aria.json"), network: .airQuality)
    let current = ReferenceSource(name: "air-current", url: "https://www.dati.lombardia.it/resource/nicp-bhqi.json", kind: .measurements)
    let nrt = ReferenceSource(
      name: "air-nrt",
      url: "https://www.dati.lombardia.it/resource/ykhg-b8rs.json",
      kind: .nearRealTime,
      fillGapsFrom: "air-current"
    )
    // Day one: the feed holds today's NO2 until 10:00.
    portal.publish((0 ... 10).map { Self.row("6956", String(format: "2026-11-27T%02d:00:00", $0), 40, stato: nil) }, at: "/resource/ykhg-b8rs.json")
    _ = try await fetcher.fetch(nrt, among: [current, nrt])
    // Down until the day after next: the feed now holds only that day; the current year's
    // dataset holds the rest, validated.
    portal.state.withLock { $0.datasets["/resource/ykhg-b8rs.json"] = [] }
    portal.publish((0 ... 3).map { Self.row("6956", String(format: "2026-11-29T%02d:00:00", $0), 50, stato: nil) }, at: "/resource/ykhg-b8rs.json")
    let missed = (11 ... 23).map { String(format: "2026-11-27T%02d:00:00", $0) } + (0 ... 23).map { String(format: "2026-11-28T%02d:00:00", $0) }
    portal.publish(missed.map { Self.row("6956", $0, 45) } + [Self.row("6956", "2026-11-29T00:00:00", 45)], at: "/resource/nicp-bhqi.json")
    clock.advance(by: 2 * 86_400)
    let outcome = try await fetcher.fetch(nrt, among: [current, nrt])
    #expect(outcome.gapFilled == 37, "\(portal.asked)")
    let gapQuery = try #require(portal.asked.first { $0.contains("nicp-bhqi") }.flatMap(URLComponents.init(string:))?.queryItems)
    #expect(gapQuery.first { $0.name == "$where" }?.value == "data >= '2026-11-27T10:00:00' AND data < '2026-11-29T00:00:00'")
    let values = try await store.referenceValues(sensorID: "6956", overlapping: .distantPast ..< .distantFuture)
    #expect(values.count == 11 + 37 + 4)
    #expect(values.filter { $0.validity == .validated }.count == 37)
    // The fallback's own cursors are untouched: its own fetches still start where they were.
    #expect(try await store.cursors(source: "air-current").isEmpty)
    // Without a source of that name, the fetch fails saying so.
    clock.advance(by: 2 * 86_400)
    portal.state.withLock { $0.datasets["/resource/ykhg-b8rs.json"] = [] }
    await #expect(throws: ServiceError.failedPrecondition("air-nrt fills its gaps from air-current, which is not a source")) {
      try await fetcher.fetch(nrt, among: [nrt])
    }
  }

  @Test("the example sources file decodes: a catalogue of the air-quality network, and measurements (network left out)")
  func exampleSources() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Services/Telemetry/DemoData/reference-sources.example.json")
    let sources = try JSONDecoder().decode([ReferenceSource].self, from: Data(contentsOf: file))
    #expect(sources.map(\.kind) == [.catalogue, .catalogue, .measurements, .nearRealTime])
    #expect(sources.last?.fillGapsFrom == "arpa-air-current-year")
    #expect(sources.map(\.network) == [.airQuality, .weather, .airQuality, .airQuality])
    #expect(sources.allSatisfy { $0.url.hasPrefix("https://www.dati.lombardia.it/resource/") })
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

  @Test("a person's own portal links: the portal's host only, at most ten, fetched like an admin's, erased with the account")
  func personalLinks() async throws {
    let (portal, store, fetcher, clock, database) = try Self.fakeFixture(cap: 1_000)
    defer { try? database.remove() }
    let sources = ReferenceSources(store: store, clock: clock, configured: [])
    func link(_ name: String, _ url: String, kind: ReferenceSource.Kind = .measurements, fillGapsFrom: String? = nil) -> ReferenceSource {
      ReferenceSource(name: name, url: url, kind: kind, fillGapsFrom: fillGapsFrom)
    }
    // Anything the service could reach but the portal is refused, naming the field.
    for url in [
      "http://www.dati.lombardia.it/resource/nicp-bhqi.json", "https://127.0.0.1/resource/x.json", "https://169.254.169.254/latest/meta-data",
      "https://identity:7001/", "https://www.dati.lombardia.it.example.org/resource/x.json", "https://user:pw@www.dati.lombardia.it/resource/x.json",
      "https://www.dati.lombardia.it:8443/resource/x.json", "file:///etc/passwd", "not a url",
    ] {
      await #expect(throws: ServiceError.invalid("url", "a link to the open-data portal, https://www.dati.lombardia.it/…"), "\(url)") {
        try await sources.saveLink(link("mine", url), of: "ann")
      }
    }
    let mine = link("senato-pm10", "https://www.dati.lombardia.it/resource/nicp-bhqi.json?$where=idsensore%20%3D%20'5504'")
    try await sources.saveLink(mine, of: "ann")
    await #expect(throws: ServiceError.invalid("fill_gaps_from", "names another of your links")) {
      try await sources.saveLink(
        link("today", "https://dati.lombardia.it/resource/ykhg-b8rs.json", kind: .nearRealTime, fillGapsFrom: "nope"),
        of: "ann"
      )
    }
    try await sources.saveLink(
      link("today", "https://dati.lombardia.it/resource/ykhg-b8rs.json", kind: .nearRealTime, fillGapsFrom: "senato-pm10"),
      of: "ann"
    )
    for index in 2 ..< 10 { try await sources.saveLink(link("more-\(index)", mine.url), of: "ann") }
    await #expect(throws: ServiceError.failedPrecondition("you have 10 links already: delete one first")) {
      try await sources.saveLink(link("eleventh", mine.url), of: "ann")
    }
    try await sources.saveLink(link("more-2", mine.url + "&$limit=10"), of: "ann")  // changing one is no new one
    #expect(try await sources.links(of: "bob").isEmpty)
    #expect(try await sources.all().isEmpty)  // an admin's list stays the shared sources

    // Fetched like the shared sources, under the person's full name; what they bring is everyone's.
    portal.publish([Self.row("5504", "2026-11-27T08:00:00", 31), Self.row("6328", "2026-11-27T08:00:00", 9)], at: "/resource/nicp-bhqi.json")
    let toFetch = try await sources.allToFetch()
    #expect(toFetch.first { $0.name == "person:ann:today" }?.fillGapsFrom == "person:ann:senato-pm10")
    _ = await fetcher.fetchDue(sources, period: .seconds(3600))
    #expect(try await store.referenceValues(sensorID: "5504", overlapping: .distantPast ..< .distantFuture).map(\.value) == [31])
    #expect(try await store.referenceValues(sensorID: "6328", overlapping: .distantPast ..< .distantFuture).isEmpty)
    let listed = try await sources.links(of: "ann")
    #expect(listed.count == 10 && listed.first { $0.link.name == "senato-pm10" }?.state.lastSuccess == clock.now())
    #expect(try await store.cursors(source: "person:ann:senato-pm10") == ["5504": Date(timeIntervalSince1970: 1_795_762_800)])

    try await sources.deleteLink(name: "more-2", of: "ann")
    await #expect(throws: ServiceError.notFound("you have no link more-2")) { try await sources.deleteLink(name: "more-2", of: "ann") }
    _ = try await store.eraseAccount(userID: "ann", position: EventPosition(producer: "identity", sequence: 1), at: clock.now())
    #expect(try await sources.links(of: "ann").isEmpty)
    #expect(try await store.cursors(source: "person:ann:senato-pm10").isEmpty)
    #expect(try await store.fetchState(source: "person:ann:senato-pm10") == FetchState())
    #expect(try await store.referenceValues(sensorID: "5504", overlapping: .distantPast ..< .distantFuture).count == 1)
  }
}
