import ArgumentParser
import BinarioProto
import Foundation
import SwiftProtobuf

/// Readings to upload from a file, in the shape the service exports them: CSV with a header
/// (`time`, `latitude`, `longitude`, optional `position_altitude`, then any measure columns by
/// name: `temperature`, `pm2.5`, ...; an empty field is no value), or JSON (an array of objects
/// with the same keys). Times are ISO 8601.
enum ReadingFile {
  static func parse(_ data: Data, format: String?) throws -> [Binario_Telemetry_V1_Reading] {
    let text = String(decoding: data, as: UTF8.self)
    let isJSON = format.map { $0 == "json" } ?? text.drop(while: \.isWhitespace).first.map { $0 == "[" } ?? false
    return isJSON ? try json(data) : try csv(text)
  }

  static func csv(_ text: String) throws -> [Binario_Telemetry_V1_Reading] {
    var lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    guard !lines.isEmpty else { return [] }
    let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    return try lines.enumerated().map { number, line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
      var row: [String: String] = [:]
      for (name, field) in zip(header, fields) where !field.isEmpty { row[name] = field }
      return try reading(row, at: "line \(number + 2)")
    }
  }

  static func json(_ data: Data) throws -> [Binario_Telemetry_V1_Reading] {
    guard let rows = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
      throw ValidationError("the JSON is not an array of readings")
    }
    return try rows.enumerated().map { index, object in
      var row: [String: String] = [:]
      for (key, value) in object {
        if let number = value as? NSNumber {
          row[key.lowercased()] = number.stringValue
        } else if let text = value as? String {
          row[key.lowercased()] = text
        }
      }
      return try reading(row, at: "reading \(index + 1)")
    }
  }

  static func reading(_ row: [String: String], at place: String) throws -> Binario_Telemetry_V1_Reading {
    func number(_ name: String) throws -> Double? {
      guard let text = row[name] else { return nil }
      guard let value = Double(text) else { throw ValidationError("\(place): \(name) is not a number (\(text))") }
      return value
    }
    guard let time = row["time"], let instant = try? Date(time, strategy: .iso8601) else {
      throw ValidationError("\(place): time must be an ISO 8601 instant (2024-01-15T08:00:00Z)")
    }
    guard let latitude = try number("latitude"), let longitude = try number("longitude") else {
      throw ValidationError("\(place): latitude and longitude are required")
    }
    var reading = Binario_Telemetry_V1_Reading()
    reading.time = Google_Protobuf_Timestamp(date: instant)
    reading.latitude = latitude
    reading.longitude = longitude
    if let altitude = try number("position_altitude") { reading.positionAltitude = altitude }
    if let value = try number("temperature") { reading.temperature = value }
    if let value = try number("humidity") { reading.humidity = value }
    if let value = try number("pressure") { reading.pressure = value }
    if let value = try number("altitude") { reading.altitude = value }
    if let value = try number("tvoc") { reading.tvoc = value }
    if let value = try number("eco2") { reading.eco2 = value }
    if let value = try number("pm0.5") { reading.pm05 = value }
    if let value = try number("pm1") { reading.pm1 = value }
    if let value = try number("pm2.5") { reading.pm25 = value }
    if let value = try number("pm4") { reading.pm4 = value }
    if let value = try number("pm10") { reading.pm10 = value }
    return reading
  }
}
