import ArgumentParser
import BinarioServiceKit
import GatewayService

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
      "Calls per second per client (user, else IP), optionally /burst, on every front door (default 50/100); off disables. (BINARIO_RATE_LIMIT)",
      valueName: "rate[/burst]|off"
    )
  )
  var rateLimit: String?

  @Option(
    name: .customLong("grpc-port"),
    help: ArgumentHelp(
      "The gRPC (HTTP/2, TLS) front door's port (default 7110; 0: any; off: none). (BINARIO_GRPC_PORT)",
      valueName: "port|off"
    )
  )
  var grpcPort: String?

  @Option(
    name: .customLong("http-port"),
    help: ArgumentHelp(
      "The HTTP/JSON (HTTPS) front door's port, with /openapi.json and /docs (default 7443; 0: any; off: none). (BINARIO_HTTP_PORT)",
      valueName: "port|off"
    )
  )
  var httpPort: String?

  @Option(
    name: .customLong("cors-origin"),
    help: ArgumentHelp(
      "A web origin allowed to call the HTTP/JSON front door from a browser, repeatable (e.g. https://app.example.com). (BINARIO_CORS_ORIGIN)",
      valueName: "origin"
    )
  )
  var corsOrigin: [String] = []

  @Option(
    name: .customLong("docs-folder"),
    help: ArgumentHelp(
      "The Swagger UI distribution served at /docs (scripts/install-swagger-ui.sh puts it in .tools/swagger-ui). (BINARIO_DOCS_FOLDER)",
      valueName: "folder"
    )
  )
  var docsFolder: String?

  @Option(
    name: .customLong("web-folder"),
    help: ArgumentHelp(
      "The web app served at / (the repository's clients/web). (BINARIO_WEB_FOLDER)",
      valueName: "folder"
    )
  )
  var webFolder: String?

  @Option(
    name: .customLong("web-libraries"),
    help: ArgumentHelp(
      "Where Debian's libjs-leaflet, libjs-chart.js and node-qrcode-generator put their files (default /usr/share/javascript). (BINARIO_WEB_LIBRARIES)",
      valueName: "folder"
    )
  )
  var webLibraries: String?

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

  @Option(
    name: .customLong("connection-limit"),
    help: ArgumentHelp(
      "Connections kept open from one IP address, and in all, on each front door (default 256/16384); more are closed at once. (BINARIO_CONNECTION_LIMIT)",
      valueName: "per-client[/total]"
    )
  )
  var connectionLimit: String?

  @Option(
    name: .customLong("slow-client-timeout"),
    help: ArgumentHelp(
      "Seconds a client may take to finish its TLS handshake and to send a whole frame or HTTP request, and an HTTP connection may sit idle (default 30). (BINARIO_SLOW_CLIENT_TIMEOUT)",
      valueName: "seconds"
    )
  )
  var slowClientTimeout: String?

  @Option(
    name: .customLong("calls-per-connection"),
    help: ArgumentHelp(
      "Calls one client connection may have open at once on the Binario and gRPC doors (default 100). (BINARIO_CALLS_PER_CONNECTION)",
      valueName: "count"
    )
  )
  var callsPerConnection: String?

  @Option(
    name: .customLong("idle-timeout"),
    help: ArgumentHelp(
      "Seconds a Binario or gRPC door connection may stay open with no call before it is closed (default 300). (BINARIO_IDLE_TIMEOUT)",
      valueName: "seconds"
    )
  )
  var idleTimeout: String?

  var additionalSettings: [AdditionalSetting] {
    [
      AdditionalSetting(key: GatewaySettings.Key.upstream, flagValues: self.upstream),
      AdditionalSetting(key: GatewaySettings.Key.route, flagValues: self.route),
      AdditionalSetting(key: GatewaySettings.Key.rateLimit, flagValue: self.rateLimit),
      AdditionalSetting(key: GatewaySettings.Key.grpcPort, flagValue: self.grpcPort),
      AdditionalSetting(key: GatewaySettings.Key.httpPort, flagValue: self.httpPort),
      AdditionalSetting(key: GatewaySettings.Key.corsOrigin, flagValues: self.corsOrigin),
      AdditionalSetting(key: GatewaySettings.Key.docsFolder, flagValue: self.docsFolder),
      AdditionalSetting(key: GatewaySettings.Key.webFolder, flagValue: self.webFolder),
      AdditionalSetting(key: GatewaySettings.Key.webLibraries, flagValue: self.webLibraries),
      AdditionalSetting(key: GatewaySettings.Key.upstreamTLSCertificate, flagValue: self.upstreamTLSCertificate),
      AdditionalSetting(key: GatewaySettings.Key.upstreamTLSPrivateKey, flagValue: self.upstreamTLSPrivateKey),
      AdditionalSetting(key: GatewaySettings.Key.connectionLimit, flagValue: self.connectionLimit),
      AdditionalSetting(key: GatewaySettings.Key.slowClientTimeout, flagValue: self.slowClientTimeout),
      AdditionalSetting(key: GatewaySettings.Key.callsPerConnection, flagValue: self.callsPerConnection),
      AdditionalSetting(key: GatewaySettings.Key.idleTimeout, flagValue: self.idleTimeout),
    ]
  }
}
