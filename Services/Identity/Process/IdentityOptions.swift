import ArgumentParser
import BinarioServiceKit
import Foundation
import IdentityService

/// Identity's own settings, beside ServiceKit's common ones, each declared once: a flag, a
/// `BINARIO_*` variable or a key of the config file (flags win, then variables, then the file).
extension Setting {
  static let adminEmail = Setting(
    "adminEmail",
    help: "At first start, the first admin's address.",
    valueName: "email"
  )

  static let adminPassword = Setting(
    "adminPassword",
    help: "At first start, the first admin's password. (BINARIO_ADMIN_PASSWORD; prefer the variable: flags show in ps)",
    valueName: "password"
  )

  static let accessTokenLifetime = Setting(
    "accessTokenLifetime",
    help: "Seconds an access token is valid; default 300.",
    valueName: "seconds"
  )

  static let passwordHashCost = Setting(
    "passwordHashCost",
    help: "log2 of scrypt's N (r=8, p=1); default 15 (~100 ms per hash).",
    valueName: "10...20"
  )

  static let passwordResetLink = Setting(
    "passwordResetLink",
    help: "The page a password reset email links to; ?token=... is appended.",
    valueName: "url"
  )

  static let googleClientID = Setting(
    "googleClientID",
    help: "Enables sign-in with Google: the OAuth client id ID tokens must be issued for.",
    valueName: "id"
  )

  static let googleIssuer = Setting(
    "googleIssuer",
    help: "The accepted `iss`; default Google's (https://accounts.google.com).",
    valueName: "issuer"
  )

  static let googleKeysURL = Setting(
    "googleKeysURL",
    help: "Where the provider publishes its keys (JWKS); default https://www.googleapis.com/oauth2/v3/certs.",
    valueName: "url"
  )

  static let googleKeysFile = Setting(
    "googleKeysFile",
    help: "The provider's keys (JWKS) from a file instead of the URL.",
    valueName: "path"
  )
}

/// The flags of the settings above; ``given`` pairs each with its value.
struct IdentityOptions: ParsableArguments {
  @Option(name: .customLong(Setting.adminEmail.flagName), help: Setting.adminEmail.argumentHelp)
  var adminEmail: String?

  @Option(name: .customLong(Setting.adminPassword.flagName), help: Setting.adminPassword.argumentHelp)
  var adminPassword: String?

  @Option(name: .customLong(Setting.accessTokenLifetime.flagName), help: Setting.accessTokenLifetime.argumentHelp)
  var accessTokenLifetime: String?

  @Option(name: .customLong(Setting.passwordHashCost.flagName), help: Setting.passwordHashCost.argumentHelp)
  var passwordHashCost: String?

  @Option(name: .customLong(Setting.passwordResetLink.flagName), help: Setting.passwordResetLink.argumentHelp)
  var passwordResetLink: String?

  @Option(name: .customLong(Setting.googleClientID.flagName), help: Setting.googleClientID.argumentHelp)
  var googleClientID: String?

  @Option(name: .customLong(Setting.googleIssuer.flagName), help: Setting.googleIssuer.argumentHelp)
  var googleIssuer: String?

  @Option(name: .customLong(Setting.googleKeysURL.flagName), help: Setting.googleKeysURL.argumentHelp)
  var googleKeysURL: String?

  @Option(name: .customLong(Setting.googleKeysFile.flagName), help: Setting.googleKeysFile.argumentHelp)
  var googleKeysFile: String?

  /// Each setting with what its flag was given.
  var given: [AdditionalSetting] {
    [
      Setting.adminEmail.given(adminEmail),
      Setting.adminPassword.given(adminPassword),
      Setting.accessTokenLifetime.given(accessTokenLifetime),
      Setting.passwordHashCost.given(passwordHashCost),
      Setting.passwordResetLink.given(passwordResetLink),
      Setting.googleClientID.given(googleClientID),
      Setting.googleIssuer.given(googleIssuer),
      Setting.googleKeysURL.given(googleKeysURL),
      Setting.googleKeysFile.given(googleKeysFile),
    ]
  }

  /// Google sign-in, if a client id is set.
  static func googleSignIn(_ values: AdditionalSettingValues) throws -> OpenIDProviderConfiguration? {
    let issuer = try values.value(.googleIssuer) { $0 }
    let keysURL = try values.value(.googleKeysURL) { text in
      guard URL(string: text)?.scheme.map({ ["http", "https"].contains($0) }) == true else { throw Refusal("expected an http(s) URL, got \(text)") }
      return text
    }
    let keysFile = try values.value(.googleKeysFile) { $0 }
    guard let clientID = try values.value(.googleClientID, { $0 }) else {
      if issuer != nil || keysURL != nil || keysFile != nil {
        throw ConfigurationError(
          setting: Setting.googleClientID.key,
          source: .defaults,
          reason: "the google settings need \(Setting.googleClientID.flag) (\(Setting.googleClientID.environmentVariable)) to enable Google sign-in"
        )
      }
      return nil
    }
    if keysURL != nil && keysFile != nil {
      throw ConfigurationError(
        setting: Setting.googleKeysFile.key,
        source: values.source(of: .googleKeysFile),
        reason: "set \(Setting.googleKeysURL.flag) or \(Setting.googleKeysFile.flag), not both"
      )
    }
    let keys: OpenIDProviderConfiguration.KeySource =
      keysFile.map { .file($0) } ?? .url(keysURL ?? "https://www.googleapis.com/oauth2/v3/certs")
    return .google(clientID: clientID, issuer: issuer, keys: keys)
  }

  /// The first admin, if both address and password are set.
  static func admin(_ values: AdditionalSettingValues) throws -> (email: String, password: String)? {
    switch (try values.value(.adminEmail, { $0 }), try values.value(.adminPassword, { $0 })) {
    case (nil, nil): return nil
    case (let email?, let password?): return (email, password)
    default:
      throw ConfigurationError(
        setting: Setting.adminPassword.key,
        source: values.source(of: .adminEmail),
        reason: "set both \(Setting.adminEmail.flag) and \(Setting.adminPassword.flag) (or their variables), or neither"
      )
    }
  }

  /// The domain's policy with these settings applied.
  static func policy(_ values: AdditionalSettingValues) throws -> IdentityPolicy {
    var policy = IdentityPolicy()
    if let seconds = try values.number(.accessTokenLifetime, in: 10 ... 86_400) { policy.accessTokenLifetime = seconds }
    if let cost = try values.integer(.passwordHashCost, in: 10 ... 20) {
      policy.scrypt = ScryptParameters(rounds: 1 << cost, blockSize: 8, parallelism: 1)
    }
    if let link = try values.value(
      .passwordResetLink,
      { link in
        guard let url = URL(string: link), url.scheme == "https" || url.scheme == "http", url.host != nil else {
          throw Refusal("expected an http(s) URL, got \(link)")
        }
        return link
      }
    ) {
      policy.passwordResetLink = link
    }
    return policy
  }
}
