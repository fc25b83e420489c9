import ArgumentParser
import Foundation
import IdentityService

/// Identity's own settings, beside ServiceKit's common ones. Each is a flag, or else a
/// `BINARIO_*` environment variable (flags win). They are not config-file keys: ServiceKit's file
/// accepts only the common settings.
struct IdentityOptions: ParsableArguments {
  @Option(
    name: .customLong("admin-email"),
    help: ArgumentHelp("At first start, the first admin's address. (BINARIO_ADMIN_EMAIL)", valueName: "email"))
  var adminEmail: String?

  @Option(
    name: .customLong("admin-password"),
    help: ArgumentHelp(
      "At first start, the first admin's password. (BINARIO_ADMIN_PASSWORD; prefer the variable: flags show in ps)",
      valueName: "password"))
  var adminPassword: String?

  @Option(
    name: .customLong("access-token-lifetime"),
    help: ArgumentHelp("Seconds an access token is valid; default 300. (BINARIO_ACCESS_TOKEN_LIFETIME)", valueName: "seconds"))
  var accessTokenLifetime: String?

  @Option(
    name: .customLong("password-hash-cost"),
    help: ArgumentHelp(
      "log2 of scrypt's N (r=8, p=1); default 15 (~100 ms per hash). (BINARIO_PASSWORD_HASH_COST)", valueName: "10...20"))
  var passwordHashCost: String?

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
      guard let seconds = Double(text), (10...86_400).contains(seconds) else {
        throw ValidationError("access-token-lifetime must be seconds between 10 and 86400, not \(text)")
      }
      policy.accessTokenLifetime = seconds
    }
    if let text = passwordHashCost ?? environment["BINARIO_PASSWORD_HASH_COST"] {
      guard let cost = Int(text), (10...20).contains(cost) else {
        throw ValidationError("password-hash-cost must be a whole number from 10 to 20, not \(text)")
      }
      policy.scrypt = ScryptParameters(rounds: 1 << cost, blockSize: 8, parallelism: 1)
    }
    return policy
  }
}
