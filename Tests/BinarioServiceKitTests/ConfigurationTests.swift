import ArgumentParser
import Foundation
import Logging
import Testing

@testable import BinarioServiceKit

@Suite("Configuration")
struct ConfigurationTests {
  /// Writes `json` to a fresh temporary file and returns its path.
  private func configFile(_ json: String) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("binario-config-\(UUID().uuidString).json").path
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("flags beat environment, which beats the file, which beats the defaults")
  func precedence() throws {
    let file = try configFile(
      """
      {"port": 1000, "host": "10.0.0.1", "logLevel": "debug", "logFormat": "json", "maxFrameSize": 2048}
      """
    )
    let options = try ServiceOptions.parse(["--config", file, "--port", "3000"])
    let environment = ["BINARIO_PORT": "2000", "BINARIO_LOG_LEVEL": "warning", "BINARIO_MAX_FRAME_SIZE": "4096"]

    let configuration = try ServiceConfiguration.load(serviceName: "identity", options: options, environment: environment)

    #expect(configuration.port == 3000)  // flag over environment and file
    #expect(configuration.logLevel == .warning)  // environment over file
    #expect(configuration.maxFrameSize == 4096)  // environment over file
    #expect(configuration.host == "10.0.0.1")  // file over default
    #expect(configuration.logFormat == .json)  // file over default
    #expect(configuration.metricsPort == nil)  // default
    #expect(configuration.tlsClientAuthentication == .required)  // default
    #expect(configuration.serviceName == "identity")
  }

