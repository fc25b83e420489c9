import ArgumentParser
import BinarioProto

struct AdminCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "admin",
    abstract: "Administration (admin role needed).",
    subcommands: [
      CreateDriver.self, Grant.self, Revoke.self, Outbox.self, AdminUsersCommand.self, AdminTripsCommand.self,
      AdminDeliveriesCommand.self, AdminShopsCommand.self, AdminDealsCommand.self, AdminPlacesCommand.self,
      AdminRouteOffersCommand.self, AdminTaxisCommand.self, AdminDriversCommand.self, AdminZonesCommand.self,
      AdminMonitorCommand.self, AdminAlertsCommand.self, AdminExchangeRatesCommand.self,
    ]
  )

  struct CreateDriver: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Create a driver account.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var password: PasswordOptions
    @Option var email: String
    @Option var firstName: String
    @Option var lastName: String = ""
    @Option(help: "E.164, e.g. +393331234567") var phone: String = ""
    @Option(help: "YYYY-MM-DD") var birthDate: String = ""
    @Option(help: "female, male, other or prefer-not-to-say") var gender: String?

    func call(_ gateway: GatewayConnection) async throws {
      let request = try Binario_Identity_V1_CreateDriverRequest.with {
        $0.email = self.email
        $0.password = try self.password.read(prompt: "The driver's password: ")
        $0.firstName = self.firstName
        $0.lastName = self.lastName
        $0.phone = self.phone
        $0.birthDate = self.birthDate
        $0.gender = self.gender.flatMap(Binario_Identity_V1_Gender.init(displayName:)) ?? .unspecified
      }
      let response = try await gateway.identity.createDriver(request)
      Print.profile(response.profile)
    }
  }

  struct Grant: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Grant a role to an account.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option var email: String
    @Option(help: "passenger, driver, admin or inspector") var role: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.grantRole(
        .with {
          $0.account = .with { $0.email = self.email }
          $0.role = Binario_Identity_V1_Role(displayName: self.role) ?? .unspecified
        }
      )
      Print.profile(response.profile)
    }
  }

  struct Revoke: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Revoke a role from an account.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option var email: String
    @Option(help: "passenger, driver, admin or inspector") var role: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.revokeRole(
        .with {
          $0.account = .with { $0.email = self.email }
          $0.role = Binario_Identity_V1_Role(displayName: self.role) ?? .unspecified
        }
      )
      Print.profile(response.profile)
    }
  }

  struct Outbox: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "What the outbox recorded (emails, SMS, WhatsApp), newest first."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "Only messages to this address or number.") var recipient: String = ""
    @Option var limit: UInt32 = 20

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.listOutboxMessages(
        .with {
          $0.recipient = self.recipient
          $0.limit = self.limit
        }
      )
      for message in response.messages {
        print("\(Print.date(message.createdAt))  \(message.channel.displayName) to \(message.recipient): \(message.subject)")
        print("  " + message.body.replacingOccurrences(of: "\n", with: "\n  "))
      }
    }
  }
}
