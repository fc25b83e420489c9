import BinarioDomain
import BinarioStorage
import Foundation
import Testing

@testable import TelemetryService

@Suite("Uploading readings")
struct ReadingIngestTests {
  let database: TemporaryDatabase
  let store: TelemetryStore
  let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
  let ingest: ReadingIngest

  init() async throws {
    database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    store = TelemetryStore(pool: database.pool)
    ingest = ReadingIngest(store: store, clock: clock)
    try await store.insertDevice(id: "dev_1", ownerUserID: "u1", name: "Board", at: clock.now())
  }

  func reading(_ second: Int, pm10: Double = 20, humidity: Double? = 50) -> Reading {
    var values: MeasureValues = [.pm10: pm10]
    if let humidity { values[.humidity] = humidity }
    return Reading(
      time: clock.now().addingTimeInterval(Double(second) - 3600),
      position: GeoPoint(latitude: 45.47, longitude: 9.19),
      values: values
    )
  }

  @Test("a batch is stored and read back; a resend stores nothing new")
  func roundTripAndResend() async throws {
    let batch = (0 ..< 100).map { reading($0, pm10: Double($0)) }
    let first = try await ingest.upload(deviceID: "dev_1", batch)
    #expect(first.stored == 100 && first.duplicates == 0 && first.rejected.isEmpty)
    let again = try await ingest.upload(deviceID: "dev_1", batch)
    #expect(again.stored == 0 && again.duplicates == 100 && again.accepted == 100)
    let seq = try #require(try await store.deviceSeq(id: "dev_1"))
    #expect(try await store.readingCount(deviceSeq: seq) == 100)
    let series = try await store.values(
      deviceSeqs: [seq],
      measure: .pm10,
      in: clock.now().addingTimeInterval(-7200) ..< clock.now()
    )
    #expect(series.map(\.1) == (0 ..< 100).map(Double.init))
  }

  @Test("bad readings are refused one by one with their reason, the rest is stored; a stored reading never changes")
  func perReadingRefusals() async throws {
    _ = try await ingest.upload(deviceID: "dev_1", [reading(0)])
    let future = Reading(time: clock.now().addingTimeInterval(3600), position: GeoPoint(latitude: 45, longitude: 9), values: [.pm10: 1])
    let batch = [
      reading(1), reading(2, humidity: 120), reading(3, pm10: -4), future, reading(0, pm10: 99), reading(0),
      Reading(time: clock.now(), position: GeoPoint(latitude: 45, longitude: 9), values: [:]),
      Reading(time: clock.now(), position: GeoPoint(latitude: 45, longitude: 9), values: [.temperature: .infinity]),
      reading(4),
    ]
    let outcome = try await ingest.upload(deviceID: "dev_1", batch)
    #expect(outcome.stored == 2 && outcome.duplicates == 1)
    #expect(outcome.rejected.map(\.index) == [1, 2, 3, 4, 6, 7])
    #expect(outcome.rejected[0].reason == "humidity 120.0 % is outside 0…100 %")
    #expect(outcome.rejected[3].reason.contains("stored with other values"))
    await #expect(throws: ServiceError.notFound("no device dev_x")) { try await ingest.upload(deviceID: "dev_x", [reading(0)]) }
    let seq = try #require(try await store.deviceSeq(id: "dev_1"))
    #expect(try await store.values(deviceSeqs: [seq], measure: .pm10, in: Date.distantPast ..< Date.distantFuture).map(\.1) == [20, 20, 20])
  }

  @Test("a device deleted while its board streams: the next upload is refused as unauthenticated, nothing stored")
  func deletedMidStream() async throws {
    let seq = try #require(try await store.deviceSeq(id: "dev_1"))
    #expect(try await ingest.upload(deviceSeq: seq, [reading(0)]).stored == 1)
    try await store.deleteDevice(id: "dev_1")
    let refused = await #expect(throws: ServiceError.self) { _ = try await ingest.upload(deviceSeq: seq, [reading(1)]) }
    guard case .unauthenticated = refused else {
      Issue.record("expected unauthenticated, got \(String(describing: refused))")
      return
    }
    #expect(try await store.readingCount(deviceSeq: seq) == 0)
  }

  @Test("a reading's values: set, read, removed, counted, compared and listed in the measures' order")
  func measureValues() {
    var values: MeasureValues = [.pm10: 12, .temperature: -3.5]
    #expect(values[.pm10] == 12 && values[.temperature] == -3.5 && values[.humidity] == nil && values.count == 2)
    values[.humidity] = 0
    values[.pm10] = nil
    #expect(values[.humidity] == 0 && values[.pm10] == nil && values.count == 2 && !values.isEmpty)
    #expect(values.map(\.measure) == [.temperature, .humidity])
    #expect(values == MeasureValues([.humidity: 0, .temperature: -3.5]) && values != [.humidity: 0, .temperature: -3.4])
    #expect(MeasureValues().isEmpty && Set([values, MeasureValues([.humidity: 0, .temperature: -3.5])]).count == 1)
    #expect(Measure.allCases.map(\.slot) == Array(0 ..< 11))
  }

  @Test("a stream's readings are stored as they come, refusals counted from the stream's first reading; a resent stream stores nothing")
  func streaming() async throws {
    let seq = try #require(try await store.deviceSeq(id: "dev_1"))
    let stream: @Sendable (_ add: @Sendable ([Reading]) async throws -> Void) async throws -> Void = { add in
      for second in 0 ..< 50 { try await add([reading(second, humidity: second == 7 ? 140 : 50)]) }
      try await add((50 ..< 60).map { reading($0) })
    }
    let outcome = try await ingest.upload(deviceSeq: seq, streaming: stream)
    #expect(outcome.stored == 59 && outcome.rejected.map(\.index) == [7])
    let again = try await ingest.upload(deviceSeq: seq, streaming: stream)
    #expect(again.stored == 0 && again.duplicates == 59 && again.rejected.map(\.index) == [7])
  }

  @Test("a stream that breaks: what came before is stored, then the failure is thrown")
  func brokenStream() async throws {
    struct Broken: Error {}
    let seq = try #require(try await store.deviceSeq(id: "dev_1"))
    await #expect(throws: Broken.self) {
      _ = try await ingest.upload(deviceSeq: seq) { add in
        for second in 0 ..< 5 { try await add([reading(second)]) }
        throw Broken()
      }
    }
    #expect(try await store.readingCount(deviceSeq: seq) == 5)
  }

  @Test("pending readings: taken all at once, in order; the reader stops once the committer has")
  func pendingReadings() async throws {
    let pending = PendingReadings(limit: 4)
    let reader = Task {
      for second in 0 ..< 6 { try await pending.add([reading(second)]) }
      pending.finish()
    }
    var taken: [Reading] = []
    while let readings = try await pending.take(maximum: 100) { taken += readings }
    try await reader.value
    #expect(taken == (0 ..< 6).map { reading($0) })
    pending.close()
    await #expect(throws: CancellationError.self) { try await pending.add([reading(9)]) }
  }
}
