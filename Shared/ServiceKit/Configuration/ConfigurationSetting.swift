import Logging

/// The settings of ``ServiceConfiguration``, with the name each has in the config file, the
/// environment and on the command line, and how a raw value becomes a checked one.
public enum ConfigurationSetting: String, CaseIterable, Sendable {
  case serviceName
  case host
  case port
  case tlsCertificate
  case tlsPrivateKey
  case tlsTrustedCA
  case tlsClientAuthentication
  case dataDirectory
  case logLevel
  case logFormat
  case metricsHost
  case metricsPort
  case shutdownGracePeriod
  case maxFrameSize
  case otlpEndpoint
  case keepaliveInterval
  case keepaliveTimeout
  case backupDirectory
  case backupInterval
  case backupKeep

  /// The key in the JSON config file (camelCase, as the property).
  public var key: String { self.rawValue }

  /// The setting's declaration: its flag, variable and help follow from it.
  public var setting: Setting {
    switch self {
    case .serviceName: Setting(self.rawValue, help: "Name in logs and metrics.", valueName: "name")
    case .host: Setting(self.rawValue, help: "gRPC listen address.", valueName: "address")
    case .port: Setting(self.rawValue, help: "gRPC listen port; 0 picks one.", valueName: "port")
    case .tlsCertificate: Setting(self.rawValue, help: "PEM certificate chain.", valueName: "pem-file")
    case .tlsPrivateKey: Setting(self.rawValue, help: "PEM private key.", valueName: "pem-file")
    case .tlsTrustedCA: Setting(self.rawValue, help: "PEM CA certificates peers must chain to.", valueName: "pem-file")
    case .tlsClientAuthentication: Setting(self.rawValue, help: "Require client certificates (default) or not.", valueName: "required|none")
    case .dataDirectory: Setting(self.rawValue, help: "Where the service keeps its files.", valueName: "directory")
    case .logLevel: Setting(self.rawValue, help: "trace, debug, info, notice, warning, error, critical.", valueName: "level")
    case .logFormat: Setting(self.rawValue, help: "Log lines for people or JSON lines.", valueName: "human|json")
    case .metricsHost: Setting(self.rawValue, help: "/metrics listen address.", valueName: "address")
    case .metricsPort: Setting(self.rawValue, help: "/metrics listen port; off disables.", valueName: "port|off")
    case .shutdownGracePeriod: Setting(self.rawValue, help: "Seconds open calls may finish after SIGTERM.", valueName: "seconds")
    case .maxFrameSize: Setting(self.rawValue, help: "Largest frame in bytes.", valueName: "bytes")
    case .otlpEndpoint:
      Setting(self.rawValue, help: "Export spans over OTLP/HTTP to this collector; off (the default) exports none.", valueName: "url|off")
    case .keepaliveInterval:
      Setting(self.rawValue, help: "Seconds without receiving anything on a connection before it is pinged (default 30).", valueName: "seconds")
    case .keepaliveTimeout:
      Setting(self.rawValue, help: "Seconds a ping may go unanswered before the connection is closed as dead (default 10).", valueName: "seconds")
    case .backupDirectory:
      Setting(self.rawValue, help: "Where the database's backups go (default: backups in the data directory).", valueName: "directory")
    case .backupInterval:
      Setting(self.rawValue, help: "Seconds between two backups of the database (default 3600); off takes none.", valueName: "seconds|off")
    case .backupKeep: Setting(self.rawValue, help: "How many backups are kept (default 48).", valueName: "count")
    }
  }

  /// `BINARIO_` and the key in UPPER_SNAKE: `BINARIO_TLS_TRUSTED_CA`.
  public var environmentVariable: String {
    self.setting.environmentVariable
  }

  /// The key in kebab-case: `--tls-trusted-ca`.
  public var flag: String {
    self.setting.flag
  }

  /// The environment variable naming a config file, read when `--config` is absent.
  public static let configFileEnvironmentVariable = "BINARIO_CONFIG"

  /// Checks `value` and stores it in `configuration`.
  func apply(_ value: SettingValue, to configuration: inout ServiceConfiguration) throws(SettingValue.Invalid) {
    switch self {
    case .serviceName: configuration.serviceName = try value.nonEmptyString()
    case .host: configuration.host = try value.nonEmptyString()
    case .port: configuration.port = try value.integer(in: 0 ... 65535, "a port number")
    case .tlsCertificate: configuration.tlsCertificate = try value.optionalPath()
    case .tlsPrivateKey: configuration.tlsPrivateKey = try value.optionalPath()
    case .tlsTrustedCA: configuration.tlsTrustedCA = try value.optionalPath()
    case .tlsClientAuthentication:
      configuration.tlsClientAuthentication = try value.choice(of: ServiceConfiguration.ClientAuthentication.self)
    case .dataDirectory: configuration.dataDirectory = try value.nonEmptyString()
    case .logLevel: configuration.logLevel = try value.choice(of: Logger.Level.self)
    case .logFormat: configuration.logFormat = try value.choice(of: LogFormat.self)
    case .metricsHost: configuration.metricsHost = try value.nonEmptyString()
    case .metricsPort: configuration.metricsPort = try value.optionalInteger(in: 0 ... 65535, "a port number")
    case .shutdownGracePeriod: configuration.shutdownGracePeriod = try value.seconds(in: 0 ... 3600)
    case .maxFrameSize: configuration.maxFrameSize = try value.integer(in: 1024 ... (1 << 30), "a size in bytes")
    case .otlpEndpoint: configuration.otlpEndpoint = try value.optionalURL(schemes: ["http", "https"])
    case .keepaliveInterval: configuration.keepaliveInterval = try value.seconds(in: 0.1 ... 3600)
    case .keepaliveTimeout: configuration.keepaliveTimeout = try value.seconds(in: 0.1 ... 3600)
    case .backupDirectory: configuration.backupDirectory = try value.optionalPath()
    case .backupInterval: configuration.backupInterval = try value.optionalSeconds(in: 1 ... 7 * 24 * 3600)
    case .backupKeep: configuration.backupKeep = try value.integer(in: 1 ... 10_000, "a number of backups")
    }
  }
}
