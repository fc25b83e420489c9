import AsyncHTTPClient
import NIOCore
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
      name: try container.decode(String.self, forKey: .name), url: try container.decode(String.self, forKey: .url),
      kind: try container.decode(Kind.self, forKey: .kind),
      network: try container.decodeIfPresent(ReferenceSensor.Network.self, forKey: .network) ?? .airQuality)
  }
}

/// Getting a URL's body: the one thing the fetcher needs of HTTP.
public protocol ReferenceDownloader: Sendable {
  func get(_ url: String) async throws -> Data
}

/// ``ReferenceDownloader`` on async-http-client: 30 s per request, bodies up to 64 MiB.
public struct HTTPReferenceDownloader: ReferenceDownloader {
  let client: HTTPClient

  public init(client: HTTPClient = .shared) {
    self.client = client
  }

  public func get(_ url: String) async throws -> Data {
    let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
    guard response.status == .ok else { throw ServiceError.failedPrecondition("\(url) answered HTTP \(response.status.code)") }
    var body = try await response.body.collect(upTo: 64 << 20)
    return Data(body.readBytes(length: body.readableBytes) ?? [])
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
    reference: ReferenceData, store: TelemetryStore, downloader: any ReferenceDownloader, clock: any DomainClock,
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
        outcome = try await reference.importMeasurements(data)
      }
      try await store.recordFetch(source: source.name, newest: newest, at: clock.now())
      return outcome
    } catch {
      try? await store.recordFetchFailure(source: source.name, error: "\(error)", at: clock.now())
      throw error
    }
  }

  /// Fetches every source every `period`, each retried after a failure with a backoff that grows
  /// from 5 s and doubles up to the period; runs until the task is cancelled.
  public func run(_ sources: [ReferenceSource], every period: Duration) async {
    await withTaskGroup(of: Void.self) { group in
      for source in sources {
        group.addTask {
          var failures = 0
          while !Task.isCancelled {
            do {
              let outcome = try await fetch(source)
              failures = 0
              logger.info(
                "fetched reference data",
                metadata: ["source": "\(source.name)", "read": "\(outcome.read)", "added": "\(outcome.added)", "skipped": "\(outcome.skipped)"])
              try? await Task.sleep(for: period)
            } catch {
              failures += 1
              let pause = Self.backoff(failures: failures, period: period)
              logger.warning(
                "fetching reference data failed; retrying",
                metadata: ["source": "\(source.name)", "error": "\(error)", "retry_in": "\(pause)"])
              try? await Task.sleep(for: pause)
            }
          }
        }
      }
    }
  }

  /// 5 s after the first failure, doubling, at most `period`.
  public static func backoff(failures: Int, period: Duration) -> Duration {
    min(period, .seconds(5 * (1 << min(max(failures - 1, 0), 20))))
  }

  /// `2023-01-01T23:00:00` in the portal's standard time (UTC+1).
  static func portalTime(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = ArpaImport.standardTime
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0,
      parts.second ?? 0)
  }
}
