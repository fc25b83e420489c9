import BinarioDomain
import Foundation
import Logging

/// One of the portal's dataset endpoints to fetch, as its user configures it (MOQA lets its user
/// manage the links to the open-data API): a station catalogue, a measurements dataset (a yearly
/// archive or the current year, validated), or the near-real-time feed (today's values, not
/// validated).
public struct ReferenceSource: Sendable, Hashable, Codable {
  public enum Kind: String, Sendable, Hashable, Codable {
    case catalogue, measurements
    case nearRealTime = "near_real_time"
  }

  /// A name for reports and the fetch state ("arpa-air-stations").
  public var name: String
  /// The endpoint with its query parameters (a Socrata dataset's `…/resource/<id>.json?…`); its
  /// own `$where` is kept on every fetch.
  public var url: String
  public var kind: Kind
  /// For a catalogue: which network its stations are.
  public var network: ReferenceSensor.Network
  /// For the near-real-time feed, which holds only today: the source that still holds what it
  /// no longer does (the current year's dataset), from which a gap after downtime is filled.
  public var fillGapsFrom: String?

  public init(name: String, url: String, kind: Kind, network: ReferenceSensor.Network = .airQuality, fillGapsFrom: String? = nil) {
    self.name = name
    self.url = url
    self.kind = kind
    self.network = network
    self.fillGapsFrom = fillGapsFrom
  }

  enum CodingKeys: String, CodingKey {
    case name, url, kind, network
    case fillGapsFrom = "fill_gaps_from"
  }

  /// A sources file's entry: `network` may be left out (air quality), and `fill_gaps_from`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      name: try container.decode(String.self, forKey: .name),
      url: try container.decode(String.self, forKey: .url),
      kind: try container.decode(Kind.self, forKey: .kind),
      network: try container.decodeIfPresent(ReferenceSensor.Network.self, forKey: .network) ?? .airQuality,
      fillGapsFrom: try container.decodeIfPresent(String.self, forKey: .fillGapsFrom)
    )
  }
}

/// Fetches the configured sources. A fetch of the portal's API (a `/resource/` endpoint) keeps
/// the source's own filter, asks in a fixed order (time, sensor, operator) and pages on by the
/// rows it actually got until a page comes back empty, so a page the portal cuts short skips
/// nothing. A measurements source starts from its sensors' own cursors (the oldest of them, a
/// sensor more than a week behind the rest left out), so a sensor whose rows come late still
/// gets them; each page's rows and cursors are stored in one transaction. After downtime, the
/// near-real-time feed's gap (it holds only today) is filled from the source it names. Any other
/// URL (a yearly archive's CSV file) is read whole. A fetch that fails is recorded and retried
/// with backoff, never fatal.
public struct ReferenceFetcher: Sendable {
  let reference: ReferenceData
  let store: TelemetryStore
  let downloader: any ReferenceDownloader
  let clock: any DomainClock
  let logger: Logger

  /// Rows a page asks for when the source's URL sets no `$limit`.
  static let pageSize = 50_000
  /// A sensor this far behind the newest does not hold a source's fetches back.
  static let staleSensor: TimeInterval = 7 * 86_400
  /// A near-real-time feed whose oldest new row is this much later than what was stored has a gap.
  static let gapTolerance: TimeInterval = 3600

  public init(
    reference: ReferenceData,
    store: TelemetryStore,
    downloader: any ReferenceDownloader,
    clock: any DomainClock,
    logger: Logger = Logger(label: "telemetry")
  ) {
    self.reference = reference
    self.store = store
    self.downloader = downloader
    self.clock = clock
    self.logger = logger
  }

  /// Where a measurements fetch of `source` starts: the oldest of its sensors' cursors, leaving
  /// out sensors more than a week behind the newest (a station shut down must not hold every
  /// fetch back); `nil` on the first fetch.
  public func since(for source: ReferenceSource) async throws -> Date? {
    try await window(for: source).since
  }

