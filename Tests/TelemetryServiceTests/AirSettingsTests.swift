import BinarioDomain
import BinarioStorage
import BinarioTestSupport
import Foundation
import Testing

@testable import TelemetryService

@Suite("A person's air settings: the measure shown first, the stations picked")
struct AirSettingsTests {
  let database: TemporaryDatabase
  let store: TelemetryStore
  let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
  let domain: TelemetryDomain

  init() throws {
    database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    store = TelemetryStore(pool: database.pool)
    domain = TelemetryDomain(store: store, clock: clock, downloader: HTTPReferenceDownloader(), sources: [], notifier: RecordingNotificationSender())
  }

  @Test("saved and read back; a field left out keeps what was saved; unknown, too many and repeated stations")
  func savedAndChecked() async throws {
    _ = try await domain.reference.importCatalogue(Data(ArpaImportTests.catalogueJSON.utf8), network: .airQuality)
    #expect(try await domain.settings.settings(userID: "ann") == AirSettings())

    #expect(try await domain.settings.save(userID: "ann", defaultMeasure: .some(.pm10), stationIDs: nil) == AirSettings(defaultMeasure: .pm10))
    let picked = try await domain.settings.save(userID: "ann", defaultMeasure: nil, stationIDs: ["510", " 510 ", ""])
    #expect(picked == AirSettings(defaultMeasure: .pm10, stationIDs: ["510"]))
    #expect(try await domain.settings.settings(userID: "ann") == picked)
    #expect(try await domain.settings.settings(userID: "bob") == AirSettings())

    await #expect(throws: ServiceError.invalid("station_ids", "no reference station 999")) {
      try await domain.settings.save(userID: "ann", defaultMeasure: nil, stationIDs: ["510", "999"])
    }
    await #expect(throws: ServiceError.invalid("station_ids", "pick at most 50 stations")) {
      try await domain.settings.save(userID: "ann", defaultMeasure: nil, stationIDs: (0 ... 50).map(String.init))
    }
    // Refused: nothing changed. Back to the app's default measure, no stations.
    #expect(try await domain.settings.settings(userID: "ann") == picked)
    #expect(try await domain.settings.save(userID: "ann", defaultMeasure: .some(nil), stationIDs: []) == AirSettings())
  }

  @Test("erased with the account")
  func erasedWithTheAccount() async throws {
    _ = try await domain.reference.importCatalogue(Data(ArpaImportTests.catalogueJSON.utf8), network: .airQuality)
    _ = try await domain.settings.save(userID: "ann", defaultMeasure: .some(.humidity), stationIDs: ["510"])
    _ = try await domain.accounts.accountDeleted(userID: "ann", position: EventPosition(producer: "identity", sequence: 1))
    #expect(try await domain.settings.settings(userID: "ann") == AirSettings())
  }
}
