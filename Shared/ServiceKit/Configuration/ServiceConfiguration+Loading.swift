import Foundation

extension ServiceConfiguration {
  /// Builds the configuration from, in rising precedence: ``defaults(serviceName:)``, the JSON
  /// config file (`--config`, else `BINARIO_CONFIG`), `BINARIO_*` environment variables, flags.
  ///
  /// Unknown keys in the file are errors (a typo would otherwise be silently ignored); unknown
  /// `BINARIO_*` variables are not, since other tools share the prefix.
  /// - Throws: ``ConfigurationError`` naming the setting and the source of the bad value.
  public static func load(
    serviceName: String,
    options: ServiceOptions,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> ServiceConfiguration {
    try Self.load(
      defaults: .defaults(serviceName: serviceName),
      options: options,
      additionalSettings: [],
      environment: environment
    ).configuration
  }

  /// ``load(serviceName:options:environment:)`` for a service with settings of its own
  /// (``AdditionalSetting``) and defaults of its own (the gateway listens without client
  /// certificates, say): the file may hold the additional keys too.
  public static func load(
    defaults: ServiceConfiguration,
    options: ServiceOptions,
    additionalSettings: [AdditionalSetting],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> (configuration: ServiceConfiguration, additional: AdditionalSettingValues) {
    var configuration = defaults
    var additional = AdditionalSettingValues()
    let additionalKeys = Dictionary(additionalSettings.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    var dataDirectoryIsSet = defaults.dataDirectory != Self.defaultDataDirectory(serviceName: defaults.serviceName)

    func apply(_ setting: ConfigurationSetting, _ value: SettingValue, from source: ConfigurationSource) throws {
      do {
        try setting.apply(value, to: &configuration)
      } catch {
        throw ConfigurationError(setting: setting.key, source: source, reason: error.reason)
      }
      if setting == .dataDirectory { dataDirectoryIsSet = true }
    }

    let filePath = options.config ?? environment[ConfigurationSetting.configFileEnvironmentVariable]
    if let filePath, !filePath.isEmpty {
      for (key, value) in try Self.readFile(filePath).sorted(by: { $0.key < $1.key }) {
        let source = ConfigurationSource.file(path: filePath, key: key)
        if additionalKeys[key] != nil {
          additional.entries[key] = .init(values: try Self.additionalValues(value, key: key, source: source), source: source)
          continue
        }
        guard let setting = ConfigurationSetting(rawValue: key) else {
          let known = (ConfigurationSetting.allCases.map(\.key) + additionalKeys.keys.sorted()).joined(separator: ", ")
          throw ConfigurationError(setting: key, source: source, reason: "no such setting; known settings: \(known)")
        }
        try apply(setting, .json(value), from: source)
      }
    }

    for setting in ConfigurationSetting.allCases {
      if let value = environment[setting.environmentVariable] {
        try apply(setting, .text(value), from: .environment(variable: setting.environmentVariable))
      }
    }

    for setting in ConfigurationSetting.allCases {
      if let value = options.value(for: setting) {
        try apply(setting, .text(value), from: .flag(name: setting.flag))
      }
    }

    for setting in additionalSettings {
      if let value = environment[setting.environmentVariable] {
        let values = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        additional.entries[setting.key] = .init(values: values, source: .environment(variable: setting.environmentVariable))
      }
      if !setting.flagValues.isEmpty {
        additional.entries[setting.key] = .init(values: setting.flagValues, source: .flag(name: setting.flag))
      }
    }

    if !dataDirectoryIsSet {
      configuration.dataDirectory = Self.defaultDataDirectory(serviceName: configuration.serviceName)
    }
    return (configuration, additional)
  }

  /// An additional setting's values as the file gives them.
  private static func additionalValues(_ value: JSONValue, key: String, source: ConfigurationSource) throws -> [String] {
    func scalar(_ value: JSONValue) throws -> String {
      switch value {
      case .string(let text): return text
      case .number, .bool: return value.description
      default:
        throw ConfigurationError(setting: key, source: source, reason: "expected a string, a number or a list of them, got \(value)")
      }
    }
    switch value {
    case .null: return []
    case .array(let elements): return try elements.map(scalar)
    case .object(let entries): return try entries.sorted { $0.key < $1.key }.map { "\($0.key)=\(try scalar($0.value))" }
    default: return [try scalar(value)]
    }
  }

  private static func readFile(_ path: String) throws -> [String: JSONValue] {
    let source = ConfigurationSource.file(path: path, key: nil)
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ConfigurationError(
        setting: nil,
        source: source,
        reason: "cannot read the file: \(error.localizedDescription)"
      )
    }
    let value: JSONValue
    do {
      value = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      throw ConfigurationError(setting: nil, source: source, reason: "not valid JSON: \(error)")
    }
    guard case .object(let entries) = value else {
      throw ConfigurationError(
        setting: nil,
        source: source,
        reason: "expected a JSON object of settings, got \(value)"
      )
    }
    return entries
  }
}