  /// Where a fetch of `source` starts (``since(for:)``) and the newest value it stored, from
  /// one read of its cursors (a source fetched before the cursors existed: its recorded newest).
  func window(for source: ReferenceSource) async throws -> (since: Date?, newest: Date?) {
    let cursors = try await store.cursors(source: source.name)
    guard let newest = cursors.values.max() else {
      let recorded = try await store.fetchState(source: source.name).newest
      return (recorded, recorded)
    }
    return (cursors.values.filter { newest.timeIntervalSince($0) <= Self.staleSensor }.min(), newest)
  }

  /// Whether `url` is the portal's query API (SoQL parameters apply), not a file to read whole.
  static func isQueryable(_ url: String) -> Bool {
    URLComponents(string: url)?.path.contains("/resource/") ?? false
  }

  /// The URL of one page of `source`: its own query with its `$where` kept and ANDed with the
  /// time window, in a fixed order, from `offset`.
  public static func pageURL(_ source: ReferenceSource, since: Date?, until: Date? = nil, offset: Int) -> String {
    guard var components = URLComponents(string: source.url) else { return source.url }
    var items = components.queryItems ?? []
    let own = items.first { $0.name == "$where" }?.value.flatMap { $0.isEmpty ? nil : $0 }
    items.removeAll { ["$where", "$order", "$offset"].contains($0.name) }
    var clauses = own.map { ["(\($0))"] } ?? []
    if let since { clauses.append("data >= '\(portalTime(since))'") }
    if let until { clauses.append("data < '\(portalTime(until))'") }
    if !clauses.isEmpty { items.append(URLQueryItem(name: "$where", value: clauses.joined(separator: " AND "))) }
    items.append(URLQueryItem(name: "$order", value: source.kind == .catalogue ? "idsensore" : "data, idsensore, idoperatore"))
    if !items.contains(where: { $0.name == "$limit" }) { items.append(URLQueryItem(name: "$limit", value: "\(pageSize)")) }
    items.append(URLQueryItem(name: "$offset", value: "\(offset)"))
    components.queryItems = items
    // `+` in a SoQL value is a plus, not a space.
    components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
    return components.string ?? source.url
  }

  /// Reads `source` page by page, handing each page's body to `importPage`, which answers how
  /// many rows it held; an empty page ends the fetch. A file that is not the query API is read
  /// whole, once.
  func paged(
    _ source: ReferenceSource,
    since: Date?,
    until: Date? = nil,
    importPage: (Data) async throws -> Int
  ) async throws {
    guard Self.isQueryable(source.url) else {
      _ = try await importPage(try await downloader.get(source.url))
      return
    }
    var offset = 0
    var previous: Data?
    while true {
      let page = try await downloader.get(Self.pageURL(source, since: since, until: until, offset: offset))
      guard page != previous else {
        throw ServiceError.failedPrecondition("\(source.name) answered the same page twice: does it ignore $offset?")
      }
      let rows = try await importPage(page)
      if rows == 0 { return }
      offset += rows
      previous = page
    }
  }

  /// Fetches and imports one source now; throws what went wrong (also recorded). `all` are the
  /// sources a near-real-time feed may fill its gaps from.
  @discardableResult
  public func fetch(_ source: ReferenceSource, among all: [ReferenceSource] = []) async throws -> ReferenceData.ImportOutcome {
    do {
      var total = ReferenceData.ImportOutcome(read: 0, added: 0, skipped: 0, problems: [])
      var newest: Date?
      switch source.kind {
      case .catalogue:
        try await paged(source, since: nil) { page in
          let outcome = try await reference.importCatalogue(page, network: source.network)
          total.add(outcome)
          return outcome.read + outcome.skipped
        }
      case .measurements, .nearRealTime:
        let (since, stored) = try await window(for: source)
        var earliest: Date?
        try await paged(source, since: since) { page in
          let (parsed, rows) = try ArpaImport.measurements(page)
          total.add(try await reference.importMeasurements(parsed, nearRealTime: source.kind == .nearRealTime, cursorOf: source.name))
          let times = parsed.items.map(\.time)
          newest = [newest, times.max()].compactMap { $0 }.max()
          earliest = [earliest, times.min()].compactMap { $0 }.min()
          return rows
        }
        if source.kind == .nearRealTime, let stored, let name = source.fillGapsFrom {
          let end = earliest ?? clock.now()
          if end.timeIntervalSince(stored) > Self.gapTolerance {
            guard let fallback = all.first(where: { $0.name == name }) else {
              throw ServiceError.failedPrecondition("\(source.name) fills its gaps from \(name), which is not a source")
            }
            total.gapFilled = try await fillGap(from: fallback, after: stored, before: end)
            total.added += total.gapFilled
          }
        }
      }
      try await store.recordFetch(source: source.name, newest: newest, at: clock.now())
      return total
    } catch {
      try? await store.recordFetchFailure(source: source.name, error: "\(error)", at: clock.now())
      throw error
    }
  }

