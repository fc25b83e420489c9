import BinarioTransport
import Foundation
import Logging

/// The settings every Binario service process starts from.
///
/// Each stored property is one setting with one name, used alike as the config file's JSON key,
/// after `BINARIO_` in UPPER_SNAKE as an environment variable, and in kebab-case as a flag
/// (`maxFrameSize`, `BINARIO_MAX_FRAME_SIZE`, `--max-frame-size`); ``ConfigurationSetting`` lists
/// them. ``load(serviceName:options:environment:)`` layers flags over environment over file over
/// ``defaults(serviceName:)``. Encoding a configuration gives a valid config file.
public struct ServiceConfiguration: Codable, Sendable, Hashable {
  /// Whether the gRPC listener asks callers for a certificate.
  public enum ClientAuthentication: String, Codable, Sendable, Hashable, CaseIterable {
    /// Mutual TLS: callers must present a certificate from the trusted CA. Between services.
    case required
    /// Server-only TLS, for the gateway's public side.
    case none
  }

  /// Names the process in logs (the root logger's label) and metrics.
  public var serviceName: String
  /// Address the gRPC listener binds to.
  public var host: String
  /// Port of the gRPC listener; 0 lets the system pick one.
  public var port: Int
  /// Path of this process's PEM certificate chain.
  public var tlsCertificate: String?
  /// Path of the PEM private key matching ``tlsCertificate``.
  public var tlsPrivateKey: String?
  /// Path of the PEM certificates of the CA that peers' certificates must chain to.
  public var tlsTrustedCA: String?
  public var tlsClientAuthentication: ClientAuthentication
  /// Where the service keeps its database and other files. Unless set, `data/<serviceName>`.
  public var dataDirectory: String
  public var logLevel: Logger.Level
  public var logFormat: LogFormat
  /// Address the Prometheus `/metrics` endpoint binds to.
  public var metricsHost: String
  /// Port of the `/metrics` endpoint; `nil` turns the endpoint off, 0 lets the system pick one.
  public var metricsPort: Int?
  /// Seconds that open calls may run on after a graceful shutdown begins; then they are cancelled.
  public var shutdownGracePeriod: Double
  /// Largest frame, in bytes, the transport accepts or sends.
  public var maxFrameSize: Int
  /// Base URL of an OpenTelemetry collector's OTLP/HTTP receiver (`http://collector:4318`) that
  /// spans are exported to; `nil` (the default) exports none. See ``ServiceTracing``.
  public var otlpEndpoint: String?
  /// Seconds without receiving anything on a Binario connection (listener's or client's) before
  /// a `Ping` is sent.
  public var keepaliveInterval: Double
  /// Seconds a `Ping` may wait for anything to arrive before the connection is taken for dead and
  /// closed: its calls fail `UNAVAILABLE`, and a client connects anew.
  public var keepaliveTimeout: Double
  /// Where the database's backups go (``DatabaseBackups``); unless set, `<dataDirectory>/backups`.
  /// In a deployment, a volume of its own, so that losing the data volume keeps them.
  public var backupDirectory: String?
  /// Seconds between two backups of the service's database; `nil` takes none.
  public var backupInterval: Double?
  /// How many backups are kept; older ones are deleted after each new one.
  public var backupKeep: Int

  public init(
    serviceName: String,
    host: String = "127.0.0.1",
    port: Int = 0,
    tlsCertificate: String? = nil,
    tlsPrivateKey: String? = nil,
    tlsTrustedCA: String? = nil,
    tlsClientAuthentication: ClientAuthentication = .required,
    dataDirectory: String? = nil,
    logLevel: Logger.Level = .info,
    logFormat: LogFormat = .human,
    metricsHost: String = "127.0.0.1",
    metricsPort: Int? = nil,
    shutdownGracePeriod: Double = 20,
    maxFrameSize: Int = 4 * 1024 * 1024,
    otlpEndpoint: String? = nil,
    keepaliveInterval: Double = 30,
    keepaliveTimeout: Double = 10,
    backupDirectory: String? = nil,
    backupInterval: Double? = 3600,
    backupKeep: Int = 48
  ) {
    self.serviceName = serviceName
    self.host = host
    self.port = port
    self.tlsCertificate = tlsCertificate
    self.tlsPrivateKey = tlsPrivateKey
    self.tlsTrustedCA = tlsTrustedCA
    self.tlsClientAuthentication = tlsClientAuthentication
    self.dataDirectory = dataDirectory ?? Self.defaultDataDirectory(serviceName: serviceName)
    self.logLevel = logLevel
    self.logFormat = logFormat
    self.metricsHost = metricsHost
    self.metricsPort = metricsPort
    self.shutdownGracePeriod = shutdownGracePeriod
    self.maxFrameSize = maxFrameSize
    self.otlpEndpoint = otlpEndpoint
    self.keepaliveInterval = keepaliveInterval
    self.keepaliveTimeout = keepaliveTimeout
    self.backupDirectory = backupDirectory
    self.backupInterval = backupInterval
    self.backupKeep = backupKeep
  }

  /// The configuration used where no file, environment variable or flag says otherwise.
  public static func defaults(serviceName: String) -> Self {
    Self(serviceName: serviceName)
  }

  static func defaultDataDirectory(serviceName: String) -> String {
    "data/\(serviceName)"
  }

  /// Every Binario connection's limits and timers under these settings: the frame size and
  /// keepalive.
  public var connection: BinarioConnectionConfiguration {
    BinarioConnectionConfiguration(
      maximumFrameSize: self.maxFrameSize,
      keepaliveInterval: .milliseconds(Int64(self.keepaliveInterval * 1000)),
      keepaliveTimeout: .milliseconds(Int64(self.keepaliveTimeout * 1000))
    )
  }

  /// Where backups go: ``backupDirectory``, or `backups` in the data directory.
  public var backupFolder: String {
    self.backupDirectory ?? (self.dataDirectory as NSString).appendingPathComponent("backups")
  }

  /// ``shutdownGracePeriod`` as a `Duration`.
  public var shutdownGracePeriodDuration: Duration {
    .nanoseconds(Int64((self.shutdownGracePeriod * 1e9).rounded()))
  }
}
