import BinarioDomain
import Foundation
import Testing

@testable import TelemetryService

/// The open-data portal's formats, as it publishes them (rows abridged to the fields read).
@Suite("ARPA Lombardia's open data")
struct ArpaImportTests {
  static let catalogueJSON = """
    [{"idsensore":"5504","nometiposensore":"PM10 (SM2005)","unitamisura":"µg/m³","idstazione":"510",
      "nomestazione":"Milano v.Senato","quota":"118","provincia":"MI","comune":"Milano","storico":"N",
      "datastart":"2001-01-01T00:00:00.000","utm_nord":"5035427","utm_est":"515946","lat":"45.470499","lng":"9.197460",
      "location":{"latitude":"45.470499","longitude":"9.197460"}},
     {"idsensore":"6956","nometiposensore":"Biossido di Azoto","unitamisura":"µg/m³","idstazione":"510",
      "nomestazione":"Milano v.Senato","quota":"","provincia":"MI","comune":"Milano","storico":"S",
      "datastart":"1999-01-01T00:00:00.000","datastop":"2020-12-31T00:00:00.000","lat":"45.470499","lng":"9.197460"},
     {"idsensore":"9999","nometiposensore":"Ozono","idstazione":"520","nomestazione":"Senza posizione"}]
    """

  static let catalogueCSV = """
    \u{FEFF}IdSensore,NomeTipoSensore,UnitaMisura,Idstazione,NomeStazione,Quota,Provincia,Comune,Storico,DataStart,DataStop,Utm_Nord,UTM_Est,lat,lng,location\r
    2001,Temperatura,°C,100,"Milano, Brera",122,MI,Milano,N,01/01/1989,,5036212,514738,45.47172,9.18796,"(45.47172, 9.18796)"\r
    2002,Umidità Relativa,%,100,"Milano, Brera",,MI,Milano,N,01/01/1989,,,,45.47172,9.18796,\r
    2003,Precipitazione,mm,100,"Milano, Brera",122,MI,Milano,S,01/01/1989,31/12/2009,,,45.47172,9.18796,\r

    """

  static let catalogueGeoJSON = """
    {"type":"FeatureCollection","features":[
      {"type":"Feature","geometry":{"type":"Point","coordinates":[9.23591,45.49632]},
       "properties":{"idsensore":"10283","nometiposensore":"Particelle sospese PM2.5","unitamisura":"µg/m³","idstazione":"539",
         "nomestazione":"Milano Pascal Città Studi","quota":"122","provincia":"MI","comune":"Milano","storico":"N",
         "datastart":"2007-03-13T00:00:00.000"}}]}
    """

  @Test("the station catalogue in the API's JSON, the CSV export and the GeoJSON export")
  func catalogues() throws {
    let json = try ArpaImport.sensors(Data(Self.catalogueJSON.utf8), network: .airQuality)
    #expect(json.items.map(\.sensorID) == ["5504", "6956"])
    #expect(json.skipped == 1 && json.problems == ["sensor 9999: no position"])
    let pm10 = json.items[0]
    #expect(pm10.measure == .pm10 && pm10.elevation == 118 && !pm10.historical)
    #expect(pm10.position == GeoPoint(latitude: 45.470499, longitude: 9.197460))
    #expect(pm10.startDate == Date(timeIntervalSince1970: 978_303_600))  // 2001-01-01 00:00 standard time = 2000-12-31 23:00 UTC
    #expect(json.items[1].measure == nil && json.items[1].historical && json.items[1].elevation == nil)
    #expect(json.items[1].stopDate != nil)

    let csv = try ArpaImport.sensors(Data(Self.catalogueCSV.utf8), network: .weather)
    #expect(csv.items.map(\.sensorID) == ["2001", "2002", "2003"], "\(csv.problems)")
    #expect(csv.items.map(\.measure) == [.temperature, .humidity, nil])
    #expect(csv.items[0].stationName == "Milano, Brera" && csv.items[0].network == .weather)
    #expect(csv.items[1].elevation == nil)
    #expect(csv.items[2].historical && csv.items[2].stopDate != nil)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    #expect(
      calendar.dateComponents([.year, .month, .day, .hour], from: csv.items[2].stopDate!) == DateComponents(year: 2009, month: 12, day: 30, hour: 23)
    )