  /// Reads what `fallback` holds from `start` until `end` (its own filter kept) and stores it,
  /// leaving the fallback's own cursors where they are; answers how many values were new.
  func fillGap(from fallback: ReferenceSource, after start: Date, before end: Date) async throws -> Int {
    var added = 0
    try await paged(fallback, since: start, until: end) { page in
      let (parsed, rows) = try ArpaImport.measurements(page)
      added += try await reference.importMeasurements(parsed, nearRealTime: fallback.kind == .nearRealTime).added
      return rows
    }
    logger.info("filled a near-real-time gap", metadata: ["from": "\(fallback.name)", "after": "\(start)", "before": "\(end)", "added": "\(added)"])
    return added
  }

  /// When a source is next due: at once if it was never fetched; after failures, the backoff from
  /// the last one; otherwise `period` after the last success. Read from the stored fetch state,
  /// so a restart neither refetches what is fresh nor forgets a backoff.
  public static func nextFetch(_ state: FetchState, period: Duration) -> Date {
    if state.consecutiveFailures > 0, let failed = state.lastFailure {
      return failed.addingTimeInterval(backoff(failures: state.consecutiveFailures, period: period).timeInterval)
    }
    return state.lastSuccess?.addingTimeInterval(period.timeInterval) ?? .distantPast
  }

  /// Fetches each source that is due now (one after the other; a failure is recorded and
  /// logged, never thrown); returns when the next one is due.
  @discardableResult
  public func fetchDue(_ sources: ReferenceSources, period: Duration) async -> Date {
    var next = Date.distantFuture
    let all = (try? await sources.allToFetch()) ?? []
    for source in all {
      var state = (try? await store.fetchState(source: source.name)) ?? FetchState()
      if Self.nextFetch(state, period: period) <= clock.now() {
        do {
          let outcome = try await fetch(source, among: all)
          logger.info(
            "fetched reference data",
            metadata: ["source": "\(source.name)", "read": "\(outcome.read)", "added": "\(outcome.added)", "skipped": "\(outcome.skipped)"]
          )
        } catch {
          logger.warning("fetching reference data failed; retrying later", metadata: ["source": "\(source.name)", "error": "\(error)"])
        }
        state = (try? await store.fetchState(source: source.name)) ?? state
      }
      next = min(next, Self.nextFetch(state, period: period))
    }
    return next
  }

  /// The fetch job's pass: fetches each source that is due, then says how soon the next one is
  /// (the job looks at least every 30 s, so a source an admin saves is fetched within that).
  public func fetchPass(_ sources: ReferenceSources, every period: Duration) async -> Duration {
    let next = await fetchDue(sources, period: period)
    return .milliseconds(Int64(max(next.timeIntervalSince(clock.now()), 0.05) * 1000))
  }

  /// 5 s after the first failure, doubling, at most `period` (no jitter: one fetcher a source).
  public static func backoff(failures: Int, period: Duration) -> Duration {
    Backoff(initial: .seconds(5), maximum: period, multiplier: 2, jitter: 0).delay(afterFailures: failures)
  }

  /// `2023-01-01T23:00:00` in the portal's standard time (UTC+1).
  static func portalTime(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = ArpaImport.standardTime
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d",
      parts.year ?? 0,
      parts.month ?? 0,
      parts.day ?? 0,
      parts.hour ?? 0,
      parts.minute ?? 0,
      parts.second ?? 0
    )
  }
}

extension Duration {
  /// In seconds.
  var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
