import ArgumentParser
import BinarioDomain
import BinarioProto
import Foundation

struct ItinerariesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "itineraries",
    abstract: "Trips planned with friends: members, invites, events, expenses and the balances.",
    subcommands: [
      List.self, Create.self, Show.self, Edit.self, Delete.self, Invite.self, RemoveInvite.self, Invites.self, Accept.self,
      Reject.self, Leave.self, Event.self, Expense.self, Balances.self, Settle.self, Calendar.self,
    ],
    defaultSubcommand: List.self
  )

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "The itineraries you organise or joined.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.itineraries.listItineraries(
        .init()
      )
      if response.itineraries.isEmpty { print("no itineraries") }
      for itinerary in response.itineraries { Print.itinerary(itinerary) }
    }
  }

  struct Create: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Plan a trip.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option var name: String
    @Option var destination: String
    @Option(help: "YYYY-MM-DD") var start: String
    @Option(help: "YYYY-MM-DD") var end: String
    @Option(help: "The estimated total cost, e.g. 240.50") var cost: Decimal = 0
    @Option(help: "ISO 4217") var currency: String = "EUR"

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.itineraries.createItinerary(
        .with {
          $0.name = self.name
          $0.destination = self.destination
          $0.startDate = self.start
          $0.endDate = self.end
          $0.estimatedCost = .with {
            $0.amountMinor = minorUnits(self.cost, self.currency)
            $0.currency = self.currency
          }
        }
      )
      Print.itinerary(response.itinerary)
    }
  }

  struct Edit: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Change a trip you organise: only the options given change.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var itineraryID: String
    @Option var name: String?
    @Option var destination: String?
    @Option(help: "YYYY-MM-DD") var start: String?
    @Option(help: "YYYY-MM-DD") var end: String?
    @Option(help: "The estimated total cost, e.g. 240.50") var cost: Decimal?
    @Option(help: "ISO 4217, with --cost") var currency: String = "EUR"

    func call(_ gateway: GatewayConnection) async throws {
      var request = Binario_Scheduling_V1_UpdateItineraryRequest()
      request.itineraryID = self.itineraryID
      if let name {
        request.name = name
        request.updateMask.paths.append("name")
      }
      if let destination {
        request.destination = destination
        request.updateMask.paths.append("destination")
      }
      if let start {
        request.startDate = start
        request.updateMask.paths.append("start_date")
      }
      if let end {
        request.endDate = end
        request.updateMask.paths.append("end_date")
      }
      if let cost {
        request.estimatedCost = .with {
          $0.amountMinor = minorUnits(cost, self.currency)
          $0.currency = self.currency
        }
        request.updateMask.paths.append("estimated_cost")
      }
      guard !request.updateMask.paths.isEmpty else { throw ValidationError("pass what changes: --name, --destination, --start, --end or --cost") }
      Print.itinerary(try await gateway.itineraries.updateItinerary(request).itinerary)
    }
  }

  struct RemoveInvite: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove-invite",
      abstract: "Cancel an invite or remove a member (organiser); what they spent stays in the balances."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var itineraryID: String
    @Argument(help: "The invite id (see 'binario itineraries show').") var inviteID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.itineraries.removeItineraryInvite(
        .with {
          $0.itineraryID = self.itineraryID
          $0.inviteID = self.inviteID
        }
      )
      print("invite \(self.inviteID) removed")
    }
  }

  struct Calendar: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "The trip's events as an iCalendar file.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var itineraryID: String
    @Option(help: "Where to write it; default the file name the service gives, here.") var output: String?

    func call(_ gateway: GatewayConnection) async throws {
      let calendar = try await gateway.itineraries.exportItineraryCalendar(.with { $0.itineraryID = self.itineraryID })
      let path = self.output ?? calendar.fileName
      try Data(calendar.content.utf8).write(to: URL(fileURLWithPath: path))
      print("wrote \(path)")
    }
  }

  struct Show: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "An itinerary with its members, invites and events.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var itineraryID: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.itineraries.getItinerary(
        .with { $0.itineraryID = self.itineraryID }
      )
      Print.itinerary(response.itinerary)
    }
  }

  struct Delete: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Delete an itinerary you organise; its members are told.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var itineraryID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.itineraries.deleteItinerary(
        .with { $0.itineraryID = self.itineraryID }
      )
      print("deleted")
    }
  }

  struct Invite: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Invite a friend (--user) or a contact by email who may not be registered yet (--email)."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var itineraryID: String
    @Option(help: "A friend's user id.") var user: String?
    @Option(help: "A friend's or contact's email.") var email: String?

    func call(_ gateway: GatewayConnection) async throws {
      guard (self.user == nil) != (self.email == nil) else { throw ValidationError("pass --user or --email") }
      let response = try await gateway.itineraries.inviteToItinerary(
        .with {
          $0.itineraryID = self.itineraryID
          if let user = self.user { $0.userID = user }
          if let email = self.email { $0.email = email }
        }
      )
      print("invite \(response.invite.inviteID) sent")
    }
  }

  struct Invites: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Invites waiting for your answer.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.itineraries.listItineraryInvites(
        .init()
      )
      if response.invites.isEmpty { print("no invites") }
      for pending in response.invites {
        let trip = pending.itinerary
        print("\(pending.invite.inviteID)  \(trip.name) — \(trip.destination), \(trip.startDate) to \(trip.endDate)")
      }
    }
  }

  struct Accept: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Join an itinerary you were invited to.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The invite id (see 'binario itineraries invites').") var inviteID: String

    func call(_ gateway: GatewayConnection) async throws {
      try await respond(gateway, self.inviteID, accept: true)
      print("joined")
    }
  }

  struct Reject: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Decline an invite.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The invite id.") var inviteID: String

    func call(_ gateway: GatewayConnection) async throws {
      try await respond(gateway, self.inviteID, accept: false)
      print("declined")
    }
  }

  struct Leave: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Leave an itinerary you joined.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var itineraryID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.itineraries.leaveItinerary(
        .with { $0.itineraryID = self.itineraryID }
      )
      print("left")
    }
  }

  struct Event: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "An itinerary's events (organiser and members).",
      subcommands: [Add.self, Train.self, Update.self, Remove.self]
    )

    struct Train: ConnectedCommand {
      static let configuration = CommandConfiguration(
        abstract: "Add a train of the timetable you ride: its times and station come from it, its live delay shows on the trip."
      )
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument var itineraryID: String
      @Option(help: "The run's trip id (see 'binario trips board').") var trip: String
      @Option(help: "The run's date, YYYY-MM-DD.") var date: String
      @Option(help: "The station you board at.") var from: String
      @Option(help: "The station you leave the train at.") var to: String
      @Option(help: "The ticket for it in your wallet (see 'binario tickets wallet').") var ticket: String = ""
      @Option(help: "Default: the train and where it goes.") var title: String = ""

      func call(_ gateway: GatewayConnection) async throws {
        let response = try await gateway.itineraries.addItineraryEvent(
          .with {
            $0.itineraryID = self.itineraryID
            $0.event.title = self.title
            $0.event.train = .with {
              $0.tripID = self.trip
              $0.serviceDate = self.date
              $0.fromStationID = self.from
              $0.toStationID = self.to
              $0.ticketID = self.ticket
            }
          }
        )
        print("event \(response.event.eventID) added: \(response.event.title), \(Print.date(response.event.startsAt))")
      }
    }

    struct Fields: ParsableArguments {
      @Option var title: String
      @Option var place: String = ""
      @Option var latitude: Double = 0
      @Option var longitude: Double = 0
      @Option(help: "ISO 8601, e.g. 2027-05-01T10:00:00+02:00") var start: String
      @Option(help: "ISO 8601; default the start") var end: String?
      @Option var notes: String = ""
      @Option(help: "e.g. 12.50") var cost: Decimal = 0
      @Option var currency: String = ""

      func event() throws -> Binario_Scheduling_V1_ItineraryEvent {
        try .with {
          $0.title = self.title
          $0.place = self.place
          $0.latitude = self.latitude
          $0.longitude = self.longitude
          $0.startsAt = try instant(self.start, option: "--start")
          if let end = self.end { $0.endsAt = try instant(end, option: "--end") }
          $0.notes = self.notes
          $0.cost = .with {
            $0.amountMinor = minorUnits(self.cost, self.currency.isEmpty ? "EUR" : self.currency)
            $0.currency = self.currency
          }
        }
      }
    }

    struct Add: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Add an event.")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument var itineraryID: String
      @OptionGroup var fields: Fields

      func call(_ gateway: GatewayConnection) async throws {
        let response = try await gateway.itineraries.addItineraryEvent(
          .with {
            $0.itineraryID = self.itineraryID
            $0.event = try self.fields.event()
          }
        )
        print("event \(response.event.eventID) added")
      }
    }

    struct Update: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Replace an event's fields.")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument var itineraryID: String
      @Argument var eventID: String
      @OptionGroup var fields: Fields

      func call(_ gateway: GatewayConnection) async throws {
        _ = try await gateway.itineraries.updateItineraryEvent(
          .with {
            $0.itineraryID = self.itineraryID
            $0.eventID = self.eventID
            $0.event = try self.fields.event()
          }
        )
        print("event \(self.eventID) updated")
      }
    }

    struct Remove: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Remove an event.")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument var itineraryID: String
      @Argument var eventID: String

      func call(_ gateway: GatewayConnection) async throws {
        _ = try await gateway.itineraries.deleteItineraryEvent(
          .with {
            $0.itineraryID = self.itineraryID
            $0.eventID = self.eventID
          }
        )
        print("event \(self.eventID) removed")
      }
    }
  }
}

