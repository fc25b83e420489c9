import ArgumentParser
import Foundation
import Testing

@testable import BinarioServiceKit

@Suite("Additional settings: a service's own settings, layered like the common ones")
struct AdditionalSettingTests {
  private func configFile(_ json: String) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("binario-config-\(UUID().uuidString).json").path
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func theFileMayHoldThemAndFlagsBeatTheEnvironmentWhichBeatsTheFile() throws {
    let file = try configFile(
      """
      {"port": 1000, "upstream": {"identity": "10.0.0.1:7101", "echo": "10.0.0.2:7102"}, "route": ["a.v1=echo"], "rateLimit": 5}
      """
    )
    let options = try ServiceOptions.parse(["--config", file])
    var defaults = ServiceConfiguration.defaults(serviceName: "gateway")
    defaults.tlsClientAuthentication = .none
    let (configuration, additional) = try ServiceConfiguration.load(
      defaults: defaults,
      options: options,
      additionalSettings: [
        AdditionalSetting(key: "upstream", flagValues: []),
        AdditionalSetting(key: "route", flagValues: ["b.v1=identity"]),
        AdditionalSetting(key: "rateLimit", flagValue: nil),
      ],
      environment: ["BINARIO_RATE_LIMIT": "7/9", "BINARIO_ROUTE": "c.v1=echo"]
    )
    #expect(configuration.port == 1000)
    #expect(configuration.tlsClientAuthentication == .none)
    #expect(additional.values("upstream") == ["echo=10.0.0.2:7102", "identity=10.0.0.1:7101"])
    #expect(additional.values("route") == ["b.v1=identity"])
    #expect(try additional.value("rateLimit") == "7/9")
    #expect(additional.values("missing") == [])
  }

  @Test func environmentListsAreCommaSeparated() throws {
    let (_, additional) = try ServiceConfiguration.load(
      defaults: .defaults(serviceName: "gateway"),
      options: try ServiceOptions.parse([]),
      additionalSettings: [AdditionalSetting(key: "upstream", flagValues: [])],
      environment: ["BINARIO_UPSTREAM": "identity=a:1, echo=b:2"]
    )
    #expect(additional.values("upstream") == ["identity=a:1", "echo=b:2"])
  }

  @Test func aBadValueNamesTheSettingAndItsSource() throws {
    let (_, additional) = try ServiceConfiguration.load(
      defaults: .defaults(serviceName: "gateway"),
      options: try ServiceOptions.parse([]),
      additionalSettings: [AdditionalSetting(key: "rateLimit", flagValue: "fast")],
      environment: [:]
    )
    struct NotANumber: Error, CustomStringConvertible { var description: String { "not a number" } }
    let error = #expect(throws: ConfigurationError.self) {
      try additional.parsed("rateLimit") { text -> Double in
        guard let value = Double(text) else { throw NotANumber() }
        return value
      }
    }
    #expect(error?.setting == "rateLimit")
    #expect(error?.source == .flag(name: "--rate-limit"))
    #expect(error?.description.contains("not a number") == true)
  }

  @Test func unknownFileKeysAreStillRefused() throws {
    let file = try configFile(#"{"upstreams": "typo"}"#)
    #expect(throws: ConfigurationError.self) {
      try ServiceConfiguration.load(
        defaults: .defaults(serviceName: "gateway"),
        options: try ServiceOptions.parse(["--config", file]),
        additionalSettings: [AdditionalSetting(key: "upstream", flagValues: [])],
        environment: [:]
      )
    }
  }
}
