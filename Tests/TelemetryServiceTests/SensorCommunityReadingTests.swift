import BinarioAuth
import BinarioDomain
import BinarioProto
import Foundation
import Testing

@testable import TelemetryService

@Suite("An airRohr (Sensor.Community) board's post, as its firmware sends it")
struct SensorCommunityReadingTests {
  static let payload = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../Fixtures/airrohr/sds011-bme280-gps.json")
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("an SDS011, a BME280 and a GPS: PM10, PM2.5, temperature, humidity, pressure in hPa, the position; the rest ignored")
  func recordedPost() throws {
    // Decoded as the gateway's JSON door decodes it: the firmware's snake_case names.
    let post = try Binario_Telemetry_V1_SensorCommunityReadings(jsonUTF8Data: Data(contentsOf: Self.payload))
    #expect(post.esp8266ID == "15528655" && post.softwareVersion == "NRZ-2020-133" && post.sensordatavalues.count == 14)
    let reading = try SensorCommunityReading.reading(post.sensordatavalues.map { ($0.valueType, $0.value) }, at: now)
    #expect(reading.time == now)
    #expect(reading.values[.pm10] == 31.40 && reading.values[.pm2_5] == 17.15)
    #expect(reading.values[.temperature] == 12.83 && reading.values[.humidity] == 71.86)
    #expect(abs(try #require(reading.values[.pressure]) - 1003.8488) < 1e-9)
    #expect(reading.position == GeoPoint(latitude: 45.464210, longitude: 9.189510) && reading.altitude == 122.40)
    #expect(reading.values.count == 5)
    #expect(reading.problem(now: now, allowedSkew: 300) == nil)
  }

  @Test("other sensors' names; no GPS fix is no position; a value that is not a number is refused by its type")
  func otherSensors() throws {
    let reading = try SensorCommunityReading.reading(
      [
        ("SPS30_P0", "4.1"), ("SPS30_P2", "6.2"), ("SPS30_P4", "7.3"), ("SPS30_P1", "8.4"), ("SPS30_N05", "25.5"), ("temperature", "20.5"),
        ("BMP_pressure", "100659.00"), ("GPS_lat", "0.000000"), ("GPS_lon", "0.000000"), ("WIFI_unknown", "x"),
      ],
      at: now
    )
    #expect(reading.values[.pm1] == 4.1 && reading.values[.pm2_5] == 6.2 && reading.values[.pm4] == 7.3 && reading.values[.pm10] == 8.4)
    #expect(reading.values[.pm0_5] == 25.5 && reading.values[.temperature] == 20.5 && reading.values[.pressure] == 1006.59)
    #expect(reading.position == nil)
    #expect(throws: ServiceError.invalid("sensordatavalues", "the value of SDS_P1 is not a number: nan")) {
      try SensorCommunityReading.reading([("SDS_P1", "nan")], at: now)
    }
  }

  @Test("the gateway takes Basic credentials whose password is a device token, as the firmware's custom API sends them")
  func basicAuthorization() {
    let token = "bdt_" + String(repeating: "A", count: 43)
    let basic = "Basic " + Data("esp8266-15528655:\(token)".utf8).base64EncodedString()
    #expect(DeviceCredential.token(fromAuthorization: basic) == token)
    #expect(DeviceCredential.token(fromAuthorization: "Device \(token)") == token)
    #expect(DeviceCredential.token(fromAuthorization: "Basic " + Data("user:password".utf8).base64EncodedString()) == nil)
    #expect(DeviceCredential.token(fromAuthorization: "Basic !!!") == nil)
  }
}
