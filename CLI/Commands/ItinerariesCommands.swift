import ArgumentParser
import BinarioProto
import Foundation

struct ItinerariesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "itineraries",
    abstract: "Trips planned with friends: members, invites, events and the shared cost.",
    subcommands: [
      List.self, Create.self, Show.self, Delete.self, Invite.self, Invites.self, Accept.self, Reject.self, Leave.self,
      Event.self,
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
            $0.amountMinor = minorUnits(self.cost)
            $0.currency = self.currency
          }
        }
      )
      Print.itinerary(response.itinerary)
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
      subcommands: [Add.self, Update.self, Remove.self]
    )

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
            $0.amountMinor = minorUnits(self.cost)
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

private func respond(_ gateway: GatewayConnection, _ inviteID: String, accept: Bool) async throws {
  _ = try await gateway.itineraries.respondToItineraryInvite(
    .with {
      $0.inviteID = inviteID
      $0.accept = accept
    }
  )
}

/// `12.50` → 1250 (minor units), rounded to the cent.
func minorUnits(_ amount: Decimal) -> Int64 {
  var cents = amount * 100
  var rounded = Decimal()
  NSDecimalRound(&rounded, &cents, 0, .plain)
  return NSDecimalNumber(decimal: rounded).int64Value
}

extension Decimal: @retroactive ExpressibleByArgument {
  public init?(argument: String) {
    self.init(string: argument, locale: Locale(identifier: "en_US_POSIX"))
  }
}
