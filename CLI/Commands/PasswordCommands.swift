import ArgumentParser
import BinarioProto

/// `binario password forgot|reset`: getting back in without the password.
struct PasswordResetCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "password",
    abstract: "Reset a forgotten password (change a known one with 'binario change-password').",
    subcommands: [Forgot.self, Reset.self]
  )

  struct Forgot: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Email a single-use link that sets a new password.",
      discussion: "The answer is the same whether or not the address has an account."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option var email: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.identity.requestPasswordReset(.with { $0.email = self.email })
      print("if \(self.email) has an account, a reset link is on its way")
    }
  }

  struct Reset: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Set a new password with the token from the reset link; every session of the account ends.",
      discussion: "The new password is read like any other (terminal, BINARIO_NEW_PASSWORD, or --password-stdin)."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var password: PasswordOptions
    @Option(help: "The token from the reset link (after ?token=).") var token: String

    func call(_ gateway: GatewayConnection) async throws {
      let newPassword = try self.password.read(prompt: "New password: ", environmentVariable: "BINARIO_NEW_PASSWORD")
      _ = try await gateway.identity.resetPassword(
        .with {
          $0.token = self.token
          $0.newPassword = newPassword
        }
      )
      try? gateway.sessionFile.delete()
      print("password set; every session of the account has ended, so sign in again")
    }
  }
}

/// `binario phone verify|resend`.
struct PhoneCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "phone",
    abstract: "Verify your phone with the code sent to it by SMS.",
    subcommands: [Verify.self, Resend.self]
  )

  struct Verify: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Enter the 6-digit code texted to your phone.",
      discussion: """
        In development, --from-outbox reads the newest code texted to your phone from identity's \
        outbox, using the admin session the local suite keeps in .dev/admin-session.json.
        """
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option var code: String?
    @Flag(help: "Development only: read the code from the outbox.") var fromOutbox = false
    @Option(help: "The admin session used by --from-outbox.") var adminSession = ".dev/admin-session.json"

    func validate() throws {
      if (self.code == nil) == !self.fromOutbox { throw ValidationError("give either --code or --from-outbox") }
    }

    func call(_ gateway: GatewayConnection) async throws {
      var code = self.code ?? ""
      if self.fromOutbox {
        let phone = try await gateway.identity.getMe(.init()).profile.phone
        guard !phone.isEmpty else { throw CLIError("your account has no phone; add one with binario me --phone") }
        let admin = gateway.with(sessionFile: SessionFile(path: self.adminSession))
        let outbox = try await gateway.identity.listOutboxMessages(
          .with {
            $0.recipient = phone
            $0.limit = 20
          },
          metadata: try await admin.signedIn()
        )
        guard let found = outbox.messages.lazy.compactMap({ ConfirmationCode.find(in: $0.body) }).first else {
          throw CLIError("no code for \(phone) in the outbox")
        }
        code = found
      }
      let response = try await gateway.identity.verifyPhone(
        .with { $0.code = code }
      )
      print("\(response.profile.phone) is verified")
    }
  }

  struct Resend: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Text a new code to your phone (at most one a minute).")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.identity.resendPhoneCode(.init())
      print("a new code is on its way by SMS")
    }
  }
}
