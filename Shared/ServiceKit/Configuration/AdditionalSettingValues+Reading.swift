import Foundation

/// A service's own settings as values of the types they hold: each refusal is a
/// ``ConfigurationError`` naming the setting and where its value came from (its flag, its
/// variable or the config file).
extension AdditionalSettingValues {
  /// The one value of `setting` through `parse` (whose error becomes the refusal's reason);
  /// `nil` when it is not set or set empty.
  public func value<Value>(_ setting: Setting, _ parse: (String) throws -> Value) throws -> Value? {
    guard let text = try self.value(setting.key), !text.isEmpty else { return nil }
    return try self.checked(setting) { try parse(text) }
  }

  /// A finite number within `range`.
  public func number(_ setting: Setting, in range: ClosedRange<Double>) throws -> Double? {
    try self.value(setting) { text in
      guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite else {
        throw Refusal("expected a number, got \(text)")
      }
      guard range.contains(number) else { throw Refusal("expected \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound)), got \(text)") }
      return number
    }
  }

  /// A whole number within `range`.
  public func integer(_ setting: Setting, in range: ClosedRange<Int>) throws -> Int? {
    try self.number(setting, in: Double(range.lowerBound) ... Double(range.upperBound)).map { number in
      guard number.rounded() == number else {
        throw ConfigurationError(setting: setting.key, source: self.source(of: setting), reason: "expected a whole number, got \(Self.plain(number))")
      }
      return Int(number)
    }
  }

  /// The path and contents of the file the setting names.
  public func file(_ setting: Setting) throws -> (path: String, data: Data)? {
    try self.value(setting) { path in
      guard let data = FileManager.default.contents(atPath: path) else { throw Refusal("\(path) cannot be read") }
      return (path, data)
    }
  }

  /// The file the setting names, read by `decode` (whose error, with the file's path, becomes the
  /// refusal's reason).
  public func file<Value>(_ setting: Setting, _ decode: (Data) throws -> Value) throws -> Value? {
    guard let (path, data) = try self.file(setting) else { return nil }
    return try self.checked(setting) {
      do {
        return try decode(data)
      } catch {
        throw Refusal("\(path): \(error)")
      }
    }
  }

  /// A folder that exists.
  public func folder(_ setting: Setting) throws -> String? {
    try self.value(setting) { path in
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
        throw Refusal("\(path) is not a folder")
      }
      return path
    }
  }

  /// A time zone by its identifier (`Europe/Rome`), `defaultIdentifier` when unset.
  public func timeZone(_ setting: Setting, default defaultIdentifier: String = "Europe/Rome") throws -> TimeZone {
    try self.value(setting) { identifier in
      guard let zone = TimeZone(identifier: identifier) else { throw Refusal("expected a time zone such as Europe/Rome, got \(identifier)") }
      return zone
    } ?? TimeZone(identifier: defaultIdentifier)!
  }

  /// Every value, each trimmed, empty ones left out (a list in the file, repeated flags, or a
  /// comma-separated variable).
  public func list(_ setting: Setting) -> [String] {
    self.values(setting.key).flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// Where the setting's value came from.
  public func source(of setting: Setting) -> ConfigurationSource {
    self.entries[setting.key]?.source ?? .defaults
  }

  private func checked<Value>(_ setting: Setting, _ body: () throws -> Value) throws -> Value {
    do {
      return try body()
    } catch let refusal as Refusal {
      throw ConfigurationError(setting: setting.key, source: self.source(of: setting), reason: refusal.reason)
    } catch let error as ConfigurationError {
      throw error
    } catch {
      throw ConfigurationError(setting: setting.key, source: self.source(of: setting), reason: "\(error)")
    }
  }

  /// `30` rather than `30.0`; decimals only where there are some.
  static func plain(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}

/// Why a setting's value was refused, before the setting and its source are added.
public struct Refusal: Error, Sendable {
  public var reason: String

  public init(_ reason: String) {
    self.reason = reason
  }
}