  @Test("the config file may also come from BINARIO_CONFIG")
  func configFileFromEnvironment() throws {
    let file = try configFile(#"{"port": 1234}"#)
    let configuration = try ServiceConfiguration.load(
      serviceName: "ticketing",
      options: try ServiceOptions.parse([]),
      environment: ["BINARIO_CONFIG": file]
    )
    #expect(configuration.port == 1234)
  }

  @Test("every setting has a flag and an environment variable that set it")
  func everySettingIsReachable() throws {
    let values: [ConfigurationSetting: String] = [
      .serviceName: "dispatch", .host: "0.0.0.0", .port: "7001", .tlsCertificate: "/c.pem",
      .tlsPrivateKey: "/k.pem", .tlsTrustedCA: "/ca.pem", .tlsClientAuthentication: "none",
      .dataDirectory: "/var/lib/dispatch", .logLevel: "trace", .logFormat: "json",
      .metricsHost: "0.0.0.0", .metricsPort: "9100", .shutdownGracePeriod: "2.5", .maxFrameSize: "65536",
      .otlpEndpoint: "http://collector:4318", .keepaliveInterval: "5", .keepaliveTimeout: "0.5",
      .backupDirectory: "/var/lib/binario-backups", .backupInterval: "off", .backupKeep: "7",
    ]
    let expected = ServiceConfiguration(
      serviceName: "dispatch",
      host: "0.0.0.0",
      port: 7001,
      tlsCertificate: "/c.pem",
      tlsPrivateKey: "/k.pem",
      tlsTrustedCA: "/ca.pem",
      tlsClientAuthentication: .none,
      dataDirectory: "/var/lib/dispatch",
      logLevel: .trace,
      logFormat: .json,
      metricsHost: "0.0.0.0",
      metricsPort: 9100,
      shutdownGracePeriod: 2.5,
      maxFrameSize: 65536,
      otlpEndpoint: "http://collector:4318",
      keepaliveInterval: 5,
      keepaliveTimeout: 0.5,
      backupDirectory: "/var/lib/binario-backups",
      backupInterval: nil,
      backupKeep: 7
    )
    #expect(Set(values.keys) == Set(ConfigurationSetting.allCases))

    let arguments = values.flatMap { [$0.key.flag, $0.value] }
    let fromFlags = try ServiceConfiguration.load(
      serviceName: "x",
      options: try ServiceOptions.parse(arguments),
      environment: [:]
    )
    #expect(fromFlags == expected)

    let environment = Dictionary(uniqueKeysWithValues: values.map { ($0.key.environmentVariable, $0.value) })
    let fromEnvironment = try ServiceConfiguration.load(
      serviceName: "x",
      options: try ServiceOptions.parse([]),
      environment: environment
    )
    #expect(fromEnvironment == expected)
  }

  @Test("names follow one scheme")
  func names() {
    #expect(ConfigurationSetting.tlsTrustedCA.environmentVariable == "BINARIO_TLS_TRUSTED_CA")
    #expect(ConfigurationSetting.tlsTrustedCA.flag == "--tls-trusted-ca")
    #expect(ConfigurationSetting.tlsCertificate.environmentVariable == "BINARIO_TLS_CERTIFICATE")
    #expect(ConfigurationSetting.port.environmentVariable == "BINARIO_PORT")
    #expect(ConfigurationSetting.maxFrameSize.flag == "--max-frame-size")
  }

  @Test("an encoded configuration is a config file that loads back to it")
  func encodedConfigurationLoadsBack() throws {
    let original = ServiceConfiguration(
      serviceName: "geo-offers",
      port: 7005,
      tlsCertificate: "/c.pem",
      tlsClientAuthentication: .none,
      logLevel: .notice,
      metricsPort: 0,
      shutdownGracePeriod: 0.5
    )
    let file = try configFile(String(decoding: try JSONEncoder().encode(original), as: UTF8.self))
    let loaded = try ServiceConfiguration.load(
      serviceName: "other",
      options: try ServiceOptions.parse(["--config", file]),
      environment: [:]
    )
    #expect(loaded == original)
  }

  @Test("the data directory follows the service name unless set")
  func dataDirectoryDefault() throws {
    let file = try configFile(#"{"serviceName": "telemetry"}"#)
    let derived = try ServiceConfiguration.load(
      serviceName: "x",
      options: try ServiceOptions.parse(["--config", file]),
      environment: [:]
    )
    #expect(derived.dataDirectory == "data/telemetry")

    let explicit = try ServiceConfiguration.load(
      serviceName: "x",
      options: try ServiceOptions.parse(["--config", file, "--data-directory", "/srv"]),
      environment: [:]
    )
    #expect(explicit.dataDirectory == "/srv")
  }

  @Test("backups: hourly into backups in the data directory, 48 kept, unless set; an interval of 0 is refused, naming the setting")
  func backupSettings() throws {
    let defaults = try ServiceConfiguration.load(
      serviceName: "ticketing",
      options: try ServiceOptions.parse(["--data-directory", "/var/lib/binario"]),
      environment: [:]
    )
    #expect(defaults.backupFolder == "/var/lib/binario/backups")
    #expect(defaults.backupInterval == 3600 && defaults.backupKeep == 48)
    let set = try ServiceConfiguration.load(
      serviceName: "ticketing",
      options: try ServiceOptions.parse(["--backup-directory", "/backups", "--backup-interval", "900"]),
      environment: ["BINARIO_BACKUP_KEEP": "96"]
    )
    #expect(set.backupFolder == "/backups" && set.backupInterval == 900 && set.backupKeep == 96)
    #expect(throws: ConfigurationError.self) {
      _ = try ServiceConfiguration.load(serviceName: "x", options: try ServiceOptions.parse([]), environment: ["BINARIO_BACKUP_INTERVAL": "0"])
    }
    do {
      _ = try ServiceConfiguration.load(serviceName: "x", options: try ServiceOptions.parse([]), environment: ["BINARIO_BACKUP_INTERVAL": "0"])
    } catch {
      #expect("\(error)".contains("BINARIO_BACKUP_INTERVAL"), "\(error)")
    }
  }

  @Test("metrics can be turned off over a file that turns them on")
  func metricsOff() throws {
    let file = try configFile(#"{"metricsPort": 9100}"#)
    let configuration = try ServiceConfiguration.load(
      serviceName: "x",
      options: try ServiceOptions.parse(["--config", file]),
      environment: ["BINARIO_METRICS_PORT": "off"]
    )
    #expect(configuration.metricsPort == nil)
  }

  @Test("span export is off unless an OTLP endpoint is set, here or in OpenTelemetry's own variables")
  func otlpEndpoint() throws {
    let none = try ServiceConfiguration.load(serviceName: "x", options: try ServiceOptions.parse([]), environment: [:])
    #expect(none.otlpEndpoint == nil)
    #expect(ServiceTracing.export(configuration: none, environment: [:]) == .off)
    #expect(
      ServiceTracing.export(configuration: none, environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"])
        == .otlp(endpoint: "http://c:4318")
    )

    let set = try ServiceConfiguration.load(
      serviceName: "x",
      options: try ServiceOptions.parse(["--otlp-endpoint", "https://collector.example:4318/"]),
      environment: [:]
    )
    #expect(ServiceTracing.export(configuration: set, environment: [:]) == .otlp(endpoint: "https://collector.example:4318/"))
    let off = try ServiceConfiguration.load(
      serviceName: "x",
      options: try ServiceOptions.parse(["--otlp-endpoint", "off"]),
      environment: ["BINARIO_OTLP_ENDPOINT": "http://c:4318"]
    )
    #expect(off.otlpEndpoint == nil)

    for bad in ["collector:4318", "ftp://collector", "http://", "http://collector :4318"] {
      let error = try #require(throws: ConfigurationError.self) {
        try ServiceConfiguration.load(serviceName: "x", options: try ServiceOptions.parse(["--otlp-endpoint", bad]), environment: [:])
      }
      #expect(error.setting == "otlpEndpoint")
      #expect(error.description.contains("http://"))
    }
  }

  @Test("a bad environment variable is named with its setting")
  func badEnvironmentValue() throws {
    let error = try #require(throws: ConfigurationError.self) {
      try ServiceConfiguration.load(serviceName: "x", options: try ServiceOptions.parse([]), environment: ["BINARIO_PORT": "eighty"])
    }
    #expect(error.setting == "port")
    #expect(error.source == .environment(variable: "BINARIO_PORT"))
    #expect(error.description.contains("BINARIO_PORT"))
    #expect(error.description.contains("\"port\""))
    #expect(error.description.contains("eighty"))
  }

