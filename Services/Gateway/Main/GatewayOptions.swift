import ArgumentParser
import BinarioServiceKit

/// The gateway's own flags, beside ServiceKit's ``ServiceOptions``. Each is also a config-file key
/// and a `BINARIO_*` environment variable (comma-separated for lists).
struct GatewayOptions: ParsableArguments {
  @Option(
    name: .customLong("upstream"),
    help: ArgumentHelp(
      "An upstream service: name=host:port, repeatable (e.g. identity=127.0.0.1:7101). (BINARIO_UPSTREAM)",
      valueName: "name=host:port"
    )
  )
  var upstream: [String] = []

  @Option(
    name: .customLong("route"),
    help: ArgumentHelp(
      "Route a proto package to an upstream, repeatable; binario.<name>.vN goes to <name> without one. (BINARIO_ROUTE)",
      valueName: "package=name"
    )
  )
  var route: [String] = []

  @Option(
    name: .customLong("rate-limit"),
    help: ArgumentHelp(
      "Calls per second per client (user, else IP), optionally /burst; off disables. (BINARIO_RATE_LIMIT)",
      valueName: "rate[/burst]|off"
    )
  )
  var rateLimit: String?

  @Option(
    name: .customLong("upstream-tls-certificate"),
    help: ArgumentHelp(
      "PEM certificate presented to upstreams (default: --tls-certificate). (BINARIO_UPSTREAM_TLS_CERTIFICATE)",
      valueName: "pem-file"
    )
  )
  var upstreamTLSCertificate: String?

  @Option(
    name: .customLong("upstream-tls-private-key"),
    help: ArgumentHelp(
      "Its private key (default: --tls-private-key). (BINARIO_UPSTREAM_TLS_PRIVATE_KEY)",
      valueName: "pem-file"
    )
  )
  var upstreamTLSPrivateKey: String?

  var additionalSettings: [AdditionalSetting] {
    [
      AdditionalSetting(key: GatewaySettings.Key.upstream, flagValues: self.upstream),
      AdditionalSetting(key: GatewaySettings.Key.route, flagValues: self.route),
      AdditionalSetting(key: GatewaySettings.Key.rateLimit, flagValue: self.rateLimit),
      AdditionalSetting(key: GatewaySettings.Key.upstreamTLSCertificate, flagValue: self.upstreamTLSCertificate),
      AdditionalSetting(key: GatewaySettings.Key.upstreamTLSPrivateKey, flagValue: self.upstreamTLSPrivateKey),
    ]
  }
}
