import BinarioDomain
import Foundation
import Logging

/// One of the portal's dataset endpoints to fetch, as its user configures it (MOQA lets its user
/// manage the links to the open-data API): a station catalogue or a measurements dataset.
public struct ReferenceSource: Sendable, Hashable, Codable {
  public enum Kind: String, Sendable, Hashable, Codable {
    case catalogue, measurements
  }

  /// A name for reports and the fetch state ("arpa-air-stations").
  public var name: String
  /// The endpoint with its query parameters (a Socrata dataset's `…/resource/<id>.json?…`).
  public var url: String
  public var kind: Kind
  /// For a catalogue: which network its stations are.
  public var network: ReferenceSensor.Network

  public init(name: String, url: String, kind: Kind, network: ReferenceSensor.Network = .airQuality) {
    self.name = name
    self.url = url
    self.kind = kind
    self.network = network
  }

  /// A sources file's entry: `network` may be left out (air quality).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      name: try container.decode(String.self, forKey: .name),
      url: try container.decode(String.self, forKey: .url),
      kind: try container.decode(Kind.self, forKey: .kind),
      network: try container.decodeIfPresent(ReferenceSensor.Network.self, forKey: .network) ?? .airQuality
    )
  }
}

/// Fetches the configured sources: a catalogue whole, a measurements dataset incrementally (only
/// what is newer than the newest it stored, with the portal's SoQL `$where` on `data`). A fetch
/// that fails is recorded and retried with backoff, never fatal.
public struct ReferenceFetcher: Sendable {
  let reference: ReferenceData
  let store: TelemetryStore
  let downloader: any ReferenceDownloader
  let clock: any DomainClock
  let logger: Logger

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

  /// The URL a fetch of `source` asks: a measurements source after its first fetch asks only for
  /// rows later than the newest stored (in the portal's standard time).
  public func url(for source: ReferenceSource) async throws -> String {
    guard source.kind == .measurements, let newest = try await store.fetchState(source: source.name).newest else { return source.url }
    guard var components = URLComponents(string: source.url) else { return source.url }
    var items = components.queryItems ?? []
    items.removeAll { $0.name == "$where" }
    items.append(URLQueryItem(name: "$where", value: "data > '\(Self.portalTime(newest))'"))
    components.queryItems = items
    return components.string ?? source.url
  }

  /// Fetches and imports one source now; throws what went wrong (also recorded).
  @discardableResult
  public func fetch(_ source: ReferenceSource) async throws -> ReferenceData.ImportOutcome {
    do {
      let data = try await downloader.get(try await url(for: source))
      let outcome: ReferenceData.ImportOutcome
      var newest: Date?
      switch source.kind {
      case .catalogue:
        outcome = try await reference.importCatalogue(data, network: source.network)
      case .measurements:
        let parsed = try ArpaImport.measurements(data)
        newest = parsed.items.map(\.time).max()
        outcome = try await reference.importMeasurements(parsed)
      }
      try await store.recordFetch(source: source.name, newest: newest, at: clock.now())
      return outcome
    } catch {
      try? await store.recordFetchFailure(source: source.name, error: "\(error)", at: clock.now())
      throw error
    }
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
    for (source, _) in (try? await sources.all()) ?? [] {
      var state = (try? await store.fetchState(source: source.name)) ?? FetchState()
      if Self.nextFetch(state, period: period) <= clock.now() {
        do {
          let outcome = try await fetch(source)
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
