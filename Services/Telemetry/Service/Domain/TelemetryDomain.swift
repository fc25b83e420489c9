import BinarioDomain
import Foundation
import Logging

/// Telemetry's domain in one place, for the handler and the process: devices and campaigns,
/// ingest, the queries, the reference stations, and the portal sources with their fetches.
public struct TelemetryDomain: Sendable {
  public let store: TelemetryStore
  public let clock: any DomainClock
  public let registry: DeviceRegistry
  public let ingest: ReadingIngest
  public let queries: ReadingQueries
  /// Live mode: the boards' readings as committed, and whether each is sending.
  public let live: LiveReadings
  public let reference: ReferenceData
  public let fetcher: ReferenceFetcher
  /// The portal endpoints fetched on a schedule and on demand: configured, and saved by admins.
  public let sources: ReferenceSources
  /// How often each source is fetched.
  public let fetchPeriod: Duration
  /// Identity's account events applied here.
  public let accounts: AccountLifecycle
  /// Each person's settings.
  public let settings: AirSettingsBook
  /// Each person's air alerts, and the job that checks them.
  public let alerts: AirAlerts
  /// The public boards' readings by day and area, to download.
  public let openData: OpenData

  public init(
    store: TelemetryStore,
    clock: any DomainClock,
    downloader: any ReferenceDownloader,
    sources: [ReferenceSource],
    notifier: any NotificationSender,
    fetchPeriod: Duration = .seconds(3600),
    liveTimer: any JobTimer = ContinuousJobTimer(),
    logger: Logger = Logger(label: "telemetry")
  ) {
    self.store = store
    self.clock = clock
    let registry = DeviceRegistry(store: store, clock: clock)
    self.registry = registry
    let alerts = AirAlerts(store: store, registry: registry, clock: clock, notifier: notifier, logger: logger)
    self.alerts = alerts
    let uploads = KeyedBroadcast<Int64, LiveBatch>()
    self.ingest = ReadingIngest(store: store, clock: clock, uploads: uploads, stored: { alerts.wake() })
    self.queries = ReadingQueries(store: store, registry: registry)
    self.live = LiveReadings(store: store, queries: queries, clock: clock, timer: liveTimer, uploads: uploads)
    self.reference = ReferenceData(store: store, queries: queries)
    self.fetcher = ReferenceFetcher(reference: reference, store: store, downloader: downloader, clock: clock, logger: logger)
    self.sources = ReferenceSources(store: store, clock: clock, configured: sources)
    self.fetchPeriod = fetchPeriod
    self.accounts = AccountLifecycle(store: store, clock: clock)
    self.settings = AirSettingsBook(store: store)
    self.openData = OpenData(store: store)
  }

  /// A time range from a request: `to` defaults to now, `from` to a day before `to`.
  public func range(from: Date?, to: Date?) throws -> Range<Date> {
    let end = to ?? clock.now()
    let start = from ?? end.addingTimeInterval(-86_400)
    guard start < end else { throw ServiceError.invalid("to", "the range must end after it starts (from \(start), to \(end))") }
    return start ..< end
  }

  /// Fetches the sources now (or only the one named), each reported on its own.
  public func fetchNow(source name: String?) async throws -> [(source: ReferenceSource, outcome: Result<ReferenceData.ImportOutcome, any Error>)] {
    let all = try await sources.all().map(\.source)
    let chosen = all.filter { name == nil || name == "" || $0.name == name }
    guard !chosen.isEmpty else {
      throw ServiceError.notFound(
        all.isEmpty
          ? "no reference sources: configure them (--reference-sources) or save one (SaveReferenceSource)"
          : "no reference source \(name ?? "")"
      )
    }
    var results: [(source: ReferenceSource, outcome: Result<ReferenceData.ImportOutcome, any Error>)] = []
    for source in chosen {
      do {
        results.append((source, .success(try await fetcher.fetch(source, among: all))))
      } catch {
        results.append((source, .failure(error)))
      }
    }
    return results
  }
}

extension GeoBox {
  /// The box of a request's `south`, `west`, `north`, `east` (degrees), checked.
  public static func checked(south: Double, west: Double, north: Double, east: Double) throws -> GeoBox {
    var check = InputValidation()
    if !(south.isFinite && (-90 ... 90).contains(south)) { check.fail("south", "must be a latitude, -90 to 90") }
    if !(north.isFinite && (-90 ... 90).contains(north)) { check.fail("north", "must be a latitude, -90 to 90") }
    if !(west.isFinite && (-180 ... 180).contains(west)) { check.fail("west", "must be a longitude, -180 to 180") }
    if !(east.isFinite && (-180 ... 180).contains(east)) { check.fail("east", "must be a longitude, -180 to 180") }
    if south >= north { check.fail("north", "must be north of south") }
    if west >= east { check.fail("east", "must be east of west") }
    try check.finish()
    return GeoBox(minLatitude: south, maxLatitude: north, minLongitude: west, maxLongitude: east)
  }
}
