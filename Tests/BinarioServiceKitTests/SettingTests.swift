import ArgumentParser
import Foundation
import Testing

@testable import BinarioServiceKit

@Suite("Settings declared once: flag, variable and config-file key from one declaration")
struct SettingTests {
  static let offerTimeout = Setting("offerTimeout", help: "How long a driver has to answer.", valueName: "seconds")
  static let zone = Setting("dispatchZone", help: "The time zone.", valueName: "zone")
  static let emails = Setting("alertEmails", help: "Who is alerted.", valueName: "emails")
  static let tariff = Setting("tariff", help: "Fares.", valueName: "file")

  @Test("the flag and the variable follow from the key")
  func names() {
    #expect(Self.offerTimeout.flag == "--offer-timeout")
    #expect(Self.offerTimeout.environmentVariable == "BINARIO_OFFER_TIMEOUT")
    #expect(Setting("tlsTrustedCA", help: "").environmentVariable == "BINARIO_TLS_TRUSTED_CA")
    #expect(Setting("tlsTrustedCA", help: "").flag == "--tls-trusted-ca")
    #expect(ConfigurationSetting.keepaliveTimeout.flag == "--keepalive-timeout")
    let help = Self.offerTimeout.argumentHelp.abstract
    #expect(help.contains("BINARIO_OFFER_TIMEOUT") && help.contains("\"offerTimeout\" in the config file"))
  }

  private func load(file json: String?, environment: [String: String], flags: [Setting: String]) throws -> AdditionalSettingValues {
    var arguments: [String] = []
    if let json {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("binario-setting-\(UUID().uuidString).json").path
      try json.write(toFile: path, atomically: true, encoding: .utf8)
      arguments = ["--config", path]
    }
    let settings = [Self.offerTimeout, Self.zone, Self.emails, Self.tariff]
    return try ServiceConfiguration.load(
      defaults: .defaults(serviceName: "dispatch"),
      options: try ServiceOptions.parse(arguments),
      additionalSettings: settings.map { $0.given(flags[$0]) },
      environment: environment
    ).additional
  }

  @Test("a service's own settings come from the config file too; variables beat it, flags beat both")
  func layers() throws {
    let file = #"{"offerTimeout": 30, "dispatchZone": "Europe/London", "alertEmails": ["a@example.com", "b@example.com"]}"#
    let fromFile = try load(file: file, environment: [:], flags: [:])
    #expect(try fromFile.number(Self.offerTimeout, in: 1 ... 600) == 30)
    #expect(try fromFile.timeZone(Self.zone).identifier == "Europe/London")
    #expect(fromFile.list(Self.emails) == ["a@example.com", "b@example.com"])
    let fromEnvironment = try load(file: file, environment: ["BINARIO_OFFER_TIMEOUT": "45"], flags: [:])
    #expect(try fromEnvironment.number(Self.offerTimeout, in: 1 ... 600) == 45)
    let fromFlag = try load(file: file, environment: ["BINARIO_OFFER_TIMEOUT": "45"], flags: [Self.offerTimeout: "60"])
    #expect(try fromFlag.number(Self.offerTimeout, in: 1 ... 600) == 60)
    let unset = try load(file: nil, environment: [:], flags: [:])
    #expect(try unset.number(Self.offerTimeout, in: 1 ... 600) == nil)
    #expect(try unset.timeZone(Self.zone).identifier == "Europe/Rome")
  }

  @Test("each refusal names the setting and where its value came from")
  func refusals() throws {
    let outOfRange = try load(file: nil, environment: [:], flags: [Self.offerTimeout: "9000"])
    #expect(throws: ConfigurationError(setting: "offerTimeout", source: .flag(name: "--offer-timeout"), reason: "expected 1 to 600, got 9000")) {
      try outOfRange.number(Self.offerTimeout, in: 1 ... 600)
    }
    let notANumber = try load(file: #"{"offerTimeout": "soon"}"#, environment: [:], flags: [:])
    #expect {
      try notANumber.integer(Self.offerTimeout, in: 1 ... 600)
    } throws: { error in
      guard let error = error as? ConfigurationError, case .file(_, let key) = error.source else { return false }
      return error.setting == "offerTimeout" && key == "offerTimeout" && error.reason == "expected a number, got soon"
    }
    let badZone = try load(file: nil, environment: ["BINARIO_DISPATCH_ZONE": "Mars/Olympus"], flags: [:])
    #expect(throws: ConfigurationError.self) { try badZone.timeZone(Self.zone) }
    let missingFile = try load(file: nil, environment: [:], flags: [Self.tariff: "/nonexistent/tariff.json"])
    #expect(
      throws: ConfigurationError(setting: "tariff", source: .flag(name: "--tariff"), reason: "/nonexistent/tariff.json cannot be read")
    ) {
      try missingFile.file(Self.tariff)
    }
  }
}
