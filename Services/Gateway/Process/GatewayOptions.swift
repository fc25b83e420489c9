import ArgumentParser
import BinarioServiceKit
import GatewayService

/// The gateway's own settings, beside ServiceKit's common ones, each declared once: a flag, a
/// `BINARIO_*` variable (comma-separated for lists) or a key of the config file (flags win, then
/// variables, then the file). Their keys are ``GatewaySettings/Key``'s, which reads them.
extension Setting {
  static let upstream = Setting(
    GatewaySettings.Key.upstream,
    help: "An upstream service: name=host:port, repeatable (e.g. identity=127.0.0.1:7101).",
    valueName: "name=host:port"
  )

  static let route = Setting(
    GatewaySettings.Key.route,
    help: "Route a proto package to an upstream, repeatable; binario.<name>.vN goes to <name> without one.",
    valueName: "package=name"
  )

  static let rateLimit = Setting(
    GatewaySettings.Key.rateLimit,
    help: "Calls per second per client (user, else IP), optionally /burst, on every front door (default 50/100); off disables.",
    valueName: "rate[/burst]|off"
  )

  static let grpcPort = Setting(
    GatewaySettings.Key.grpcPort,
    help: "The gRPC (HTTP/2, TLS) front door's port (default 7110; 0: any; off: none).",
    valueName: "port|off"
  )

  static let httpPort = Setting(
    GatewaySettings.Key.httpPort,
    help: "The HTTP/JSON (HTTPS) front door's port, with /openapi.json and /docs (default 7443; 0: any; off: none).",
    valueName: "port|off"
  )

  static let corsOrigin = Setting(
    GatewaySettings.Key.corsOrigin,
    help: "A web origin allowed to call the HTTP/JSON front door from a browser, repeatable (e.g. https://app.example.com).",
    valueName: "origin"
  )

  static let docsFolder = Setting(
    GatewaySettings.Key.docsFolder,
    help: "The Swagger UI distribution served at /docs (scripts/install-swagger-ui.sh puts it in .tools/swagger-ui).",
    valueName: "folder"
  )

  static let webFolder = Setting(
    GatewaySettings.Key.webFolder,
    help: "The web app served at / (the repository's clients/web).",
    valueName: "folder"
  )

  static let webLibraries = Setting(
    GatewaySettings.Key.webLibraries,
    help: "Where Debian's libjs-leaflet, libjs-chart.js and node-qrcode-generator put their files (default /usr/share/javascript).",
    valueName: "folder"
  )

  static let mapTiles = Setting(
    GatewaySettings.Key.mapTiles,
    help:
      "A tile server for the web app's maps, as a URL template (e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png); default: the schematic base map the app ships.",
    valueName: "url-template"
  )

  static let mapAttribution = Setting(
    GatewaySettings.Key.mapAttribution,
    help: "The attribution the tile server's licence asks for, shown on every map (e.g. \"© OpenStreetMap contributors\").",
    valueName: "text"
  )

  static let upstreamTLSCertificate = Setting(
    GatewaySettings.Key.upstreamTLSCertificate,
    help: "PEM certificate presented to upstreams (default: --tls-certificate).",
    valueName: "pem-file"
  )

  static let upstreamTLSPrivateKey = Setting(
    GatewaySettings.Key.upstreamTLSPrivateKey,
    help: "Its private key (default: --tls-private-key).",
    valueName: "pem-file"
  )

  static let connectionLimit = Setting(
    GatewaySettings.Key.connectionLimit,
    help: "Connections kept open from one IP address, and in all, on each front door (default 256/16384); more are closed at once.",
    valueName: "per-client[/total]"
  )

  static let slowClientTimeout = Setting(
    GatewaySettings.Key.slowClientTimeout,
    help:
      "Seconds a client may take to finish its TLS handshake and to send a whole frame or HTTP request, and an HTTP connection may sit idle (default 30).",
    valueName: "seconds"
  )

  static let callsPerConnection = Setting(
    GatewaySettings.Key.callsPerConnection,
    help: "Calls one client connection may have open at once on the Binario and gRPC doors (default 100).",
    valueName: "count"
  )

  static let idleTimeout = Setting(
    GatewaySettings.Key.idleTimeout,
    help: "Seconds a Binario or gRPC door connection may stay open with no call before it is closed (default 300).",
    valueName: "seconds"
  )

