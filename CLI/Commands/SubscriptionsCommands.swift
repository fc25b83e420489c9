import ArgumentParser
import BinarioProto
import Foundation

/// `binario subscriptions add|list|show|edit|delete|withdraw|pay|payments|pause|cancel|resume|home|stats|settings|export|import|options`.
struct SubscriptionsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subscriptions",
    abstract: "The services you pay for regularly, shared with friends: what they cost per month and per year.",
    subcommands: [
      List.self, Add.self, Show.self, Edit.self, Delete.self, Withdraw.self, Pay.self, Payments.self, Pause.self, Cancel.self,
      Resume.self, Home.self, Stats.self, Settings.self, Export.self, Import.self, Options.self,
    ],
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
    @Option(help: "A free trial's last day (its first charge), YYYY-MM-DD; 'none' to remove it.") var trialEnds: String?
    @Option(help: "Remind how many days before each date (0-60); 'default' for yours.") var reminderDays: String?
    @Option(parsing: .upToNextOption, help: "Friends' user ids to share it with (replaces the list; none to stop sharing).")
    var shareWith: [String] = []
    @Option(parsing: .upToNextOption, help: "Friends to share it with, by the email they registered with.")
    var shareWithEmail: [String] = []
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
      if let currency { details.price.currency = currency }
      if details.price.currency.isEmpty { details.price.currency = "EUR" }
      if let price {
        details.price.amountMinor = minorUnits(price, details.price.currency)
      }
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
      if let trialEnds { details.trialEndsOn = trialEnds == "none" ? "" : trialEnds }
      if let reminderDays {
        if reminderDays == "default" {
          details.clearReminderDays()
        } else {
          guard let days = Int32(reminderDays) else { throw ValidationError("--reminder-days is a number of days or 'default'") }
          details.reminderDays = days
        }
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
          $0.sharedWithEmails = details.shareWithEmail
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
          $0.sharedWithEmails = details.shareWithEmail
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

  struct Show: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "One subscription: its details, members and status.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var subscriptionID: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.subscription(try await gateway.subscriptions.getSubscription(.with { $0.subscriptionID = subscriptionID }).subscription)
    }
  }

  struct Pay: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Mark a subscription paid by hand paid: its next date (or --date), today (or --paid-on).",
      discussion: "Again with the same date it changes nothing: the date is what makes a retry harmless."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var subscriptionID: String
    @Option(help: "The date being paid, YYYY-MM-DD (default: the subscription's next date).") var date: String?
    @Option(help: "When it was paid, YYYY-MM-DD (default: today).") var paidOn: String = ""

    func call(_ gateway: GatewayConnection) async throws {
      let due: String
      if let date {
        due = date
      } else {
        due = try await gateway.subscriptions.getSubscription(.with { $0.subscriptionID = subscriptionID }).subscription.nextRenewal
      }
      let response = try await gateway.subscriptions.markSubscriptionPaid(
        .with {
          $0.subscriptionID = subscriptionID
          $0.dueDate = due
          $0.paidOn = paidOn
        }
      )
      print("paid \(response.payment.dueDate) (\(Print.money(response.payment.amount))); next \(response.subscription.nextRenewal)")
    }
  }

  struct Payments: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Every payment recorded for a subscription, newest first.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var subscriptionID: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.subscriptions.listSubscriptionPayments(.with { $0.subscriptionID = subscriptionID })
      if response.payments.isEmpty { print("no payments recorded") }
      for payment in response.payments {
        let who = payment.automatic ? "automatic" : payment.paidByName.isEmpty ? "by someone who left" : "by \(payment.paidByName)"
        print("  \(payment.dueDate)  paid \(payment.paidOn)  \(Print.money(payment.amount))  \(who)")
      }
      print("In all: \(Print.money(response.totalPaid))")
    }
  }

  struct Pause: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Pause a subscription you own: nothing due or reminded until resumed.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var subscriptionID: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.subscription(try await gateway.subscriptions.pauseSubscription(.with { $0.subscriptionID = subscriptionID }).subscription)
    }
  }

  struct Cancel: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Cancel a subscription you own: it renews up to its last day, then ends.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var subscriptionID: String
    @Option(help: "Its last day, YYYY-MM-DD (default: today).") var lastDay: String = ""

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.subscriptions.cancelSubscription(
        .with {
          $0.subscriptionID = subscriptionID
          $0.endsOn = lastDay
        }
      )
      Print.subscription(response.subscription)
    }
  }

  struct Resume: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Resume a paused or cancelled subscription you own.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var subscriptionID: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.subscription(try await gateway.subscriptions.resumeSubscription(.with { $0.subscriptionID = subscriptionID }).subscription)
    }
  }

  struct Home: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "What you spend per month and per year, what is due, and the next renewals.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "How many renewals to show (default: your setting).") var renewals: UInt32 = 0

    func call(_ gateway: GatewayConnection) async throws {
      let home = try await gateway.subscriptions.getSubscriptionsHome(
        .with { $0.renewals = renewals }
      )
      print("\(home.subscriptions) subscription\(home.subscriptions == 1 ? "" : "s")")
      for total in home.totals {
        print("  \(Print.money(total.monthly)) a month, \(Print.money(total.yearly)) a year")
      }
      if home.hasGrandTotal, home.totals.count > 1 {
        print(
          "  all together \(Print.money(home.grandTotal.monthly)) a month, \(Print.money(home.grandTotal.yearly)) a year (rates of \(home.ratesDate))"
        )
      } else if !home.unconverted.isEmpty, home.totals.count > 1 {
        print("  no exchange rate for \(home.unconverted.joined(separator: ", ")): no grand total")
      }
      for notice in home.budgetNotices {
        let what = notice.category == .unspecified ? "this month" : Print.category(notice.category)
        print("  over budget: \(what) \(Print.money(notice.spent)) of \(Print.money(notice.budget))")
      }
      if !home.due.isEmpty { print("To pay:") }
      for due in home.due {
        let when = due.daysLeft == 0 ? "today" : "overdue \(-due.daysLeft) day\(due.daysLeft == -1 ? "" : "s")"
        print("  \(due.date) (\(when))  \(due.serviceName)  your share \(Print.money(due.yourShare))  [\(due.subscriptionID)]")
      }
      if !home.nextRenewals.isEmpty { print("Next renewals:") }
      for renewal in home.nextRenewals {
        let when = renewal.daysLeft == 0 ? "today" : "in \(renewal.daysLeft) day\(renewal.daysLeft == 1 ? "" : "s")"
        print("  \(renewal.date) (\(when))  \(renewal.serviceName)  your share \(Print.money(renewal.yourShare))")
      }
    }
  }

  struct Stats: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Per category: how many and their share, the monthly spend and its share.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let statistics = try await gateway.subscriptions.getSubscriptionStatistics(
        .init()
      )
      if statistics.categories.isEmpty { print("no subscriptions") }
      func percent(_ basisPoints: UInt32) -> String { String(format: "%.2f %%", Double(basisPoints) / 100) }
      for category in statistics.categories {
        print(
          "  \(Print.category(category.category))  \(category.subscriptions) (\(percent(category.subscriptionsShareBasisPoints)))  \(Print.money(category.monthly)) a month  \(percent(category.shareBasisPoints))"
        )
      }
      if !statistics.converted.isEmpty { print("Converted (rates of \(statistics.ratesDate)):") }
      for category in statistics.converted {
        print("  \(Print.category(category.category))  \(Print.money(category.monthly)) a month  \(percent(category.shareBasisPoints))")
      }
    }
  }

  struct Settings: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Your reminders, home, main currency and budgets: shown, or changed by the options given.",
      discussion: "binario subscriptions settings --main-currency EUR --monthly-budget 50 --budget music=15 --budget movies-and-tv=20"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "Remind how many days before each date (0-60).") var reminderDays: Int32?
    @Option(help: "How many renewals home shows (1-10).") var homeRenewals: UInt32?
    @Option(help: "The currency of the grand total and the budgets (ISO 4217).") var mainCurrency: String?
    @Option(help: "A month's budget in the main currency, e.g. 50 (0: none).") var monthlyBudget: Decimal?
    @Option(help: "A category's budget a month: CATEGORY=AMOUNT (0 removes it); repeatable.") var budget: [String] = []

    func call(_ gateway: GatewayConnection) async throws {
      var settings = try await gateway.subscriptions.getSubscriptionSettings(.init()).settings
      let changing = reminderDays != nil || homeRenewals != nil || mainCurrency != nil || monthlyBudget != nil || !budget.isEmpty
      if changing {
        if let reminderDays { settings.reminderDays = reminderDays }
        if let homeRenewals { settings.homeRenewals = homeRenewals }
        if let mainCurrency { settings.mainCurrency = mainCurrency }
        if let monthlyBudget { settings.monthlyBudgetMinor = minorUnits(monthlyBudget, settings.mainCurrency) }
        for entry in budget {
          let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
          guard parts.count == 2, let category = DetailOptions.categories[parts[0].lowercased()], let amount = Decimal(string: parts[1]) else {
            throw ValidationError("--budget is CATEGORY=AMOUNT, e.g. music=15")
          }
          settings.categoryBudgets.removeAll { $0.category == category }
          settings.categoryBudgets.append(
            .with {
              $0.category = category
              $0.amountMinor = minorUnits(amount, settings.mainCurrency)
            }
          )
        }
        settings = try await gateway.subscriptions.updateSubscriptionSettings(.with { $0.settings = settings }).settings
      }
      print("Reminders \(settings.reminderDays) day\(settings.reminderDays == 1 ? "" : "s") before; home shows \(settings.homeRenewals) renewals")
      let budget =
        settings.monthlyBudgetMinor == 0
        ? "none"
        : Print.money(
          .with {
            $0.amountMinor = settings.monthlyBudgetMinor
            $0.currency = settings.mainCurrency
          }
        )
      print("Main currency \(settings.mainCurrency); a month's budget \(budget)")
      for entry in settings.categoryBudgets {
        let amount = Binario_Type_V1_Money.with {
          $0.amountMinor = entry.amountMinor
          $0.currency = settings.mainCurrency
        }
        print("  \(Print.category(entry.category)): \(Print.money(amount))")
      }
    }
  }

  struct Export: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Your subscriptions as a file: Binario's CSV, or Wallos's JSON or CSV.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "csv (Binario's, every field), wallos-json or wallos-csv.") var format: String = "csv"
    @Option(help: "Where to write it (default: printed).") var output: String?

    func call(_ gateway: GatewayConnection) async throws {
      let formats: [String: Binario_Ticketing_V1_SubscriptionFileFormat] = ["csv": .binarioCsv, "wallos-json": .wallosJson, "wallos-csv": .wallosCsv]
      guard let chosen = formats[format] else { throw ValidationError("--format is csv, wallos-json or wallos-csv") }
      let response = try await gateway.subscriptions.exportSubscriptions(.with { $0.format = chosen })
      if let output {
        try response.content.write(toFile: output, atomically: true, encoding: .utf8)
        print("\(response.subscriptions) subscription\(response.subscriptions == 1 ? "" : "s") written to \(output)")
      } else {
        print(response.content, terminator: "")
      }
    }
  }

  struct Import: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add the subscriptions of a file: Binario's CSV, or Wallos's export (JSON or CSV).",
      discussion: "Each row on its own: a row that cannot be added is named with why. The same file again adds nothing."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The file.") var file: String

    func call(_ gateway: GatewayConnection) async throws {
      let content = try String(contentsOfFile: file, encoding: .utf8)
      let response = try await gateway.subscriptions.importSubscriptions(.with { $0.content = content })
      print("\(response.imported.count) subscription\(response.imported.count == 1 ? "" : "s") imported")
      for subscription in response.imported { Print.subscription(subscription) }
      for problem in response.problems { print("  line \(problem.line) (\(problem.name)): \(problem.reason)") }
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
    let status = String(describing: subscription.status).lowercased()
    var facts = [
      status,
      subscription.due
        ? "due since \(subscription.nextRenewal) (\(subscription.daysOverdue) days)"
        : "next \(subscription.nextRenewal) (\(subscription.daysUntilRenewal) days)",
      details.automaticRenewal ? "renews automatically" : "paid by hand",
    ]
    if !details.trialEndsOn.isEmpty { facts.append("free trial until \(details.trialEndsOn)") }
    if !subscription.endsOn.isEmpty { facts.append("last day \(subscription.endsOn)") }
    if !subscription.pausedOn.isEmpty { facts.append("paused since \(subscription.pausedOn)") }
    if !subscription.members.isEmpty {
      let members = ([subscription.owner] + subscription.members).map {
        "\($0.name.isEmpty ? $0.userID : $0.name)\($0.email.isEmpty ? "" : " <\($0.email)>") \(money($0.share))"
      }
      facts.append("shared: " + members.joined(separator: ", "))
    }
    if !subscription.owned { facts.append("your share \(money(subscription.yourShare))") }
    print("    " + facts.joined(separator: "; "))
  }
}
