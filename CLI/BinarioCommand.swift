import ArgumentParser

/// `binario`: drives every feature of the platform through the gateway.
public struct BinarioCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "binario",
    abstract: "The Binario command-line client: talks to the platform through its gateway.",
    discussion: """
      Start the suite with scripts/run-local.sh, then for example:
        binario register --email ada@example.com --first-name Ada --phone +393331234567
        binario confirm --email ada@example.com --from-outbox
        binario login --email ada@example.com
        binario me
        binario trips board MI_CENTRALE
        binario notifications watch
      Passwords are read from the terminal (or BINARIO_PASSWORD / --password-stdin in scripts).
      """,
    subcommands: [
      RegisterCommand.self, ConfirmCommand.self, ResendConfirmationCommand.self,
      LoginCommand.self, RefreshCommand.self, LogoutCommand.self,
      MeCommand.self, PhoneCommand.self, PasswordCommand.self, PasswordResetCommand.self, EmailCommand.self,
      DeleteAccountCommand.self, FriendsCommand.self, CardsCommand.self, EmergencyCommand.self,
      TripsCommand.self, NotificationsCommand.self, ItinerariesCommand.self, TicketsCommand.self,
      SubscriptionsCommand.self, HereCommand.self, NearestCommand.self, DealsCommand.self, PlacesCommand.self,
      RouteOffersCommand.self, LocationCommand.self, TaxiCommand.self, DriverCommand.self, DevicesCommand.self,
      CampaignsCommand.self, ReadingsCommand.self, ReferenceCommand.self, SimulateBoardCommand.self, AdminCommand.self,
      KeysCommand.self,
      HealthCommand.self,
    ]
  )

  public init() {}
}
