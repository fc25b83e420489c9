import ArgumentParser
import Foundation
import IdentityService

/// Identity's own settings, beside ServiceKit's common ones. Each is a flag, or else a
/// `BINARIO_*` environment variable (flags win). They are not config-file keys: ServiceKit's file
/// accepts only the common settings.
struct IdentityOptions: ParsableArguments {
  @Option(
    name: .customLong("admin-email"),
    help: ArgumentHelp("At first start, the first admin's address. (BINARIO_ADMIN_EMAIL)", valueName: "email")
  )
  var adminEmail: String?

  @Option(
    name: .customLong("admin-password"),
    help: ArgumentHelp(
      "At first start, the first admin's password. (BINARIO_ADMIN_PASSWORD; prefer the variable: flags show in ps)",
      valueName: "password"
    )
  )
  var adminPassword: String?

  @Option(
    name: .customLong("access-token-lifetime"),
    help: ArgumentHelp("Seconds an access token is valid; default 300. (BINARIO_ACCESS_TOKEN_LIFETIME)", valueName: "seconds")
  )
  var accessTokenLifetime: String?

  @Option(
    name: .customLong("password-hash-cost"),
    help: ArgumentHelp(
      "log2 of scrypt's N (r=8, p=1); default 15 (~100 ms per hash). (BINARIO_PASSWORD_HASH_COST)",
      valueName: "10...20"
    )
  )
  var passwordHashCost: String?

  @Option(
    name: .customLong("password-reset-link"),
    help: ArgumentHelp(
      "The page a password reset email links to; ?token=... is appended. (BINARIO_PASSWORD_RESET_LINK)",
      valueName: "url"
    )
  )
  var passwordResetLink: String?

  @Option(
    name: .customLong("google-client-id"),
    help: ArgumentHelp(
      "Enables sign-in with Google: the OAuth client id ID tokens must be issued for. (BINARIO_GOOGLE_CLIENT_ID)",
      valueName: "id"
    )
  )
  var googleClientID: String?

  @Option(
    name: .customLong("google-issuer"),
    help: ArgumentHelp(
      "The accepted `iss`; default Google's (https://accounts.google.com). (BINARIO_GOOGLE_ISSUER)",
      valueName: "issuer"
    )
  )
  var googleIssuer: String?

  @Option(
    name: .customLong("google-keys-url"),
    help: ArgumentHelp(
      "Where the provider publishes its keys (JWKS); default https://www.googleapis.com/oauth2/v3/certs. (BINARIO_GOOGLE_KEYS_URL)",
      valueName: "url"
    )
  )
  var googleKeysURL: String?

  @Option(
    name: .customLong("google-keys-file"),
    help: ArgumentHelp("The provider's keys (JWKS) from a file instead of the URL. (BINARIO_GOOGLE_KEYS_FILE)", valueName: "path")
  )
  var googleKeysFile: String?

  /// Google sign-in, if a client id is set.
  func googleSignIn(environment: [String: String]) throws -> OpenIDProviderConfiguration? {
    let issuer = googleIssuer ?? environment["BINARIO_GOOGLE_ISSUER"]
    let keysURL = googleKeysURL ?? environment["BINARIO_GOOGLE_KEYS_URL"]
    let keysFile = googleKeysFile ?? environment["BINARIO_GOOGLE_KEYS_FILE"]
    guard let clientID = googleClientID ?? environment["BINARIO_GOOGLE_CLIENT_ID"], !clientID.isEmpty else {
      if issuer != nil || keysURL != nil || keysFile != nil {
        throw ValidationError("the google-* settings need --google-client-id (BINARIO_GOOGLE_CLIENT_ID) to enable Google sign-in")
      }
      return nil
    }
    if keysURL != nil && keysFile != nil {
      throw ValidationError("set --google-keys-url or --google-keys-file, not both")
    }
    if let keysURL, URL(string: keysURL)?.scheme.map({ ["http", "https"].contains($0) }) != true {
      throw ValidationError("google-keys-url must be an http(s) URL, not \(keysURL)")
    }
    let keys: OpenIDProviderConfiguration.KeySource =
      keysFile.map { .file($0) } ?? .url(keysURL ?? "https://www.googleapis.com/oauth2/v3/certs")
    return .google(clientID: clientID, issuer: issuer, keys: keys)
  }

  /// The first admin, if both address and password are set.
  func admin(environment: [String: String]) throws -> (email: String, password: String)? {
    let email = adminEmail ?? environment["BINARIO_ADMIN_EMAIL"]
    let password = adminPassword ?? environment["BINARIO_ADMIN_PASSWORD"]
    switch (email, password) {
    case (nil, nil): return nil
    case (let email?, let password?): return (email, password)
    default: throw ValidationError("set both --admin-email and --admin-password (or BINARIO_ADMIN_EMAIL and BINARIO_ADMIN_PASSWORD), or neither")
    }
  }

  /// The domain's policy with these settings applied.
  func policy(environment: [String: String]) throws -> IdentityPolicy {
    var policy = IdentityPolicy()
    if let text = accessTokenLifetime ?? environment["BINARIO_ACCESS_TOKEN_LIFETIME"] {
      guard let seconds = Double(text), (10 ... 86_400).contains(seconds) else {
        throw ValidationError("access-token-lifetime must be seconds between 10 and 86400, not \(text)")
      }
      policy.accessTokenLifetime = seconds
    }
    if let text = passwordHashCost ?? environment["BINARIO_PASSWORD_HASH_COST"] {
      guard let cost = Int(text), (10 ... 20).contains(cost) else {
        throw ValidationError("password-hash-cost must be a whole number from 10 to 20, not \(text)")
      }
      policy.scrypt = ScryptParameters(rounds: 1 << cost, blockSize: 8, parallelism: 1)
    }
    if let link = passwordResetLink ?? environment["BINARIO_PASSWORD_RESET_LINK"] {
      guard let url = URL(string: link), url.scheme == "https" || url.scheme == "http", url.host != nil else {
        throw ValidationError("password-reset-link must be an http(s) URL, not \(link)")
      }
      policy.passwordResetLink = link
    }
    return policy
  }
}