  @Test("a bad flag is named with its setting")
  func badFlagValue() throws {
    let error = try #require(throws: ConfigurationError.self) {
      try ServiceConfiguration.load(
        serviceName: "x",
        options: try ServiceOptions.parse(["--metrics-port", "70000"]),
        environment: [:]
      )
    }
    #expect(error.setting == "metricsPort")
    #expect(error.source == .flag(name: "--metrics-port"))
    #expect(error.description.contains("--metrics-port"))
  }

  @Test("a bad file value is named with its setting and file")
  func badFileValue() throws {
    let file = try configFile(#"{"logLevel": "loud"}"#)
    let error = try #require(throws: ConfigurationError.self) {
      try ServiceConfiguration.load(serviceName: "x", options: try ServiceOptions.parse(["--config", file]), environment: [:])
    }
    #expect(error.setting == "logLevel")
    #expect(error.source == .file(path: file, key: "logLevel"))
    #expect(error.description.contains(file))
    #expect(error.description.contains("trace, debug, info"))
  }

  @Test("a value of the wrong JSON type is refused")
  func wrongJSONType() throws {
    let file = try configFile(#"{"port": "7001"}"#)
    let error = try #require(throws: ConfigurationError.self) {
      try ServiceConfiguration.load(serviceName: "x", options: try ServiceOptions.parse(["--config", file]), environment: [:])
    }
    #expect(error.setting == "port")
  }

  @Test("an unknown key in the file is an error naming it")
  func unknownFileKey() throws {
    let file = try configFile(#"{"prot": 7001}"#)
    let error = try #require(throws: ConfigurationError.self) {
      try ServiceConfiguration.load(serviceName: "x", options: try ServiceOptions.parse(["--config", file]), environment: [:])
    }
    #expect(error.setting == "prot")
    #expect(error.description.contains("port"))  // the known settings are listed
  }

  @Test("a file that is not a JSON object is an error naming the file")
  func malformedFile() throws {
    let file = try configFile("[1, 2]")
    let error = try #require(throws: ConfigurationError.self) {
      try ServiceConfiguration.load(serviceName: "x", options: try ServiceOptions.parse(["--config", file]), environment: [:])
    }
    #expect(error.setting == nil)
    #expect(error.source == .file(path: file, key: nil))
  }
}
