import ArgumentParser

/// The command-line flags every service accepts; embed with `@OptionGroup var options: ServiceOptions`.
///
/// Values stay text here: ``ServiceConfiguration/load(serviceName:options:environment:)`` checks
/// them, so a bad flag is reported like a bad environment variable or file entry, naming the setting.
public struct ServiceOptions: ParsableArguments, Sendable {
  @Option(name: .customLong("config"), help: ArgumentHelp("JSON config file (or BINARIO_CONFIG).", valueName: "file"))
  public var config: String?

  @Option(name: .customLong(ConfigurationSetting.serviceName.setting.flagName), help: ConfigurationSetting.serviceName.setting.argumentHelp)
  public var serviceName: String?

  @Option(name: .customLong(ConfigurationSetting.host.setting.flagName), help: ConfigurationSetting.host.setting.argumentHelp)
  public var host: String?

  @Option(name: .customLong(ConfigurationSetting.port.setting.flagName), help: ConfigurationSetting.port.setting.argumentHelp)
  public var port: String?

  @Option(name: .customLong(ConfigurationSetting.tlsCertificate.setting.flagName), help: ConfigurationSetting.tlsCertificate.setting.argumentHelp)
  public var tlsCertificate: String?

  @Option(name: .customLong(ConfigurationSetting.tlsPrivateKey.setting.flagName), help: ConfigurationSetting.tlsPrivateKey.setting.argumentHelp)
  public var tlsPrivateKey: String?

  @Option(name: .customLong(ConfigurationSetting.tlsTrustedCA.setting.flagName), help: ConfigurationSetting.tlsTrustedCA.setting.argumentHelp)
  public var tlsTrustedCA: String?

  @Option(
    name: .customLong(ConfigurationSetting.tlsClientAuthentication.setting.flagName),
    help: ConfigurationSetting.tlsClientAuthentication.setting.argumentHelp
  )
  public var tlsClientAuthentication: String?

  @Option(name: .customLong(ConfigurationSetting.dataDirectory.setting.flagName), help: ConfigurationSetting.dataDirectory.setting.argumentHelp)
  public var dataDirectory: String?

  @Option(name: .customLong(ConfigurationSetting.logLevel.setting.flagName), help: ConfigurationSetting.logLevel.setting.argumentHelp)
  public var logLevel: String?

  @Option(name: .customLong(ConfigurationSetting.logFormat.setting.flagName), help: ConfigurationSetting.logFormat.setting.argumentHelp)
  public var logFormat: String?

  @Option(name: .customLong(ConfigurationSetting.metricsHost.setting.flagName), help: ConfigurationSetting.metricsHost.setting.argumentHelp)
  public var metricsHost: String?

  @Option(name: .customLong(ConfigurationSetting.metricsPort.setting.flagName), help: ConfigurationSetting.metricsPort.setting.argumentHelp)
  public var metricsPort: String?

  @Option(
    name: .customLong(ConfigurationSetting.shutdownGracePeriod.setting.flagName),
    help: ConfigurationSetting.shutdownGracePeriod.setting.argumentHelp
  )
  public var shutdownGracePeriod: String?

  @Option(name: .customLong(ConfigurationSetting.maxFrameSize.setting.flagName), help: ConfigurationSetting.maxFrameSize.setting.argumentHelp)
  public var maxFrameSize: String?

  @Option(name: .customLong(ConfigurationSetting.otlpEndpoint.setting.flagName), help: ConfigurationSetting.otlpEndpoint.setting.argumentHelp)
  public var otlpEndpoint: String?

  @Option(
    name: .customLong(ConfigurationSetting.keepaliveInterval.setting.flagName),
    help: ConfigurationSetting.keepaliveInterval.setting.argumentHelp
  )
  public var keepaliveInterval: String?

  @Option(name: .customLong(ConfigurationSetting.keepaliveTimeout.setting.flagName), help: ConfigurationSetting.keepaliveTimeout.setting.argumentHelp)
  public var keepaliveTimeout: String?

  @Option(name: .customLong(ConfigurationSetting.backupDirectory.setting.flagName), help: ConfigurationSetting.backupDirectory.setting.argumentHelp)
  public var backupDirectory: String?

  @Option(name: .customLong(ConfigurationSetting.backupInterval.setting.flagName), help: ConfigurationSetting.backupInterval.setting.argumentHelp)
  public var backupInterval: String?

  @Option(name: .customLong(ConfigurationSetting.backupKeep.setting.flagName), help: ConfigurationSetting.backupKeep.setting.argumentHelp)
  public var backupKeep: String?

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
    case .backupDirectory: return self.backupDirectory
    case .backupInterval: return self.backupInterval
    case .backupKeep: return self.backupKeep
    }
  }
}
