import BinarioDomain
import BinarioStorage
import Foundation
import Testing

@testable import TelemetryService

@Suite("Calibration against a reference station (the US EPA's form, with humidity)")
struct CalibrationTests {
  @Test("the fit recovers known coefficients, reports its quality, and refuses what cannot determine it")
  func fit() throws {
    // Barkjohn et al.'s published correction as the truth: reference = 0.524 raw − 0.0862 RH + 5.75.
    let exact = (0 ..< 20).map { index -> Calibration.Sample in
      let raw = 5 + Double(index * 7 % 20) * 3
      let humidity = 30 + Double(index * 11 % 20) * 3
      return .init(raw: raw, humidity: humidity, reference: 0.524 * raw - 0.0862 * humidity + 5.75)
    }
    let fitted = try #require(Calibration.fit(exact))
    #expect(abs(fitted.slope - 0.524) < 1e-9 && abs(fitted.humidityCoefficient + 0.0862) < 1e-9 && abs(fitted.intercept - 5.75) < 1e-9)
    #expect(abs(fitted.rSquared - 1) < 1e-9 && fitted.rmse < 1e-9 && fitted.pairs == 20)
    #expect(abs(fitted.corrected(raw: 20, humidity: 50) - (0.524 * 20 - 0.0862 * 50 + 5.75)) < 1e-9)
    #expect(fitted.corrected(raw: 0, humidity: 100) == 0)  // never below zero

    // Noise of ±1 µg/m³: the fit is near, its quality below 1 and its error about the noise's.
    let noisy = exact.enumerated().map { index, sample in
      Calibration.Sample(raw: sample.raw, humidity: sample.humidity, reference: sample.reference + (index % 2 == 0 ? 1 : -1))
    }
    let rough = try #require(Calibration.fit(noisy))
    #expect(rough.rSquared < 1 && rough.rSquared > 0.9 && abs(rough.rmse - 1) < 0.1 && abs(rough.slope - 0.524) < 0.05)

    // Too few pairs; humidity never varying; humidity varying with the raw value.
    #expect(Calibration.fit(Array(exact.prefix(3))) == nil)
    #expect(Calibration.fit(exact.map { .init(raw: $0.raw, humidity: 50, reference: $0.reference) }) == nil)
    #expect(Calibration.fit(exact.map { .init(raw: $0.raw, humidity: 2 * $0.raw + 1, reference: $0.reference) }) == nil)
  }

  @Test("a synthetic co-location: the board's spans within 1 km of the station give the known answer; corrected values beside raw")
  func colocation() async throws {
    let database = try TemporaryDatabase(migrations: TelemetryMigrations.all)
    let store = TelemetryStore(pool: database.pool)
    let clock = ManualClock(Date(timeIntervalSince1970: 1_796_079_600))  // 2026-11-30 23:00 UTC
    let registry = DeviceRegistry(store: store, clock: clock)
    let reference = ReferenceData(store: store, queries: ReadingQueries(store: store, registry: registry))
    _ = try await reference.importCatalogue(try ArpaImportTests.fixture("stazioni-aria.json"), network: .airQuality)

    // Milano v.Senato's hourly PM2.5 over two days (the portal's standard time, UTC+1).
    let midnight = Date(timeIntervalSince1970: 1_795_820_400)  // 2026-11-28 00:00 at UTC+1
    func station(_ hour: Int) -> Double { 12 + Double(hour * 5 % 17) }
    let rows = (0 ..< 48).map { hour in
      let stamp = midnight.addingTimeInterval(Double(hour) * 3600)
      let local = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(secondsFromGMT: 3600)!, from: stamp)
      let data = String(format: "%04d-%02d-%02dT%02d:00:00.000", local.year!, local.month!, local.day!, local.hour!)
      return #"{"idsensore":"6328","data":"\#(data)","valore":"\#(station(hour))","stato":"VA","idoperatore":"1"}"#
    }
    #expect(try await reference.importMeasurements(Data("[\(rows.joined(separator: ","))]".utf8)).added == 48)

