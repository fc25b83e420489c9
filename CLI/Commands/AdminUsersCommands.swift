import ArgumentParser
import BinarioProto

/// Names one account by `--email` or `--user-id`.
struct AccountSelection: ParsableArguments {
  @Option(help: "The account's email address.") var email: String?
  @Option(name: .customLong("user-id"), help: "The account's user id.") var userID: String?

  func validate() throws {
    if (self.email == nil) == (self.userID == nil) {
      throw ValidationError("name the account with --email or --user-id")
    }
  }

  var selector: Binario_Identity_V1_AccountSelector {
    .with {
      if let userID { $0.userID = userID } else if let email { $0.email = email }
    }
  }
}

/// `binario admin users list|show|update|disable|enable|delete|audit`.
struct AdminUsersCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "users",
    abstract: "Accounts: find, read, edit, disable and enable them, delete drivers, read the audit log.",
    subcommands: [List.self, Show.self, Update.self, Disable.self, Enable.self, Delete.self, Audit.self]
  )

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "List accounts by email, a page at a time.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "Part of the email, first or last name.") var query: String = ""
    @Option(help: "passenger, driver, admin or inspector") var role: String?
    @Option var pageSize: UInt32 = 50
    @Option(help: "The token printed after the previous page.") var pageToken: String = ""

    func call(_ gateway: GatewayConnection) async throws {
      var role = Binario_Identity_V1_Role.unspecified
      if let name = self.role {
        guard let parsed = Binario_Identity_V1_Role(displayName: name) else {
          throw ValidationError("--role is passenger, driver, admin or inspector")
        }
        role = parsed
      }
      let response = try await gateway.identity.listAccounts(
        .with {
          $0.query = self.query
          $0.role = role
          $0.pageSize = self.pageSize
          $0.pageToken = self.pageToken
        }
      )
      if response.accounts.isEmpty { print("no accounts match") }
      for account in response.accounts {
        let roles = account.roles.map(\.displayName).joined(separator: ",")
        print(
          "\(account.email)  \(Print.name(account.firstName, account.lastName))  [\(roles)]\(account.disabled ? "  DISABLED" : "")  \(account.userID)"
        )
      }
      if !response.nextPageToken.isEmpty { print("more: --page-token \(response.nextPageToken)") }
    }
  }

  struct Show: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Show one account.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var account: AccountSelection

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.getAccount(
        .with { $0.account = self.account.selector }
      )
      Print.profile(response.profile)
    }
  }

  struct Update: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Change an account's profile fields (an empty value removes an optional one)."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var account: AccountSelection
    @Option var firstName: String?
    @Option var lastName: String?
    @Option var phone: String?
    @Option var birthDate: String?
    @Option(help: "female, male, other, prefer-not-to-say or unspecified") var gender: String?

    func call(_ gateway: GatewayConnection) async throws {
      var request = Binario_Identity_V1_UpdateAccountRequest()
      request.account = self.account.selector
      if let firstName { request.firstName = firstName }
      if let lastName { request.lastName = lastName }
      if let phone { request.phone = phone }
      if let birthDate { request.birthDate = birthDate }
      if let gender { request.gender = Binario_Identity_V1_Gender(displayName: gender) ?? .unspecified }
      let response = try await gateway.identity.updateAccount(
        request
      )
      Print.profile(response.profile)
    }
  }

  struct Disable: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Disable an account: it cannot sign in, and its sessions end now.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var account: AccountSelection
    @Option(help: "Recorded in the audit log.") var reason: String = ""

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.disableAccount(
        .with {
          $0.account = self.account.selector
          $0.reason = self.reason
        }
      )
      print("\(response.profile.email) is disabled; its sessions have ended")
    }
  }

  struct Enable: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Let a disabled account sign in again.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var account: AccountSelection

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.enableAccount(
        .with { $0.account = self.account.selector }
      )
      print("\(response.profile.email) is enabled")
    }
  }

  struct Delete: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Delete a driver's account and its personal data.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var account: AccountSelection

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.identity.deleteDriver(
        .with { $0.account = self.account.selector }
      )
      print("the driver's account is deleted")
    }
  }

  struct Audit: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "What admins did, newest first.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(name: .customLong("user-id"), help: "Only entries about this account.") var userID: String = ""
    @Option var limit: UInt32 = 50

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.listAuditEntries(
        .with {
          $0.targetUserID = self.userID
          $0.limit = self.limit
        }
      )
      if response.entries.isEmpty { print("nothing recorded") }
      for entry in response.entries {
        let detail = entry.detail.isEmpty ? "" : "  (\(entry.detail))"
        print("\(Print.date(entry.at))  \(entry.actorEmail) \(entry.action) \(entry.targetEmail)\(detail)")
      }
    }
  }
}
