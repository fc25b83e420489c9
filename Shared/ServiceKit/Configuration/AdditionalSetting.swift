/// A setting one service adds to the common ones of ``ServiceConfiguration`` (the gateway's
/// upstream addresses, say), read like them: from the JSON config file under ``key``, from the
/// `BINARIO_*` environment variable, and from a flag the service declares itself, in the same
/// order of precedence (flag > environment > file).
///
/// A setting may hold several values: repeated flags (`--upstream a=… --upstream b=…`), a
/// comma-separated environment variable, or in the file a string, a number, an array, or an
/// object (`{"identity": "127.0.0.1:7101"}` reads as `identity=127.0.0.1:7101`).
public struct AdditionalSetting: Sendable, Hashable {
  /// The key in the config file, camelCase: `rateLimit`.
  public var key: String
  /// The values given on the command line (empty: the flag was not given).
  public var flagValues: [String]

  public init(key: String, flagValues: [String]) {
    self.key = key
    self.flagValues = flagValues
  }

  /// `flagValue`, or none when `nil`.
  public init(key: String, flagValue: String?) {
    self.init(key: key, flagValues: flagValue.map { [$0] } ?? [])
  }

  /// A declared ``Setting`` with the values its flag was given.
  public init(_ setting: Setting, flagValues: [String]) {
    self.init(key: setting.key, flagValues: flagValues)
  }

  /// `BINARIO_` and the key in UPPER_SNAKE: `BINARIO_RATE_LIMIT`.
  public var environmentVariable: String { Setting(self.key, help: "").environmentVariable }

  /// The key in kebab-case: `--rate-limit`.
  public var flag: String { Setting(self.key, help: "").flag }
}

/// The values of a process's ``AdditionalSetting``s, each with where it came from.
public struct AdditionalSettingValues: Sendable, Hashable {
  /// One setting's values and their source.
  public struct Entry: Sendable, Hashable {
    public var values: [String]
    public var source: ConfigurationSource
  }

  var entries: [String: Entry] = [:]

  public init() {}

  /// The values of `key` (empty when not set anywhere).
  public func values(_ key: String) -> [String] {
    self.entries[key]?.values ?? []
  }

  /// The single value of `key`, or `nil` when not set.
  /// - Throws: ``ConfigurationError`` when it has several.
  public func value(_ key: String) throws -> String? {
    guard let entry = self.entries[key] else { return nil }
    guard entry.values.count <= 1 else {
      throw ConfigurationError(setting: key, source: entry.source, reason: "expected one value, got \(entry.values.count)")
    }
    return entry.values.first
  }

  /// Each value of `key` through `parse`; a parse error becomes a ``ConfigurationError`` naming
  /// the setting and the source of the value.
  public func parsed<Value>(_ key: String, _ parse: (String) throws -> Value) throws -> [Value] {
    guard let entry = self.entries[key] else { return [] }
    return try entry.values.map { value in
      do {
        return try parse(value)
      } catch {
        throw ConfigurationError(setting: key, source: entry.source, reason: "\(error)")
      }
    }
  }
}
