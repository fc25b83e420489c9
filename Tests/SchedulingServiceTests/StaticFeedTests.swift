import BinarioDomain
import BinarioStorage
import Foundation
import Testing
import ZIPFoundation

@testable import SchedulingService

/// Another operator's feed read in its own zone, and the timetable published back as a GTFS
/// static feed that reads as what was imported, with the same ids.
@Suite("Timetables in their agency's zone, and the static feed published back")
struct StaticFeedTests {
  private func withDomain(_ body: (SchedulingDomain) async throws -> Void) async throws {
    let database = try TemporaryDatabase(migrations: SchedulingMigrations.all)
    defer { try? database.remove() }
    let store = SchedulingStore(pool: database.pool)
    let dispatcher = DeliveryDispatcher(
      store: store,
      directory: SchedulingDomainTests.NoAccounts(),
      push: SchedulingDomainTests.Outbox(),
      email: SchedulingDomainTests.Outbox(),
      text: SchedulingDomainTests.Outbox()
    )
    let clock = SchedulingDomainTests.FixedClock()
    let domain = try SchedulingDomain(
      store: store,
      clock: clock,
      // The configured zone, which a feed's own agency_timezone overrides.
      zone: ServiceDayZone(identifier: "Europe/Rome")!,
      notifications: NotificationCentre(store: store, clock: clock, dispatcher: dispatcher)
    )
    try await body(domain)
  }

  /// The archive read by another zip reader (ZIPFoundation), and then as a feed.
  private func readBack(_ zip: [UInt8]) throws -> GTFSFeed {
    let archive = try Archive(data: Data(zip), accessMode: .read)
    var files: [String: [UInt8]] = [:]
    for entry in archive {
      var data = Data()
      _ = try archive.extract(entry) { data.append($0) }
      files[entry.path] = Array(data)
    }
    #expect(
      files.keys.sorted() == ["agency.txt", "calendar_dates.txt", "feed_info.txt", "routes.txt", "stop_times.txt", "stops.txt", "trips.txt"]
    )
    return try GTFSFeedReader.read(files: files)
  }

  @Test func aFeedInAnotherZoneRunsOnItsOwnClockAndIsPublishedBackWithTheSameIDs() async throws {
    try await withDomain { domain in
      let sample = try GTFSFeedReader.read(files: GTFSFeedFiles.folder(GTFSFeedReaderTests.sampleFeed.path))
      let summary = try await domain.importTimetable(sample, source: "sample")
      #expect(summary.timezone == "America/Los_Angeles")
      #expect(summary.unusedFiles == ["fare_attributes.txt", "fare_rules.txt", "shapes.txt"])
      // 2 January 2008, 21:40 in Nevada (PST, UTC-8; 05:40 UTC on the 3rd), after the last
      // run: the next leaves at 06:00 there the next morning, 14:00 UTC. Read in Rome's zone,
      // it would be 07:00 Rome's time, 06:00 UTC.
      let board = try domain.departures(stationID: "STAGECOACH", after: Date(timeIntervalSince1970: 1_199_338_800), limit: 3)
      let first = try #require(board.departures.first)
      let stop = try #require(first.run.stop(first.sequence))
      #expect(first.run.instant(stop.expectedDeparture) == Date(timeIntervalSince1970: 1_199_368_800))

      let (zip, modified) = try domain.staticFeed()
      #expect(modified == SchedulingDomainTests.FixedClock().now())
      let published = try readBack(zip)
      #expect(published.timezone == "America/Los_Angeles")
      #expect(Set(published.trips.map(\.id)) == Set(sample.trips.map(\.id)))
      #expect(published.stopTimes == sample.stopTimes)
      for service in ["FULLW", "WE"] {
        #expect(published.serviceDays(of: service) == sample.serviceDays(of: service))
      }
      #expect(Set(published.stops.map(\.id)) == Set(sample.stops.map(\.id)))
      // Made once per import.
      #expect(try domain.staticFeed().zip == zip)
    }
  }

  @Test func theDemoNetworkIsPublishedWithItsPlatformStops() async throws {
    try await withDomain { domain in
      let demo = try GTFSFeedReader.read(files: GTFSFeedFiles.folder(GTFSFeedReaderTests.demoFolder.path))
      let noFeed = #expect(throws: ServiceError.self) { try domain.staticFeed() }
      #expect(noFeed == .notFound("no timetable has been imported yet"))
      _ = try await domain.importTimetable(demo, source: "demo")
      let published = try readBack(try domain.staticFeed().zip)
      #expect(published.stopTimes == demo.stopTimes)
      #expect(Set(published.stops.map(\.id)) == Set(demo.stops.map(\.id)))
      #expect(published.stops.first { $0.id == "MI_CENTRALE:1" }?.parentStation == "MI_CENTRALE")
      #expect(published.routes.map(\.type) == demo.routes.map(\.type).sorted())
      #expect(published.agencies.map(\.name) == ["Trenord (demo timetable)"])
      for trip in demo.trips { #expect(published.serviceDays(of: trip.serviceID) == demo.serviceDays(of: trip.serviceID)) }
    }
  }

  @Test func runsAnAdminAddsOrRemovesAreInTheNextStaticFeed() async throws {
    try await withDomain { domain in
      let demo = try GTFSFeedReader.read(files: GTFSFeedFiles.folder(GTFSFeedReaderTests.demoFolder.path))
      _ = try await domain.importTimetable(demo, source: "demo")
      let before = try domain.staticFeed().zip
      // A daily run removed on one date; a new run on another.
      try await domain.removeRun(adminID: "admin", tripID: "RE_BERGAMO_2600", date: "2026-11-26", reason: "Works")
      _ = try await domain.createRun(
        tripID: "EXTRA_1",
        date: "2026-11-27",
        lineID: "RE_BERGAMO",
        trainNumber: "9901",
        headsign: "Bergamo",
        stops: [
          RunStopInput(stationID: "MI_CENTRALE", platform: "1", arrival: "10:02", departure: "10:02"),
          RunStopInput(stationID: "BERGAMO", platform: "1", arrival: "10:55", departure: "10:55"),
        ]
      )
      let after = try domain.staticFeed().zip
      #expect(after != before)
      let published = try readBack(after)
      let removed = try #require(published.trips.first { $0.id == "RE_BERGAMO_2600" })
      #expect(removed.serviceID == "DAILY~RE_BERGAMO_2600")
      let days = published.serviceDays(of: removed.serviceID)
      #expect(!days.contains(ServiceDate(iso: "2026-11-26")!.daysSinceEpoch))
      #expect(days.contains(ServiceDate(iso: "2026-11-25")!.daysSinceEpoch))
      #expect(days.count == demo.serviceDays(of: "DAILY").count - 1)
      let extra = try #require(published.trips.first { $0.id == "EXTRA_1" })
      #expect(published.serviceDays(of: extra.serviceID) == [ServiceDate(iso: "2026-11-27")!.daysSinceEpoch])
      #expect(published.stopTimes["EXTRA_1"]?.map(\.stopID) == ["MI_CENTRALE:1", "BERGAMO:1"])
    }
  }
}
