import ArgumentParser
import BinarioProto
import Foundation

/// `binario admin exchange-rates [load FILE]`: the euro reference rates subscriptions' grand
/// totals are converted with.
struct AdminExchangeRatesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "exchange-rates",
    abstract: "The exchange rates people's subscription totals are converted with: shown, or loaded from the ECB's file.",
    subcommands: [Show.self, Load.self],
    defaultSubcommand: Show.self
  )

  struct Show: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "The rates in force, per euro.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let rates = try await gateway.subscriptions.getExchangeRates(.init())
      if rates.ratesDate.isEmpty {
        print("none loaded: binario admin exchange-rates load eurofxref-daily.xml")
        return
      }
      print("Reference rates of \(rates.ratesDate), per euro:")
      for rate in rates.rates { print("  \(rate.currency) \(rate.perEuro)") }
    }
  }

  struct Load: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Replace the rates with a file the ECB publishes.",
      discussion: """
        eurofxref-daily.xml (https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml), or the CSV in \
        eurofxref.zip; the history's files too (their newest day is taken).
        """
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The file, XML or CSV.") var file: String

    func call(_ gateway: GatewayConnection) async throws {
      let content = try String(contentsOfFile: file, encoding: .utf8)
      let loaded = try await gateway.subscriptions.loadExchangeRates(.with { $0.content = content })
      print("loaded \(loaded.currencies) currencies, the reference rates of \(loaded.ratesDate)")
    }
  }
}
