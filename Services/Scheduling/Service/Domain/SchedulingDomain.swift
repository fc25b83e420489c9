import BinarioDomain
import Foundation
import Synchronization

/// Scheduling's timetable logic: stations, journeys, runs and departures boards with their live
/// state, following runs, admins' live changes and run edits, GTFS imports and the
/// GTFS-realtime feed. Pure Swift: it knows neither gRPC nor SQL. It reads the time only from its
/// ``BinarioDomain/DomainClock`` and tells people through the ``NotificationCentre``.
///
/// The operations live in extensions, one file per feature, named as the handler's and the
/// store's (`Timetable/SchedulingDomain+Timetable.swift`, `+Boards`, `+RealtimeFeed`,
/// `+Following`, `+LiveChanges`, `+RunEditing`, `+Import`). They throw
/// ``BinarioDomain/ServiceError`` for anything a caller did wrong; any other error is a fault.
public final class SchedulingDomain: Sendable {
  let store: SchedulingStore
  let clock: any DomainClock
  /// The zone service days are in when the timetable does not say (one imported before its
  /// agency's zone was kept).
  let configuredZone: ServiceDayZone
  public let notifications: NotificationCentre
  /// Stations, lines and platform stops, read once per timetable (they change only on import).
  let catalog: Mutex<TimetableCatalog>
  let boards = DepartureBoardCache()
  /// The last static feed made (``staticFeed()``), with the timetable version it was made at.
  let staticFeedZip = Mutex<(version: Int, zip: [UInt8], modified: Date)?>(nil)

  /// The shortest change between two trains, in seconds.
  static let minimumTransfer = 5 * 60

  public init(
    store: SchedulingStore,
    clock: any DomainClock,
    zone: ServiceDayZone,
    notifications: NotificationCentre
  ) throws {
    self.store = store
    self.clock = clock
    self.configuredZone = zone
    self.notifications = notifications
    self.catalog = Mutex(try TimetableCatalog(store: store))
  }

  func reloadCatalog() throws {
    let fresh = try TimetableCatalog(store: store)
    catalog.withLock { $0 = fresh }
  }

  var stationsByID: [String: Station] { catalog.withLock { $0.stations } }

  /// The zone the timetable's service days are in: its feed's `agency_timezone`.
  var zone: ServiceDayZone { catalog.withLock { $0.zone } ?? configuredZone }

  /// The service date and time it is now.
  var serviceNow: (date: ServiceDate, time: ServiceTime) { zone.serviceTime(at: clock.now()) }

  /// The run's live view; `NOT_FOUND` when the trip does not run that date.
  func liveRun(tripID: String, on date: ServiceDate) throws -> LiveRun {
    guard let run = try store.plannedRun(tripID: tripID, on: date) else {
      throw ServiceError.notFound("trip \(tripID) does not run on \(date)")
    }
    return try liveRun(run)
  }

  func liveRun(_ run: PlannedRun) throws -> LiveRun {
    liveRun(run, changes: try store.changes(tripID: run.tripID, on: run.serviceDate), catalog: catalog.withLock { $0 })
  }

  func liveRun(_ run: PlannedRun, changes: [RecordedRunChange], catalog: TimetableCatalog) -> LiveRun {
    LiveRun(
      state: RunLiveState(run: run, changes: changes.map(\.kind)),
      line: catalog.lines[run.lineID] ?? Line(id: run.lineID, shortName: run.lineID, longName: ""),
      stations: catalog.stations,
      zone: zone
    )
  }

  /// A run reference checked: a trip id and a `YYYY-MM-DD` date.
  static func runRef(tripID rawTrip: String, date rawDate: String, field: String = "run") throws -> (String, ServiceDate) {
    var check = InputValidation()
    let tripID = check.requiredText(rawTrip, field: "\(field).trip_id", what: "a trip id", maxLength: 200)
    let date = ServiceDate(iso: rawDate)
    if date == nil { check.fail("\(field).service_date", "a date as YYYY-MM-DD, not \"\(rawDate)\"") }
    try check.finish()
    return (tripID, date!)
  }
}

/// The parts of the timetable that change only when it is replaced: stations, lines and the
/// feed's platform stops.
struct TimetableCatalog: Sendable {
  var stations: [String: Station]
  var lines: [String: Line]
  var platformStops: [PlatformKey: String]
  var zone: ServiceDayZone?

  init(store: SchedulingStore) throws {
    self.zone = try store.timetableZone().flatMap(ServiceDayZone.init(identifier:))
    self.stations = Dictionary(uniqueKeysWithValues: try store.stations().map { ($0.id, $0) })
    self.lines = Dictionary(uniqueKeysWithValues: try store.lines().map { ($0.id, $0) })
    self.platformStops = try store.platformStops()
  }
}
