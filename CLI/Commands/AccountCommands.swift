import ArgumentParser
import BinarioProto
import Foundation
import GRPCCore

struct RegisterCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "register",
    abstract: "Create an account; a confirmation code is sent to the email address.",
    discussion: """
      Only --email, --first-name and the password (10+ characters with a letter and a digit) are \
      required. A phone gets its own code by SMS: verify it with 'binario phone verify'.
      """
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @OptionGroup var password: PasswordOptions
  @Option var email: String
  @Option(help: "The name shown to others.") var firstName: String
  @Option var lastName: String = ""
  @Option(help: "E.164, e.g. +393331234567") var phone: String = ""
  @Option(help: "YYYY-MM-DD") var birthDate: String = ""
  @Option(help: "female, male, other or prefer-not-to-say") var gender: String?

  func validate() throws {
    if let gender, Binario_Identity_V1_Gender(displayName: gender) == nil {
      throw ValidationError("--gender is female, male, other or prefer-not-to-say")
    }
  }

  func call(_ gateway: GatewayConnection) async throws {
    let request = try Binario_Identity_V1_RegisterRequest.with {
      $0.email = self.email
      $0.password = try self.password.read()
      $0.firstName = self.firstName
      $0.lastName = self.lastName
      $0.phone = self.phone
      $0.birthDate = self.birthDate
      $0.gender = self.gender.flatMap(Binario_Identity_V1_Gender.init(displayName:)) ?? .unspecified
    }
    let response = try await gateway.identity.register(request)
    var sent = "a confirmation code is on its way by email"
    if !self.phone.isEmpty { sent += ", and a phone code by SMS" }
    print("registered \(self.email) (user id \(response.userID)); \(sent)")
  }
}

struct ConfirmCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "confirm",
    abstract: "Confirm an email address with the code sent to it.",
    discussion: """
      In development, --from-outbox reads the newest code sent to the address from identity's \
      outbox, using the admin session the local suite keeps in .dev/admin-session.json.
      """
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @Option var email: String
  @Option(help: "The 6-digit code from the email.") var code: String?
  @Flag(help: "Development only: read the code from the outbox.") var fromOutbox = false
  @Option(help: "The admin session used by --from-outbox.") var adminSession = ".dev/admin-session.json"

  func validate() throws {
    if (self.code == nil) == !self.fromOutbox {
      throw ValidationError("give either --code or --from-outbox")
    }
  }

  func call(_ gateway: GatewayConnection) async throws {
    var code = self.code ?? ""
    if self.fromOutbox {
      let admin = gateway.with(sessionFile: SessionFile(path: self.adminSession))
      let outbox = try await gateway.identity.listOutboxMessages(
        .with {
          $0.recipient = self.email
          $0.limit = 20
        },
        metadata: try await admin.signedIn()
      )
      guard let found = outbox.messages.lazy.filter({ $0.channel == .email }).compactMap({ ConfirmationCode.find(in: $0.body) }).first else {
        throw CLIError("no confirmation code for \(self.email) in the outbox")
      }
      code = found
    }
    _ = try await gateway.identity.confirmEmail(
      .with {
        $0.email = self.email
        $0.code = code
      }
    )
    print("\(self.email) is confirmed")
  }
}

/// Finds the confirmation code (six digits on their own) in an email's text.
enum ConfirmationCode {
  static func find(in text: String) -> String? {
    let words = text.split(whereSeparator: { !$0.isNumber })
    return words.first(where: { $0.count == 6 }).map(String.init)
  }
}

struct ResendConfirmationCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "resend-confirmation",
    abstract: "Send a new confirmation code."
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @Option var email: String

  func call(_ gateway: GatewayConnection) async throws {
    _ = try await gateway.identity.resendConfirmation(.with { $0.email = self.email })
    print("if \(self.email) has an unconfirmed account, a new code is on its way")
  }
}

struct LoginCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "login",
    abstract: "Sign in; the session's tokens are kept in the session file (readable by you only).",
    discussion: """
      With --email, signs in with the password. With --google-id-token, signs in with an ID token \
      from Google's sign-in (the account with that verified address, created on first use).
      """
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @OptionGroup var password: PasswordOptions
  @Option var email: String?
  @Option(help: "An ID token (JWT) from Google's sign-in.") var googleIdToken: String?

  func validate() throws {
    if (self.email == nil) == (self.googleIdToken == nil) {
      throw ValidationError("give either --email (with a password) or --google-id-token")
    }
  }

  func call(_ gateway: GatewayConnection) async throws {
    let tokens: Binario_Identity_V1_TokenPair
    var note = ""
    if let googleIdToken {
      let response = try await gateway.identity.loginWithGoogle(.with { $0.idToken = googleIdToken })
      tokens = response.tokens
      if response.created { note = "; your account was created" }
    } else {
      let request = try Binario_Identity_V1_LoginRequest.with {
        $0.email = self.email ?? ""
        $0.password = try self.password.read()
      }
      tokens = try await gateway.identity.login(request).tokens
    }
    let email = try await gateway.identity.getMe(.init(), metadata: bearer(tokens.accessToken)).profile.email
    try gateway.sessionFile.save(StoredSession(tokens: tokens, email: email))
    let roles = tokens.roles.map(\.displayName).joined(separator: ", ")
    print("signed in as \(email) (\(roles))\(note); session kept in \(gateway.sessionFile.path)")
  }
}

