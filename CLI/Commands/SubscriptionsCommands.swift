import ArgumentParser
import BinarioProto
import Foundation

/// `binario subscriptions add|list|edit|delete|withdraw|home|stats|options`.
struct SubscriptionsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subscriptions",
    abstract: "The services you pay for regularly, shared with friends: what they cost per month and per year.",
    subcommands: [List.self, Add.self, Edit.self, Delete.self, Withdraw.self, Home.self, Stats.self, Options.self],
    defaultSubcommand: List.self
  )

  /// The details a person types; every option is optional so `edit` changes only what is given.
  struct DetailOptions: ParsableArguments {
    @Option(help: "The service, from 'binario subscriptions options' (or any name with --custom-service).") var service: String?
    @Flag(help: "The service is not in the list.") var customService = false
    @Option(help: "individual, student, family, duo, business, trial (or any with --custom-plan).") var plan: String?
    @Flag(help: "The plan type is not in the list.") var customPlan = false
    @Option(help: "The first day, YYYY-MM-DD.") var start: String?
    @Option(help: "weekly, monthly, quarterly or yearly.") var period: String?
    @Option(help: "The price per period, e.g. 12.99.") var price: Decimal?
    @Option(help: "ISO 4217 (default EUR).") var currency: String?
    @Option(help: "The last four digits of the card it is paid with.") var cardLast4: String?
    @Option(help: "Automatic renewal: on or off.") var autoRenew: String?
    @Option(help: "movies-and-tv, music, shopping, tech, other or transport.") var category: String?
    @Option(parsing: .upToNextOption, help: "Friends' user ids to share it with (replaces the list; none to stop sharing).")
    var shareWith: [String] = []
    @Flag(help: "Stop sharing it with anyone.") var unshare = false

    func apply(to details: inout Binario_Ticketing_V1_SubscriptionDetails) throws {
      if let service {
        details.serviceName = service
        details.customServiceName = customService
      }
      if let plan {
        details.planType = plan
        details.customPlanType = customPlan
      }
      if let start { details.startDate = start }
      if let period {
        guard let parsed = Self.periods[period.lowercased()] else { throw ValidationError("--period is weekly, monthly, quarterly or yearly") }
        details.period = parsed
      }
      if let price {
        details.price.amountMinor = minorUnits(price)
      }
      if let currency { details.price.currency = currency }
      if details.price.currency.isEmpty { details.price.currency = "EUR" }
      if let cardLast4 { details.cardLast4 = cardLast4 }
      if let autoRenew {
        guard ["on", "off"].contains(autoRenew) else { throw ValidationError("--auto-renew is on or off") }
        details.automaticRenewal = autoRenew == "on"
      }
      if let category {
        guard let parsed = Self.categories[category.lowercased()] else {
          throw ValidationError("--category is one of \(Self.categories.keys.sorted().joined(separator: ", "))")
        }
        details.category = parsed
      }
    }

    static let periods: [String: Binario_Ticketing_V1_SubscriptionPeriod] = [
      "weekly": .weekly, "monthly": .monthly, "quarterly": .quarterly, "yearly": .yearly,
    ]
    static let categories: [String: Binario_Ticketing_V1_SubscriptionCategory] = [
      "movies-and-tv": .moviesAndTv, "music": .music, "shopping": .shopping, "tech": .tech, "other": .other,
      "transport": .transport,
    ]
  }

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Yours, and those shared with you.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.subscriptions.listSubscriptions(
        .init()
      )
      print("Mine:")
      if response.mine.isEmpty { print("  none") }
      for subscription in response.mine { Print.subscription(subscription) }
      print("Shared with me:")
      if response.sharedWithMe.isEmpty { print("  none") }
      for subscription in response.sharedWithMe { Print.subscription(subscription) }
    }
  }

  struct Add: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Record a subscription.",
      discussion:
        "binario subscriptions add --service Netflix --plan family --start 2026-01-15 --period monthly --price 23.99 --category movies-and-tv --share-with FRIEND-USER-ID"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var details: DetailOptions
    @Option(help: "Your key for this subscription: running the command again with it returns the one it added.")
    var idempotencyKey: String?

    func call(_ gateway: GatewayConnection) async throws {
      var proto = Binario_Ticketing_V1_SubscriptionDetails()
      proto.automaticRenewal = true
      try details.apply(to: &proto)
      let response = try await gateway.subscriptions.addSubscription(
        .with {
          $0.details = proto
          $0.sharedWithUserIds = details.shareWith
          $0.idempotencyKey = idempotencyKey ?? UUID().uuidString
        }
      )
      Print.subscription(response.subscription)
    }
  }

  struct Edit: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Change a subscription you own: only the options given.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var subscriptionID: String
    @OptionGroup var details: DetailOptions

    func call(_ gateway: GatewayConnection) async throws {
      let current = try await gateway.subscriptions.getSubscription(
        .with { $0.subscriptionID = subscriptionID }
      ).subscription
      var proto = current.details
      try details.apply(to: &proto)
      let members = details.unshare ? [] : details.shareWith.isEmpty ? current.members.map(\.userID) : details.shareWith
      let response = try await gateway.subscriptions.updateSubscription(
        .with {
          $0.subscriptionID = subscriptionID
          $0.details = proto
          $0.sharedWithUserIds = members
        }
      )
      Print.subscription(response.subscription)
    }
  }

  struct Delete: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Delete a subscription you own.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var subscriptionID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.subscriptions.deleteSubscription(
        .with { $0.subscriptionID = subscriptionID }
      )
      print("deleted")
    }
  }

  struct Withdraw: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Leave a subscription shared with you.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var subscriptionID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.subscriptions.withdrawFromSubscription(
        .with { $0.subscriptionID = subscriptionID }
      )
      print("withdrawn")
    }
  }

  struct Home: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "What you spend per month and per year, and the next renewals.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "How many renewals to show (default 5).") var renewals: UInt32 = 0

    func call(_ gateway: GatewayConnection) async throws {
      let home = try await gateway.subscriptions.getSubscriptionsHome(
        .with { $0.renewals = renewals }
      )
      print("\(home.subscriptions) subscription\(home.subscriptions == 1 ? "" : "s")")
      for total in home.totals {
        print("  \(Print.money(total.monthly)) a month, \(Print.money(total.yearly)) a year")
      }
      if !home.nextRenewals.isEmpty { print("Next renewals:") }
      for renewal in home.nextRenewals {
        let when = renewal.daysLeft == 0 ? "today" : "in \(renewal.daysLeft) day\(renewal.daysLeft == 1 ? "" : "s")"
        print("  \(renewal.date) (\(when))  \(renewal.serviceName)  your share \(Print.money(renewal.yourShare))")
      }
    }
  }

  struct Stats: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Per category: how many, the monthly spend and its share.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let statistics = try await gateway.subscriptions.getSubscriptionStatistics(
        .init()
      )
      if statistics.categories.isEmpty { print("no subscriptions") }
      for category in statistics.categories {
        let share = String(format: "%.2f %%", Double(category.shareBasisPoints) / 100)
        print("  \(Print.category(category.category))  \(category.subscriptions)  \(Print.money(category.monthly)) a month  \(share)")
      }
    }
  }

  struct Options: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "The services and plan types to choose from.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let options = try await gateway.subscriptions.getSubscriptionOptions(.init())
      print("Services: \(options.serviceNames.joined(separator: ", "))")
      print("Plan types: \(options.planTypes.joined(separator: ", "))")
      print("Categories: \(options.categories.map(Print.category).joined(separator: ", "))")
    }
  }
}

extension Print {
  static func category(_ category: Binario_Ticketing_V1_SubscriptionCategory) -> String {
    SubscriptionsCommand.DetailOptions.categories.first { $0.value == category }?.key ?? "unknown"
  }

  static func subscription(_ subscription: Binario_Ticketing_V1_Subscription) {
    let details = subscription.details
    let period = SubscriptionsCommand.DetailOptions.periods.first { $0.value == details.period }?.key ?? ""
    print(
      "  \(details.serviceName) (\(details.planType), \(category(details.category)))  \(money(details.price)) \(period)  [\(subscription.subscriptionID)]"
    )
    var facts = [
      "next \(subscription.nextRenewal) (\(subscription.daysUntilRenewal) days)",
      details.automaticRenewal ? "renews automatically" : "renewed by hand",
    ]
    if !subscription.members.isEmpty {
      let members = ([subscription.owner] + subscription.members).map { "\($0.name.isEmpty ? $0.userID : $0.name) \(money($0.share))" }
      facts.append("shared: " + members.joined(separator: ", "))
    }
    if !subscription.owned { facts.append("your share \(money(subscription.yourShare))") }
    print("    " + facts.joined(separator: "; "))
  }
}