extension ItinerariesCommand {
  struct Expense: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "What the trip cost whom: expenses split equally, by shares, by percentages or by exact amounts.",
      subcommands: [Add.self, List.self, Remove.self],
      defaultSubcommand: List.self
    )

    struct Add: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Record an expense.")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument var itineraryID: String
      @Option(help: "What it was for.") var description: String
      @Option(help: "e.g. 18.40") var amount: Decimal
      @Option(help: "ISO 4217; default the trip's.") var currency: String = ""
      @Option(help: "Who paid (a user id); default you.") var paidBy: String = ""
      @Option(help: "equal, shares, percentages or exact.") var split: String = "equal"
      @Option(
        help: "USER for an equal split, USER=VALUE otherwise (shares; percent, e.g. 33.5; exact amount); repeatable. None: everyone, equally."
      )
      var share: [String] = []
      @Option(help: "The event it paid for.") var event: String = ""
      @Option(help: "Makes a retry harmless; default a new one.") var idempotencyKey: String = UUID().uuidString

      func call(_ gateway: GatewayConnection) async throws {
        guard let method = Self.methods[split.lowercased()] else { throw ValidationError("--split is equal, shares, percentages or exact") }
        let currency =
          self.currency.isEmpty
          ? try await gateway.itineraries.getItinerary(.with { $0.itineraryID = self.itineraryID }).itinerary.estimatedCost.currency : self.currency
        let shares = try share.map { entry -> Binario_Scheduling_V1_ExpenseShare in
          let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
          var share = Binario_Scheduling_V1_ExpenseShare()
          share.userID = parts[0]
          guard parts.count == 2 else {
            guard method == .equal else { throw ValidationError("--share is USER=VALUE with --split \(split)") }
            return share
          }
          guard let value = Decimal(string: parts[1], locale: Locale(identifier: "en_US_POSIX")) else {
            throw ValidationError("--share \(entry): the value is a number")
          }
          share.value =
            switch method {
            case .percentages: minorUnits(value, "EUR")  // hundredths of a percent
            case .exact: minorUnits(value, currency)
            default: NSDecimalNumber(decimal: value).int64Value
            }
          return share
        }
        let response = try await gateway.itineraries.addItineraryExpense(
          .with {
            $0.itineraryID = self.itineraryID
            $0.idempotencyKey = self.idempotencyKey
            $0.expense = .with {
              $0.description_p = self.description
              $0.amount = .with {
                $0.amountMinor = minorUnits(self.amount, currency)
                $0.currency = currency
              }
              $0.paidByUserID = self.paidBy
              $0.split = method
              $0.shares = shares
              $0.eventID = self.event
            }
          }
        )
        Print.expense(response.expense)
      }

      static let methods: [String: Binario_Scheduling_V1_SplitMethod] = [
        "equal": .equal, "shares": .shares, "percentages": .percentages, "exact": .exact,
      ]
    }

    struct List: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "The trip's expenses, newest first.")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument var itineraryID: String

      func call(_ gateway: GatewayConnection) async throws {
        let expenses = try await gateway.itineraries.listItineraryExpenses(.with { $0.itineraryID = self.itineraryID }).expenses
        if expenses.isEmpty { print("no expenses") }
        for expense in expenses { Print.expense(expense) }
      }
    }

    struct Remove: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Remove an expense (its author or the organiser).")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument var itineraryID: String
      @Argument var expenseID: String

      func call(_ gateway: GatewayConnection) async throws {
        _ = try await gateway.itineraries.deleteItineraryExpense(
          .with {
            $0.itineraryID = self.itineraryID
            $0.expenseID = self.expenseID
          }
        )
        print("expense \(self.expenseID) removed")
      }
    }
  }

  struct Balances: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Who owes whom, per currency, and the fewest transfers that settle it.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var itineraryID: String

    func call(_ gateway: GatewayConnection) async throws {
      let balances = try await gateway.itineraries.getItineraryBalances(.with { $0.itineraryID = self.itineraryID })
      print("estimated \(Print.money(balances.estimatedCost))")
      if balances.currencies.isEmpty { print("nothing spent yet") }
      for currency in balances.currencies {
        print("\(currency.currency): spent \(Print.money(currency.spent))")
        for member in currency.members {
          let left = member.member ? "" : " (left)"
          print(
            "  \(member.displayName)\(left)  paid \(Print.money(member.paid))  share \(Print.money(member.share))  balance \(Print.money(member.balance))"
          )
        }
        if currency.transfers.isEmpty { print("  all settled") }
        for transfer in currency.transfers {
          print("  settle: \(transfer.fromName) pays \(transfer.toName) \(Print.money(transfer.amount))  (--to \(transfer.toUserID))")
        }
      }
    }
  }

  struct Settle: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Record that you paid someone back.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var itineraryID: String
    @Option(help: "Whom you paid (a user id; see 'balances').") var to: String
    @Option(help: "e.g. 6.13") var amount: Decimal
    @Option(help: "ISO 4217") var currency: String = "EUR"
    @Option(help: "Makes a retry harmless; default a new one.") var idempotencyKey: String = UUID().uuidString

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.itineraries.addItineraryExpense(
        .with {
          $0.itineraryID = self.itineraryID
          $0.idempotencyKey = self.idempotencyKey
          $0.expense = .with {
            $0.description_p = "Settle up"
            $0.amount = .with {
              $0.amountMinor = minorUnits(self.amount, self.currency)
              $0.currency = self.currency
            }
            $0.settlement = true
            $0.split = .exact
            $0.shares = [
              .with {
                $0.userID = self.to
                $0.value = minorUnits(self.amount, self.currency)
              }
            ]
          }
        }
      )
      Print.expense(response.expense)
    }
  }
}

private func respond(_ gateway: GatewayConnection, _ inviteID: String, accept: Bool) async throws {
  _ = try await gateway.itineraries.respondToItineraryInvite(
    .with {
      $0.inviteID = inviteID
      $0.accept = accept
    }
  )
}

/// `12.50` EUR → 1250, `1200` JPY → 1200: minor units of `currency`, rounded to the nearest.
func minorUnits(_ amount: Decimal, _ currency: String) -> Int64 {
  var units = amount * pow(10, Money.minorUnitDigits(currency))
  var rounded = Decimal()
  NSDecimalRound(&rounded, &units, 0, .plain)
  return NSDecimalNumber(decimal: rounded).int64Value
}

extension Decimal: @retroactive ExpressibleByArgument {
  public init?(argument: String) {
    self.init(string: argument, locale: Locale(identifier: "en_US_POSIX"))
  }
}
