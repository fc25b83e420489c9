import ArgumentParser

/// The command-line flags every service accepts; embed with `@OptionGroup var options: ServiceOptions`.
///
/// Values stay text here: ``ServiceConfiguration/load(serviceName:options:environment:)`` checks
/// them, so a bad flag is reported like a bad environment variable or file entry, naming the setting.
public struct ServiceOptions: ParsableArguments, Sendable {
  @Option(name: .customLong("config"), help: ArgumentHelp("JSON config file (or BINARIO_CONFIG).", valueName: "file"))
  public var config: String?

  @Option(
    name: .customLong("service-name"),
    help: ArgumentHelp("Name in logs and metrics. (BINARIO_SERVICE_NAME)", valueName: "name")
  )
  public var serviceName: String?

  @Option(name: .customLong("host"), help: ArgumentHelp("gRPC listen address. (BINARIO_HOST)", valueName: "address"))
  public var host: String?

  @Option(
    name: .customLong("port"),
    help: ArgumentHelp("gRPC listen port; 0 picks one. (BINARIO_PORT)", valueName: "port")
  )
  public var port: String?

  @Option(
    name: .customLong("tls-certificate"),
    help: ArgumentHelp("PEM certificate chain. (BINARIO_TLS_CERTIFICATE)", valueName: "pem-file")
  )
  public var tlsCertificate: String?

  @Option(
    name: .customLong("tls-private-key"),
    help: ArgumentHelp("PEM private key. (BINARIO_TLS_PRIVATE_KEY)", valueName: "pem-file")
  )
  public var tlsPrivateKey: String?

  @Option(
    name: .customLong("tls-trusted-ca"),
    help: ArgumentHelp("PEM CA certificates peers must chain to. (BINARIO_TLS_TRUSTED_CA)", valueName: "pem-file")
  )
  public var tlsTrustedCA: String?

  @Option(
    name: .customLong("tls-client-authentication"),
    help: ArgumentHelp(
      "Require client certificates (default) or not. (BINARIO_TLS_CLIENT_AUTHENTICATION)",
      valueName: "required|none"
    )
  )
  public var tlsClientAuthentication: String?

  @Option(
    name: .customLong("data-directory"),
    help: ArgumentHelp("Where the service keeps its files. (BINARIO_DATA_DIRECTORY)", valueName: "directory")
  )
  public var dataDirectory: String?

  @Option(
    name: .customLong("log-level"),
    help: ArgumentHelp(
      "trace, debug, info, notice, warning, error, critical. (BINARIO_LOG_LEVEL)",
      valueName: "level"
    )
  )
  public var logLevel: String?

  @Option(
    name: .customLong("log-format"),
    help: ArgumentHelp("Log lines for people or JSON lines. (BINARIO_LOG_FORMAT)", valueName: "human|json")
  )
  public var logFormat: String?

  @Option(
    name: .customLong("metrics-host"),
    help: ArgumentHelp("/metrics listen address. (BINARIO_METRICS_HOST)", valueName: "address")
  )
  public var metricsHost: String?

  @Option(
    name: .customLong("metrics-port"),
    help: ArgumentHelp("/metrics listen port; off disables. (BINARIO_METRICS_PORT)", valueName: "port|off")
  )
  public var metricsPort: String?

  @Option(
    name: .customLong("shutdown-grace-period"),
    help: ArgumentHelp(
      "Seconds open calls may finish after SIGTERM. (BINARIO_SHUTDOWN_GRACE_PERIOD)",
      valueName: "seconds"
    )
  )
  public var shutdownGracePeriod: String?

  @Option(
    name: .customLong("max-frame-size"),
    help: ArgumentHelp("Largest frame in bytes. (BINARIO_MAX_FRAME_SIZE)", valueName: "bytes")
  )
  public var maxFrameSize: String?

  @Option(
    name: .customLong("otlp-endpoint"),
    help: ArgumentHelp(
      "Export spans over OTLP/HTTP to this collector; off (the default) exports none. (BINARIO_OTLP_ENDPOINT)",
      valueName: "url|off"
    )
  )
  public var otlpEndpoint: String?

  @Option(
    name: .customLong("keepalive-interval"),
    help: ArgumentHelp(
      "Seconds without receiving anything on a connection before it is pinged (default 30). (BINARIO_KEEPALIVE_INTERVAL)",
      valueName: "seconds"
    )
  )
  public var keepaliveInterval: String?

  @Option(
    name: .customLong("keepalive-timeout"),
    help: ArgumentHelp(
      "Seconds a ping may go unanswered before the connection is closed as dead (default 10). (BINARIO_KEEPALIVE_TIMEOUT)",
      valueName: "seconds"
    )
  )
  public var keepaliveTimeout: String?

  public init() {}

  /// The flag's value for `setting`, if the flag was given.
  public func value(for setting: ConfigurationSetting) -> String? {
    switch setting {
    case .serviceName: return self.serviceName
    case .host: return self.host
    case .port: return self.port
    case .tlsCertificate: return self.tlsCertificate
    case .tlsPrivateKey: return self.tlsPrivateKey
    case .tlsTrustedCA: return self.tlsTrustedCA
    case .tlsClientAuthentication: return self.tlsClientAuthentication
    case .dataDirectory: return self.dataDirectory
    case .logLevel: return self.logLevel
    case .logFormat: return self.logFormat
    case .metricsHost: return self.metricsHost
    case .metricsPort: return self.metricsPort
    case .shutdownGracePeriod: return self.shutdownGracePeriod
    case .maxFrameSize: return self.maxFrameSize
    case .otlpEndpoint: return self.otlpEndpoint
    case .keepaliveInterval: return self.keepaliveInterval
    case .keepaliveTimeout: return self.keepaliveTimeout
    }
  }
}
