import BinarioServiceKit
import GatewayService
import Testing

@Suite("Gateway settings: safe defaults for the front doors and rate limits")
struct GatewaySettingsTests {
  private func settings(_ values: [String: String?]) throws -> GatewaySettings {
    var defaults = ServiceConfiguration.defaults(serviceName: "gateway")
    defaults.tlsCertificate = "/certs/gateway.pem"
    defaults.tlsPrivateKey = "/certs/gateway.key"
    defaults.tlsTrustedCA = "/certs/ca.pem"
    let (configuration, additional) = try ServiceConfiguration.load(
      defaults: defaults,
      options: try ServiceOptions.parse([]),
      additionalSettings: [
        AdditionalSetting(key: GatewaySettings.Key.upstream, flagValues: ["identity=127.0.0.1:7101"]),
        AdditionalSetting(key: GatewaySettings.Key.rateLimit, flagValue: values["rateLimit"] ?? nil),
        AdditionalSetting(key: GatewaySettings.Key.grpcPort, flagValue: values["grpcPort"] ?? nil),
        AdditionalSetting(key: GatewaySettings.Key.httpPort, flagValue: values["httpPort"] ?? nil),
        AdditionalSetting(key: GatewaySettings.Key.corsOrigin, flagValues: (values["corsOrigin"] ?? nil).map { [$0] } ?? []),
        AdditionalSetting(key: GatewaySettings.Key.connectionLimit, flagValue: values["connectionLimit"] ?? nil),
        AdditionalSetting(key: GatewaySettings.Key.slowClientTimeout, flagValue: values["slowClientTimeout"] ?? nil),
        AdditionalSetting(key: GatewaySettings.Key.callsPerConnection, flagValue: values["callsPerConnection"] ?? nil),
        AdditionalSetting(key: GatewaySettings.Key.idleTimeout, flagValue: values["idleTimeout"] ?? nil),
      ],
      environment: [:]
    )
    return try GatewaySettings(from: configuration, additional: additional)
  }

  @Test func rateLimitsAndEveryFrontDoorAreOnByDefault() throws {
    let defaults = try self.settings([:])
    #expect(defaults.gateway.rateLimit == RateLimit.default)
    #expect(defaults.grpcPort == GatewaySettings.defaultGRPCPort)
    #expect(defaults.httpPort == GatewaySettings.defaultHTTPPort)
    #expect(defaults.corsOrigins.isEmpty)
    #expect(defaults.frontDoorLimits == .defaults)
  }

  @Test func frontDoorLimitsCanBeSet() throws {
    let set = try self.settings(["connectionLimit": "8/100", "slowClientTimeout": "0.5", "callsPerConnection": "20", "idleTimeout": "60"])
    #expect(set.frontDoorLimits.connections == .init(perClient: 8, total: 100))
    #expect(set.frontDoorLimits.slowClientTimeout == .milliseconds(500))
    #expect(set.frontDoorLimits.callsPerConnection == 20 && set.frontDoorLimits.idleTimeout == .seconds(60))
    let perClientOnly = try self.settings(["connectionLimit": "8"])
    #expect(perClientOnly.frontDoorLimits.connections == .init(perClient: 8, total: 16_384))
    for (key, value) in [("connectionLimit", "8/4"), ("connectionLimit", "0"), ("slowClientTimeout", "0"), ("callsPerConnection", "none")] {
      let error = #expect(throws: ConfigurationError.self) { try self.settings([key: value]) }
      #expect(error?.setting == key)
    }
  }

  @Test func eachCanBeTurnedOffOrSet() throws {
    let off = try self.settings(["rateLimit": "off", "grpcPort": "off", "httpPort": "OFF"])
    #expect(off.gateway.rateLimit == nil && off.grpcPort == nil && off.httpPort == nil)
    let set = try self.settings(["rateLimit": "5/10", "grpcPort": "0", "httpPort": "8443", "corsOrigin": "https://app.example.com"])
    #expect(set.gateway.rateLimit == RateLimit(ratePerSecond: 5, burst: 10))
    #expect(set.grpcPort == 0 && set.httpPort == 8443 && set.corsOrigins == ["https://app.example.com"])
  }

  @Test func badValuesNameTheSetting() throws {
    let port = #expect(throws: ConfigurationError.self) { try self.settings(["httpPort": "70000"]) }
    #expect(port?.setting == GatewaySettings.Key.httpPort)
    let origin = #expect(throws: ConfigurationError.self) { try self.settings(["corsOrigin": "app.example.com/"]) }
    #expect(origin?.setting == GatewaySettings.Key.corsOrigin)
  }
}