  static let upstreamHold = Setting(
    GatewaySettings.Key.upstreamHold,
    help:
      "How long a call may wait for an upstream that is unavailable (restarting) before it fails, and how many calls may wait per upstream (default 10/1000); off: they fail at once.",
    valueName: "seconds[/calls]|off"
  )
}

/// The flags of the settings above; ``additionalSettings`` pairs each with its values.
struct GatewayOptions: ParsableArguments {
  @Option(name: .customLong(Setting.upstream.flagName), help: Setting.upstream.argumentHelp)
  var upstream: [String] = []

  @Option(name: .customLong(Setting.route.flagName), help: Setting.route.argumentHelp)
  var route: [String] = []

  @Option(name: .customLong(Setting.rateLimit.flagName), help: Setting.rateLimit.argumentHelp)
  var rateLimit: String?

  @Option(name: .customLong(Setting.grpcPort.flagName), help: Setting.grpcPort.argumentHelp)
  var grpcPort: String?

  @Option(name: .customLong(Setting.httpPort.flagName), help: Setting.httpPort.argumentHelp)
  var httpPort: String?

  @Option(name: .customLong(Setting.corsOrigin.flagName), help: Setting.corsOrigin.argumentHelp)
  var corsOrigin: [String] = []

  @Option(name: .customLong(Setting.docsFolder.flagName), help: Setting.docsFolder.argumentHelp)
  var docsFolder: String?

  @Option(name: .customLong(Setting.webFolder.flagName), help: Setting.webFolder.argumentHelp)
  var webFolder: String?

  @Option(name: .customLong(Setting.webLibraries.flagName), help: Setting.webLibraries.argumentHelp)
  var webLibraries: String?

  @Option(name: .customLong(Setting.mapTiles.flagName), help: Setting.mapTiles.argumentHelp)
  var mapTiles: String?

  @Option(name: .customLong(Setting.mapAttribution.flagName), help: Setting.mapAttribution.argumentHelp)
  var mapAttribution: String?

  @Option(name: .customLong(Setting.upstreamTLSCertificate.flagName), help: Setting.upstreamTLSCertificate.argumentHelp)
  var upstreamTLSCertificate: String?

  @Option(name: .customLong(Setting.upstreamTLSPrivateKey.flagName), help: Setting.upstreamTLSPrivateKey.argumentHelp)
  var upstreamTLSPrivateKey: String?

  @Option(name: .customLong(Setting.connectionLimit.flagName), help: Setting.connectionLimit.argumentHelp)
  var connectionLimit: String?

  @Option(name: .customLong(Setting.slowClientTimeout.flagName), help: Setting.slowClientTimeout.argumentHelp)
  var slowClientTimeout: String?

  @Option(name: .customLong(Setting.callsPerConnection.flagName), help: Setting.callsPerConnection.argumentHelp)
  var callsPerConnection: String?

  @Option(name: .customLong(Setting.idleTimeout.flagName), help: Setting.idleTimeout.argumentHelp)
  var idleTimeout: String?

  @Option(name: .customLong(Setting.upstreamHold.flagName), help: Setting.upstreamHold.argumentHelp)
  var upstreamHold: String?

  var additionalSettings: [AdditionalSetting] {
    [
      Setting.upstream.given(upstream),
      Setting.route.given(route),
      Setting.rateLimit.given(rateLimit),
      Setting.grpcPort.given(grpcPort),
      Setting.httpPort.given(httpPort),
      Setting.corsOrigin.given(corsOrigin),
      Setting.docsFolder.given(docsFolder),
      Setting.webFolder.given(webFolder),
      Setting.webLibraries.given(webLibraries),
      Setting.mapTiles.given(mapTiles),
      Setting.mapAttribution.given(mapAttribution),
      Setting.upstreamTLSCertificate.given(upstreamTLSCertificate),
      Setting.upstreamTLSPrivateKey.given(upstreamTLSPrivateKey),
      Setting.connectionLimit.given(connectionLimit),
      Setting.slowClientTimeout.given(slowClientTimeout),
      Setting.callsPerConnection.given(callsPerConnection),
      Setting.idleTimeout.given(idleTimeout),
      Setting.upstreamHold.given(upstreamHold),
    ]
  }
}
