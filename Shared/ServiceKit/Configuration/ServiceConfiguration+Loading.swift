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
    var configuration = ServiceConfiguration.defaults(serviceName: serviceName)
    var dataDirectoryIsSet = false

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
        guard let setting = ConfigurationSetting(rawValue: key) else {
          let known = ConfigurationSetting.allCases.map(\.key).joined(separator: ", ")
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

    if !dataDirectoryIsSet {
      configuration.dataDirectory = Self.defaultDataDirectory(serviceName: configuration.serviceName)
    }
    return configuration
  }

  private static func readFile(_ path: String) throws -> [String: JSONValue] {
    let source = ConfigurationSource.file(path: path, key: nil)
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ConfigurationError(
        setting: nil, source: source, reason: "cannot read the file: \(error.localizedDescription)"
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
        setting: nil, source: source, reason: "expected a JSON object of settings, got \(value)"
      )
    }
    return entries
  }
}
