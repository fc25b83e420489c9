import ArgumentParser
import Foundation

/// Reads a service's own settings (those beside ServiceKit's common ones) the way the common ones
/// are read: the flag's value, else the `BINARIO_*` environment variable; every refusal names the
/// flag. Each service's options type (`GeoOffersOptions`, `DispatchOptions`, ...) declares its
/// flags and reads them through one of these.
public struct OwnSettingReader: Sendable {
  public let environment: [String: String]

  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.environment = environment
  }

  /// The contents of the file the setting names; `nil` when it names none.
  /// - Throws: `ValidationError` naming the flag when the file cannot be read.
  public func file(_ flag: String?, _ variable: String, name: String) throws -> (path: String, data: Data)? {
    guard let path = flag ?? environment[variable], !path.isEmpty else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("\(name) \(path) cannot be read") }
    return (path, data)
  }

  /// A finite number within `range`; `nil` when unset.
  public func number(_ flag: Double?, _ variable: String, name: String, in range: ClosedRange<Double>) throws -> Double? {
    guard
      let value = try flag
        ?? environment[variable].map({ text -> Double in
          guard let number = Double(text) else { throw ValidationError("\(name) must be a number, not \(text)") }
          return number
        })
    else { return nil }
    guard value.isFinite, range.contains(value) else {
      throw ValidationError("\(name) must be \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound)), not \(Self.plain(value))")
    }
    return value
  }

  /// A whole number within `range`; `nil` when unset.
  public func integer(_ flag: Int?, _ variable: String, name: String, in range: ClosedRange<Int>) throws -> Int? {
    try number(flag.map(Double.init), variable, name: name, in: Double(range.lowerBound) ... Double(range.upperBound)).map { value in
      guard value.rounded() == value else { throw ValidationError("\(name) must be a whole number, not \(Self.plain(value))") }
      return Int(value)
    }
  }

  /// A time zone by its identifier (`Europe/Rome`), `defaultIdentifier` when unset.
  public func timeZone(
    _ flag: String?,
    _ variable: String,
    name: String,
    default defaultIdentifier: String = "Europe/Rome"
  ) throws
    -> TimeZone
  {
    let identifier = flag ?? environment[variable] ?? defaultIdentifier
    guard let zone = TimeZone(identifier: identifier) else {
      throw ValidationError("\(name) must be a time zone such as Europe/Rome, not \(identifier)")
    }
    return zone
  }

  /// A comma-separated list, each item trimmed, empty items left out.
  public func list(_ flag: String?, _ variable: String) -> [String] {
    (flag ?? environment[variable] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// `30` rather than `30.0`; decimals only where there are some.
  static func plain(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