struct RefreshCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "refresh",
    abstract: "Trade the session's refresh token for new tokens (done automatically when needed)."
  )
  @OptionGroup var gateway: GatewayConnectionOptions

  func call(_ gateway: GatewayConnection) async throws {
    guard let session = try gateway.sessionFile.load() else { throw CLIError("not signed in") }
    let renewed = try await gateway.refresh(session)
    print("new access token valid until \(renewed.accessTokenExpiresAt.formatted(.iso8601))")
  }
}

struct LogoutCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(commandName: "logout", abstract: "End the session.")
  @OptionGroup var gateway: GatewayConnectionOptions
  @Flag(help: "Only forget the session here, without telling the platform.") var local = false

  func call(_ gateway: GatewayConnection) async throws {
    if !self.local {
      _ = try await gateway.identity.logout(.init())
    }
    try gateway.sessionFile.delete()
    print("signed out")
  }
}

struct MeCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "me",
    abstract: "Show your profile, or change it with the options below."
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @Option var firstName: String?
  @Option var lastName: String?
  @Option var phone: String?
  @Option var birthDate: String?
  @Option var gender: String?

  func call(_ gateway: GatewayConnection) async throws {
    let changes = [self.firstName, self.lastName, self.phone, self.birthDate, self.gender].contains { $0 != nil }
    if changes {
      var request = Binario_Identity_V1_UpdateMeRequest()
      if let firstName { request.firstName = firstName }
      if let lastName { request.lastName = lastName }
      if let phone { request.phone = phone }
      if let birthDate { request.birthDate = birthDate }
      if let gender { request.gender = Binario_Identity_V1_Gender(displayName: gender) ?? .unspecified }
      Print.profile(try await gateway.identity.updateMe(request).profile)
    } else {
      Print.profile(try await gateway.identity.getMe(.init()).profile)
    }
  }
}

struct PasswordCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "change-password",
    abstract: "Change your password (your other sessions end)."
  )
  @OptionGroup var gateway: GatewayConnectionOptions

  func call(_ gateway: GatewayConnection) async throws {
    let current = try readSecret(prompt: "Current password: ", environmentVariable: "BINARIO_PASSWORD")
    let new = try readSecret(prompt: "New password: ", environmentVariable: "BINARIO_NEW_PASSWORD")
    _ = try await gateway.identity.changePassword(
      .with {
        $0.currentPassword = current
        $0.newPassword = new
      }
    )
    print("password changed; your other sessions have ended")
  }
}

struct EmailCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "change-email",
    abstract: "Change your email address; it takes effect once you confirm the new one."
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @OptionGroup var password: PasswordOptions
  @Option var newEmail: String

  func call(_ gateway: GatewayConnection) async throws {
    let password = try self.password.read()
    _ = try await gateway.identity.changeEmail(
      .with {
        $0.password = password
        $0.newEmail = self.newEmail
      }
    )
    print("a confirmation code is on its way to \(self.newEmail); confirm with 'binario confirm --email \(self.newEmail)'")
  }
}

struct DeleteAccountCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete-account",
    abstract: "Delete your account and its personal data."
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @OptionGroup var password: PasswordOptions

  func call(_ gateway: GatewayConnection) async throws {
    let password = try self.password.read()
    _ = try await gateway.identity.deleteMe(.with { $0.password = password })
    try gateway.sessionFile.delete()
    print("your account and its personal data are deleted")
  }
}

struct KeysCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "keys",
    abstract: "List the public keys that verify access tokens."
  )
  @OptionGroup var gateway: GatewayConnectionOptions

  func call(_ gateway: GatewayConnection) async throws {
    let response = try await gateway.identity.getSigningKeys(.init())
    for key in response.keys {
      print("\(key.keyID)  \(key.algorithm)  \(key.publicKey.base64EncodedString())  since \(Print.date(key.createdAt))")
    }
  }
}
