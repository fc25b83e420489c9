import Foundation
import SwiftProtobuf
import Testing

@testable import SchedulingService

@Suite("Live changes: a run's expected times and platforms, and the GTFS-realtime feed")
struct LiveChangesTests {
  static let run = PlannedRun(
    tripID: "RE_BERGAMO_2602",
    serviceDate: ServiceDate(year: 2026, month: 11, day: 25)!,
    lineID: "RE_BERGAMO",
    trainNumber: "2602",
    stops: [
      .init(sequence: 1, stationID: "MI_CENTRALE", platform: "1", arrival: ServiceTime(gtfs: "07:05:00")!, departure: ServiceTime(gtfs: "07:05:00")!),
      .init(sequence: 2, stationID: "MI_LAMBRATE", platform: "2", arrival: ServiceTime(gtfs: "07:11:00")!, departure: ServiceTime(gtfs: "07:13:00")!),
      .init(sequence: 3, stationID: "TREVIGLIO", platform: "1", arrival: ServiceTime(gtfs: "07:37:00")!, departure: ServiceTime(gtfs: "07:39:00")!),
      .init(sequence: 4, stationID: "BERGAMO", platform: "3", arrival: ServiceTime(gtfs: "07:59:00")!, departure: ServiceTime(gtfs: "07:59:00")!),
    ]
  )

  @Test func aDelayFromAStopHoldsTheTrainThereAndCarriesOn() {
    let state = RunLiveState(run: Self.run, changes: [.delay(fromSequence: 2, minutes: 10)])
    #expect(state.stops.map(\.expectedArrival.description) == ["07:05:00", "07:11:00", "07:47:00", "08:09:00"])
    #expect(state.stops.map(\.expectedDeparture.description) == ["07:05:00", "07:23:00", "07:49:00", "08:09:00"])
    #expect(state.isChanged && !state.isCancelled)
    // A later delay from a later stop replaces the earlier one from there on; 0 clears it.
    let revised = RunLiveState(run: Self.run, changes: [.delay(fromSequence: 2, minutes: 10), .delay(fromSequence: 3, minutes: 0)])
    #expect(revised.stops.map(\.delayMinutes) == [0, 10, 0, 0])
    #expect(revised.stops[2].expectedArrival.description == "07:47:00")  // it still arrives late
    #expect(revised.stops[3].expectedArrival.description == "07:59:00")
  }

  @Test func platformChangesAndCancellations() {
    let state = RunLiveState(run: Self.run, changes: [.platform(sequence: 3, platform: "4"), .cancellation(fromSequence: 4)])
    #expect(state.stops[2].platform == "4" && state.stops[2].platformChanged)
    #expect(state.stops.map(\.cancelled) == [false, false, false, true])
    #expect(!state.isCancelled)
    #expect(RunLiveState(run: Self.run, changes: [.cancellation(fromSequence: 0)]).isCancelled)
    #expect(!RunLiveState(run: Self.run, changes: []).isChanged)
  }

  @Test func theRealtimeFeedUsesGTFSRealtimeFieldsAndNumbers() throws {
    let builder = RealtimeFeedBuilder { station, platform in "\(station):\(platform)" }
    let delayed = RunLiveState(run: Self.run, changes: [.delay(fromSequence: 2, minutes: 10), .platform(sequence: 3, platform: "4")])
    var other = Self.run
    other.tripID = "RE_BERGAMO_2604"
    let cancelled = RunLiveState(run: other, changes: [.cancellation(fromSequence: 0)])
    let unchanged = RunLiveState(run: Self.run, changes: [])
    let bytes = try builder.feed(of: [delayed, cancelled, unchanged], at: Date(timeIntervalSince1970: 1_795_600_000))
    // FeedMessage.header (field 1) begins with gtfs_realtime_version (field 1) "2.0".
    #expect(Array(bytes.prefix(7))[2...] == [0x0A, 0x03, 0x32, 0x2E, 0x30])

    let feed = try TransitRealtime_FeedMessage(serializedBytes: bytes)
    #expect(feed.header.incrementality == .fullDataset && feed.header.timestamp == 1_795_600_000)
    #expect(feed.entity.map(\.id) == ["RE_BERGAMO_2602:20261125", "RE_BERGAMO_2604:20261125"])
    let update = feed.entity[0].tripUpdate
    #expect(update.trip.startDate == "20261125" && update.trip.scheduleRelationship == .scheduled)
    #expect(update.stopTimeUpdate.map(\.stopSequence) == [2, 3, 4])
    #expect(update.stopTimeUpdate.map(\.departure.delay) == [600, 600, 600])
    #expect(update.stopTimeUpdate.map(\.arrival.delay) == [0, 600, 600])
    #expect(update.stopTimeUpdate[1].stopTimeProperties.assignedStopID == "TREVIGLIO:4")
    #expect(feed.entity[1].tripUpdate.trip.scheduleRelationship == .canceled)
  }
}
