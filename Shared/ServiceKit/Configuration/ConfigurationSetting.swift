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

  /// The key in the JSON config file (camelCase, as the property).
  public var key: String { self.rawValue }

  /// `BINARIO_` and the key in UPPER_SNAKE: `BINARIO_TLS_TRUSTED_CA`.
  public var environmentVariable: String {
    "BINARIO_" + Self.words(of: self.rawValue).map { $0.uppercased() }.joined(separator: "_")
  }

  /// The key in kebab-case: `--tls-trusted-ca`.
  public var flag: String {
    "--" + Self.words(of: self.rawValue).map { $0.lowercased() }.joined(separator: "-")
  }

  /// The environment variable naming a config file, read when `--config` is absent.
  public static let configFileEnvironmentVariable = "BINARIO_CONFIG"

  /// Splits camelCase, keeping a run of capitals together: `tlsTrustedCA` → tls, Trusted, CA.
  static func words(of key: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previousWasLowercase = false
    for character in key {
      if character.isUppercase && previousWasLowercase {
        words.append(current)
        current = ""
      }
      current.append(character)
      previousWasLowercase = character.isLowercase || character.isNumber
    }
    words.append(current)
    return words
  }

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
    }
  }
}
