import ArgumentParser

/// A setting, declared once: its key in the JSON config file (camelCase), from which its flag
/// (`--kebab-case`) and its environment variable (`BINARIO_UPPER_SNAKE`) follow, and its help.
/// Every setting of the suite is one of these: the common ones of ``ServiceConfiguration``
/// (``ConfigurationSetting/setting``), the peers' addresses, and each service's own (in its
/// `Main/<Name>Options.swift`), all read the same way, flag over variable over file over default,
/// by ``ServiceConfiguration/load(defaults:options:additionalSettings:environment:)``.
///
/// A service's options bind each flag to its declaration:
///
/// ```swift
/// extension Setting {
///   static let offerTimeout = Setting("offerTimeout", help: "How long (seconds) a driver has to answer an offer; default 20.", valueName: "seconds")
/// }
/// @Option(name: .customLong(Setting.offerTimeout.flagName), help: Setting.offerTimeout.argumentHelp)
/// var offerTimeout: String?
/// ```
public struct Setting: Sendable, Hashable {
  /// The key in the config file, camelCase: `offerTimeout`.
  public let key: String
  /// What it sets, its unit and its default, for `--help` and the service's README.
  public let help: String
  /// What `--help` calls the flag's value: `seconds`, `file`.
  public let valueName: String

  public init(_ key: String, help: String, valueName: String = "value") {
    self.key = key
    self.help = help
    self.valueName = valueName
  }

  /// `BINARIO_` and the key in UPPER_SNAKE: `BINARIO_OFFER_TIMEOUT`.
  public var environmentVariable: String {
    "BINARIO_" + Self.words(of: self.key).map { $0.uppercased() }.joined(separator: "_")
  }

  /// The flag's name without its dashes, kebab-case: `offer-timeout`.
  public var flagName: String {
    Self.words(of: self.key).map { $0.lowercased() }.joined(separator: "-")
  }

  /// The flag: `--offer-timeout`.
  public var flag: String { "--" + self.flagName }

  /// The flag's `--help` entry: the help, then where else the setting may be given.
  public var argumentHelp: ArgumentHelp {
    ArgumentHelp("\(self.help) (\(self.environmentVariable); \"\(self.key)\" in the config file)", valueName: self.valueName)
  }

  /// The setting with the values its flag was given (none: not given), for
  /// ``ServiceRunner/run(options:serviceName:additionalSettings:environment:transport:services:)``.
  public func given(_ values: [String]) -> AdditionalSetting {
    AdditionalSetting(self, flagValues: values)
  }

  /// The setting with its flag's value, if given.
  public func given(_ value: String?) -> AdditionalSetting {
    AdditionalSetting(self, flagValues: value.map { [$0] } ?? [])
  }

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
}