    let geo = try ArpaImport.sensors(Data(Self.catalogueGeoJSON.utf8), network: .airQuality)
    #expect(geo.items.count == 1 && geo.items[0].measure == .pm2_5)
    #expect(geo.items[0].position == GeoPoint(latitude: 45.49632, longitude: 9.23591))
  }

  @Test("measurements from the API's JSON: standard time, -9999 missing and invalid stato skipped and counted")
  func measurementsJSON() throws {
    let rows = """
      [{"idsensore":"5504","data":"2023-01-01T00:00:00.000","valore":"34.5","stato":"VA","idoperatore":"1"},
       {"idsensore":"5504","data":"2023-01-01T01:00:00.000","valore":"-9999","stato":"VA","idoperatore":"1"},
       {"idsensore":"5504","data":"2023-01-01T02:00:00.000","valore":"40","stato":"NA","idoperatore":"1"},
       {"idsensore":"5504","data":"2023-07-01T13:00:00.000","valore":28,"stato":"VA","idoperatore":"1"}]
      """
    let (outcome, read) = try ArpaImport.measurements(Data(rows.utf8))
    #expect(read == 4)
    #expect(outcome.items.map(\.value) == [34.5, 28])
    #expect(outcome.skipped == 2)
    // Standard time all year: 2023-07-01 13:00 there is 12:00 UTC (not 11:00, as summer time would give).
    #expect(outcome.items[0].time == Date(timeIntervalSince1970: 1_672_527_600))
    #expect(outcome.items[1].time == Date(timeIntervalSince1970: 1_688_212_800))
  }

  @Test("measurements from the CSV export: quoted fields, decimal comma, AM/PM dates")
  func measurementsCSV() throws {
    let csv = """
      IdSensore,Data,Valore,Stato,idOperatore
      5504,01/01/2023 12:00:00 AM,"34,5",VA,1
      5504,01/01/2023 12:00:00 PM,"12,25",VA,1
      5504,01/01/2023 01:00:00 PM,-9999,VA,1
      5504,01/01/2023 02:00:00 PM,"8,0",NV,1
      5504,13/45/2023 02:00:00 PM,"8,0",VA,1
      """
    let (outcome, read) = try ArpaImport.measurements(Data(csv.utf8))
    #expect(read == 5)
    #expect(outcome.items.map(\.value) == [34.5, 12.25])
    #expect(outcome.skipped == 3, "\(outcome.problems)")
    #expect(outcome.items[0].time == Date(timeIntervalSince1970: 1_672_527_600))  // midnight, standard time
    #expect(outcome.items[1].time == Date(timeIntervalSince1970: 1_672_527_600 + 12 * 3600))  // noon
  }

  @Test("CSV: quotes, commas and doubled quotes inside fields, CRLF, a missing last newline")
  func csv() throws {
    let table = try ArpaImport.csv(Data("a,B,c\r\n1,\"x, \"\"y\"\"\",3\r\n\"line\nbreak\",,z".utf8))
    #expect(table.header == ["a", "B", "c"])
    #expect(table.rows.map(\.fields) == [["1", "x, \"y\"", "3"], ["line\nbreak", "", "z"]])
    #expect(table.rows[0].value("b") == "x, \"y\"")
    #expect(table.rows[1].value("B") == nil)
    #expect(table.rows[1].value("missing") == nil)
  }

  @Test("CSV: a malformed export is refused naming the line and column at fault")
  func malformedCSV() {
    #expect {
      try ArpaImport.csv(Data("idsensore,data,valore\n1,\"2023-01-01,5\n".utf8))
    } throws: { error in
      (error as? ServiceError) == .invalid("file", "file:2:2: a quoted field is never closed")
    }
  }

  // MARK: - The portal's datasets, from fixtures in its formats

  static func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/arpa/\(name)"))
  }

  @Test("both catalogues: the weather one names its fields differently (tipologia, unit_dimisura; Unità DiMisura in the export)")
  func bothCatalogues() throws {
    let air = try ArpaImport.sensors(try Self.fixture("stazioni-aria.json"), network: .airQuality)
    #expect(air.items.map(\.sensorID) == ["5504", "6328", "5505", "6956"] && air.skipped == 0)
    #expect(air.items.map(\.measure) == [.pm10, .pm2_5, nil, nil])
    #expect(air.items[2].typeName == "Monossido di Carbonio" && air.items[2].unit == "mg/m³")
    #expect(air.items[3].historical && air.items[3].stopDate != nil)

    for file in ["stazioni-meteo.csv", "stazioni-meteo.json"] {
      let weather = try ArpaImport.sensors(try Self.fixture(file), network: .weather)
      #expect(weather.skipped == 0, "\(file): \(weather.problems)")
      #expect(weather.items.prefix(3).map(\.typeName) == ["Temperatura", "Umidità Relativa", "Velocità Vento"], "\(file)")
      #expect(weather.items.prefix(3).map(\.unit) == ["°C", "%", "m/s"], "\(file)")
      #expect(weather.items.prefix(3).map(\.measure) == [.temperature, .humidity, nil], "\(file)")
      #expect(weather.items.allSatisfy { $0.network == .weather && $0.stationName == "Milano Brera" && $0.elevation == 122 }, "\(file)")
      #expect(weather.items[0].position == GeoPoint(latitude: 45.47172, longitude: 9.18796), "\(file)")
    }
  }

  @Test("measurement datasets: a yearly archive's CSV, the current year and the near-real-time feed in JSON, weather with its operators")
  func measurementDatasets() throws {
    // A yearly archive: daily PM10 at midnight, hourly NO2; -9999 missing; NA not valid.
    let (archive, archiveRows) = try ArpaImport.measurements(try Self.fixture("sensori-aria-2024.csv"))
    #expect(archiveRows == 6)
    #expect(archive.items.map(\.value) == [61.3, 48, 52.7, 49.1])
    #expect(archive.skipped == 2 && archive.problems.contains { $0.contains("stato NA") })
    #expect(archive.items.allSatisfy { $0.validity == .validated && $0.operator == .mean })
    #expect(archive.items[0].time == Date(timeIntervalSince1970: 1_704_063_600))  // 2024-01-01 00:00 at UTC+1

    let (current, _) = try ArpaImport.measurements(try Self.fixture("sensori-aria.json"))
    #expect(current.items.map(\.value) == [38, 42, 1.2] && current.skipped == 2)

    // The near-real-time feed has no stato: provisional.
    let (today, _) = try ArpaImport.measurements(try Self.fixture("sensori-aria-nrt.json"))
    #expect(today.items.map(\.value) == [44, 45, 1.4] && today.skipped == 1)
    #expect(today.items.allSatisfy { $0.validity == .provisional })

    // One wind sensor's mean and maximum at the same time are two values, rain is cumulated.
    let (weather, _) = try ArpaImport.measurements(try Self.fixture("sensori-meteo.json"))
    #expect(weather.items.map(\.sensorID) == ["8162", "8162", "8164", "8164", "8165"])
    #expect(weather.items.map(\.operator) == [.mean, .mean, .mean, .maximum, .cumulated])
    #expect(weather.skipped == 2 && weather.problems.contains { $0.contains("stato NV") })
    let unknown = #"[{"idsensore":"1","data":"2026-11-27T10:00:00.000","valore":"3","stato":"VA","idoperatore":"9"}]"#
    #expect(try ArpaImport.measurements(Data(unknown.utf8)).outcome.problems == ["sensor 1 at 2026-11-27 09:00:00 +0000: unknown idoperatore 9"])
  }

  @Test("how the portal averages a value: daily PM in the validated datasets, running means in the feed, 10 minutes for weather")
  func averaging() {
    #expect(Averaging.of(typeName: "PM10 (SM2005)", network: .airQuality, nearRealTime: false) == .day)
    #expect(Averaging.of(typeName: "Particelle sospese PM2.5", network: .airQuality, nearRealTime: false) == .day)
    #expect(Averaging.of(typeName: "PM10", network: .airQuality, nearRealTime: false, onlyMidnights: false) == .minutes(60))
    #expect(Averaging.of(typeName: "PM10 (SM2005)", network: .airQuality, nearRealTime: true) == .running(hours: 24))
    #expect(Averaging.of(typeName: "Monossido di Carbonio", network: .airQuality, nearRealTime: true) == .running(hours: 8))
    #expect(Averaging.of(typeName: "Benzene", network: .airQuality, nearRealTime: true) == .running(hours: 24))
    #expect(Averaging.of(typeName: "Biossido di Azoto", network: .airQuality, nearRealTime: true) == .minutes(60))
    #expect(Averaging.of(typeName: "Temperatura", network: .weather, nearRealTime: false) == .minutes(10))
    let noon = Date(timeIntervalSince1970: 1_764_241_200)
    #expect(Averaging.day.window(stampedAt: noon) == noon ..< noon.addingTimeInterval(86_400))
    #expect(Averaging.running(hours: 24).window(stampedAt: noon) == noon.addingTimeInterval(-86_400) ..< noon)
    #expect(Averaging.minutes(10).window(stampedAt: noon) == noon ..< noon.addingTimeInterval(600))
    for averaging in [Averaging.day, .running(hours: 8), .minutes(60), .minutes(10)] {
      #expect(Averaging(code: averaging.code) == averaging)
    }
    #expect(Averaging(code: "weekly") == nil)
  }
}