    // A board reading every 10 minutes, with the station's value = 0.5 × raw − 0.1 × RH + 6 at
    // every reading while it stands 300 m from the station; hours 40 to 47 it is carried 5 km
    // away and reads unrelated values, and hour 10 it loses its humidity sensor.
    let (device, _) = try await registry.register(ownerUserID: "ann", name: "Board")
    let near = GeoPoint(latitude: 45.4732, longitude: 9.1975)
    let away = GeoPoint(latitude: 45.5155, longitude: 9.1975)
    let readings = (0 ..< 48 * 6).map { step -> Reading in
      let hour = step / 6
      let humidity = 40 + Double((step * 7) % 30)
      let raw = (station(hour) - 6 + 0.1 * humidity) / 0.5
      if hour >= 40 {
        return Reading(time: midnight.addingTimeInterval(Double(step) * 600), position: away, values: [.pm2_5: 90, .humidity: humidity])
      }
      if hour == 10 { return Reading(time: midnight.addingTimeInterval(Double(step) * 600), position: near, values: [.pm2_5: raw]) }
      return Reading(time: midnight.addingTimeInterval(Double(step) * 600), position: near, values: [.pm2_5: raw, .humidity: humidity])
    }
    _ = try await ReadingIngest(store: store, clock: clock).upload(deviceID: device.id, readings)
    let range = midnight ..< midnight.addingTimeInterval(2 * 86_400)

    let calibration = try await reference.calibrate(userID: "ann", deviceID: device.id, sensorID: "6328", in: range, maximumPoints: 48)
    #expect(calibration.measure == .pm2_5 && calibration.averaging == .minutes(60))
    #expect(calibration.fit.pairs == 39)  // 48 hours, less 8 away and 1 without humidity
    #expect(
      abs(calibration.fit.slope - 0.5) < 1e-9 && abs(calibration.fit.humidityCoefficient + 0.1) < 1e-9 && abs(calibration.fit.intercept - 6) < 1e-9
    )
    #expect(abs(calibration.fit.rSquared - 1) < 1e-9)
    // Every hour's raw mean; the corrected mean is the station's where it was near, none without humidity.
    #expect(calibration.points.count == 48 && calibration.bucketWidth == 3600)
    for (hour, point) in calibration.points.enumerated() {
      if hour == 10 { #expect(point.corrected == nil) } else if hour < 40 { #expect(abs(try #require(point.corrected) - station(hour)) < 1e-9) }
    }
    #expect(calibration.points[45].raw == 90)

    // Refusals, each naming why.
    await #expect(throws: ServiceError.invalid("sensor_id", "a calibration fits particulate matter: pick a station's PM2.5 or PM10 sensor")) {
      try await reference.calibrate(userID: "ann", deviceID: device.id, sensorID: "5505", in: range, maximumPoints: 48)
    }
    await #expect(throws: ServiceError.invalid("device_id", "a calibration is one board's: pick the board")) {
      try await reference.calibrate(userID: "ann", deviceID: "", sensorID: "6328", in: range, maximumPoints: 48)
    }
    let awayOnly = midnight.addingTimeInterval(40 * 3600) ..< range.upperBound
    await #expect(
      throws: ServiceError.failedPrecondition("none of the board's readings with a humidity in this range was made within 1 km of Milano v.Senato")
    ) {
      try await reference.calibrate(userID: "ann", deviceID: device.id, sensorID: "6328", in: awayOnly, maximumPoints: 48)
    }
    let threeHours = midnight ..< midnight.addingTimeInterval(3 * 3600)
    await #expect(
      throws: ServiceError.failedPrecondition("the board was within 1 km of Milano v.Senato for 3 of the station's values: a calibration needs 4")
    ) {
      try await reference.calibrate(userID: "ann", deviceID: device.id, sensorID: "6328", in: threeHours, maximumPoints: 48)
    }
    // Someone else's board is not theirs to calibrate.
    await #expect(throws: ServiceError.self) {
      try await reference.calibrate(userID: "bob", deviceID: device.id, sensorID: "6328", in: range, maximumPoints: 48)
    }
  }
}
