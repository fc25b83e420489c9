import ArgumentParser
import BinarioProto
import Foundation

/// `binario cards add|list|remove|default`: payment cards on file.
struct CardsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cards",
    abstract: "Your payment cards (kept as the payment provider's token, never the number).",
    subcommands: [List.self, Add.self, Remove.self, Default.self],
    defaultSubcommand: List.self
  )

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "List your cards, the default first.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.listPaymentMethods(
        .init()
      )
      if response.paymentMethods.isEmpty { print("no cards on file") }
      for method in response.paymentMethods { print(Print.card(method)) }
    }
  }

  struct Add: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a card.",
      discussion: """
        The number and security code are read from the terminal without echo, or from \\
        BINARIO_CARD_NUMBER and BINARIO_CARD_SECURITY_CODE. The development payment provider \\
        accepts test cards such as 4242 4242 4242 4242 and declines 4000 0000 0000 0002.
        """
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "MM/YYYY, e.g. 12/2030") var expiry: String
    @Flag(help: "Make it your default card (the first card always is).") var makeDefault = false

    func call(_ gateway: GatewayConnection) async throws {
      let parts = self.expiry.split(separator: "/")
      guard parts.count == 2, let month = UInt32(parts[0]), let year = UInt32(parts[1]) else {
        throw ValidationError("--expiry is MM/YYYY, e.g. 12/2030")
      }
      let number = try readSecret(prompt: "Card number: ", environmentVariable: "BINARIO_CARD_NUMBER")
      let code = try readSecret(prompt: "Security code: ", environmentVariable: "BINARIO_CARD_SECURITY_CODE")
      let response = try await gateway.identity.addPaymentMethod(
        .with {
          $0.cardNumber = number
          $0.expiryMonth = month
          $0.expiryYear = year
          $0.securityCode = code
          $0.makeDefault = self.makeDefault
        }
      )
      print("added " + Print.card(response.paymentMethod))
    }
  }

  struct Remove: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a card.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The card's id (from 'binario cards list').") var id: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.identity.removePaymentMethod(
        .with { $0.paymentMethodID = self.id }
      )
      print("removed \(self.id)")
    }
  }

  struct Default: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Make a card your default.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The card's id (from 'binario cards list').") var id: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.setDefaultPaymentMethod(
        .with { $0.paymentMethodID = self.id }
      )
      print("default: " + Print.card(response.paymentMethod))
    }
  }
}
