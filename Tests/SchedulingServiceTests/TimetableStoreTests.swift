import BinarioStorage
import Foundation
import Testing

@testable import SchedulingService

@Suite("The timetable in scheduling's database: imports replace it whole, departures by service day")
struct TimetableStoreTests {
  private func withStore(_ body: (SchedulingStore) throws -> Void) throws {
    let database = try TemporaryDatabase(migrations: SchedulingMigrations.all)
    defer { try? database.remove() }
    try body(SchedulingStore(pool: database.pool))
  }

  private var demo: GTFSFeed {
    get throws { try GTFSFeedReader.read(files: GTFSFeedReaderTests.folder(GTFSFeedReaderTests.demoFolder)) }
  }

  @Test func theDemoNetworkImportsAndABoardListsTheNextDeparturesInOrder() throws {
    try self.withStore { store in
      #expect(try !store.hasTimetable())
      let summary = try store.replaceTimetable(with: try self.demo, source: "demo", importedAt: 0)
      #expect(try store.hasTimetable())
      #expect(summary.stations == 22 && summary.lines == 9 && summary.trips == 324)
      #expect(try store.stations().contains { $0.name == "Milano Centrale" && $0.code == "MICE" })

      let wednesday = ServiceDate(year: 2026, month: 11, day: 25)!
      let board = try store.departures(from: "MI_CENTRALE", on: wednesday, after: ServiceTime(gtfs: "08:00:00")!, limit: 10)
      #expect(board.count == 10)
      #expect(board.allSatisfy { $0.departure >= ServiceTime(gtfs: "08:00:00")! && $0.serviceDate == wednesday })
      #expect(board.map(\.departure) == board.map(\.departure).sorted())
      #expect(board.allSatisfy { !$0.platform.isEmpty })
    }
  }

  @Test func aRunPastMidnightDepartsOnItsOwnServiceDay() throws {
    try self.withStore { store in
      try store.replaceTimetable(with: try self.demo, source: "demo", importedAt: 0)
      // 00:50 on Thursday: the S5 that left Treviglio at 23:35 on Wednesday is due at Gallarate
      // at 24:57 of Wednesday's service day.
      let thursday = ServiceDate(year: 2026, month: 11, day: 26)!
      let board = try store.departures(from: "GALLARATE", on: thursday, after: ServiceTime(gtfs: "00:50:00")!, limit: 3)
      let late = try #require(board.first)
      #expect(late.tripID == "S5_24035" && late.trainNumber == "24035")
      #expect(late.serviceDate == ServiceDate(year: 2026, month: 11, day: 25)!)
      #expect(late.departure.description == "24:57:00")
      // Varese is that run's last stop: it arrives there, it does not depart.
      let varese = try store.departures(from: "VARESE", on: thursday, after: ServiceTime(gtfs: "01:00:00")!, limit: 1)
      #expect(varese.first?.tripID != "S5_24035")
    }
  }

  @Test func anImportReplacesTheWholeTimetable() throws {
    try self.withStore { store in
      try store.replaceTimetable(with: try self.demo, source: "demo", importedAt: 0)
      let small = try GTFSFeedReaderTests.read()
      let summary = try store.replaceTimetable(with: small, source: "small", importedAt: 1)
      #expect(summary.stations == 2 && summary.trips == 1)
      #expect(try store.stations().map(\.id) == ["A", "B"])
      let friday = ServiceDate(year: 2026, month: 11, day: 27)!
      #expect(try store.departures(from: "MI_CENTRALE", on: friday, after: ServiceTime(seconds: 0), limit: 5).isEmpty)
      #expect(try store.departures(from: "A", on: friday, after: ServiceTime(seconds: 0), limit: 5).map(\.tripID) == ["T1"])
    }
  }
}

@Suite("Live changes in scheduling's database: recorded in order, read back as a run's state")
struct RunChangeStoreTests {
  @Test func changesAreRecordedInOrderAndReplayIntoTheRunsState() throws {
    let database = try TemporaryDatabase(migrations: SchedulingMigrations.all)
    defer { try? database.remove() }
    let store = SchedulingStore(pool: database.pool)
    try store.replaceTimetable(
      with: try GTFSFeedReader.read(files: GTFSFeedReaderTests.folder(GTFSFeedReaderTests.demoFolder)),
      source: "demo",
      importedAt: 0
    )
    let wednesday = ServiceDate(year: 2026, month: 11, day: 25)!
    let saturday = ServiceDate(year: 2026, month: 11, day: 28)!
    let run = try #require(try store.plannedRun(tripID: "RE_BERGAMO_2600", on: wednesday))
    #expect(run.stops.map(\.stationID) == ["MI_CENTRALE", "MI_LAMBRATE", "TREVIGLIO", "BERGAMO"])
    // A weekday-only trip does not run on a Saturday.
    #expect(try store.plannedRun(tripID: "RE_BERGAMO_2606", on: saturday) == nil)

    let changes: [RunChangeKind] = [.delay(fromSequence: 2, minutes: 15), .platform(sequence: 3, platform: "5"), .delay(fromSequence: 2, minutes: 5)]
    for (index, kind) in changes.enumerated() {
      try store.record(
        RecordedRunChange(
          id: "c\(index)",
          tripID: run.tripID,
          serviceDate: wednesday,
          kind: kind,
          reason: "signal failure",
          changedBy: "admin-1",
          changedAt: Date(timeIntervalSince1970: 1_795_600_000 + Double(index))
        )
      )
    }
    let recorded = try store.changes(tripID: run.tripID, on: wednesday)
    #expect(recorded.map(\.kind) == changes)
    #expect(recorded.allSatisfy { $0.changedBy == "admin-1" && $0.reason == "signal failure" })
    let state = RunLiveState(run: run, changes: recorded.map(\.kind))
    #expect(state.stops.map(\.delayMinutes) == [0, 5, 5, 5] && state.stops[2].platform == "5")
    #expect(try store.changedRuns(from: wednesday).map(\.tripID) == [run.tripID])
    #expect(try store.changedRuns(from: wednesday.adding(days: 1)).isEmpty)
    // Another day's run of the same trip is untouched.
    #expect(try store.changes(tripID: run.tripID, on: wednesday.adding(days: 1)).isEmpty)
  }
}
