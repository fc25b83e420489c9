import ArgumentParser
import BinarioProto
import Foundation
import SwiftProtobuf

/// Where, as a position or an address, on the command line.
struct LocationOptions: ParsableArguments {
  @Option(help: "Degrees north, e.g. 45.4642 (with --longitude).") var latitude: Double?
  @Option(help: "Degrees east, e.g. 9.1900 (with --latitude).") var longitude: Double?
  @Option(help: "A street address of the city, or one of your saved places by name (home, work).") var address: String?

  func location(_ what: String) throws -> Binario_Dispatch_V1_Location? {
    try Self.location(latitude: latitude, longitude: longitude, address: address, what)
  }

  static func location(latitude: Double?, longitude: Double?, address: String?, _ what: String) throws -> Binario_Dispatch_V1_Location? {
    switch (latitude, longitude, address) {
    case (nil, nil, nil): return nil
    case (let latitude?, let longitude?, nil):
      return .with {
        $0.position = .with {
          $0.latitude = latitude
          $0.longitude = longitude
        }
      }
    case (nil, nil, let address?): return .with { $0.address = address }
    default: throw ValidationError("give the \(what) as --latitude and --longitude, or as --address")
    }
  }
}

/// `binario taxi request|show|cancel|watch|history|addresses|places`: a passenger's taxis.
struct TaxiCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "taxi",
    abstract: "Call a taxi, follow it, cancel it, and your rides' history.",
    subcommands: [
      Request.self, Show.self, Cancel.self, Watch.self, Reserve.self, Reservations.self, History.self, Addresses.self, Places.self,
    ]
  )

  struct Request: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Call a taxi now (needs a verified phone and a card on file; the cancellation fee is held on it).",
      discussion: """
        binario taxi request --address "Piazza del Duomo 1" --to-address "Piazza Duca d'Aosta 1"
        binario taxi request --latitude 45.4642 --longitude 9.1900 --passengers 2 --watch
        """
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var pickup: LocationOptions
    @Option(name: .customLong("to-latitude")) var toLatitude: Double?
    @Option(name: .customLong("to-longitude")) var toLongitude: Double?
    @Option(name: .customLong("to-address"), help: "Where to (optional), as an address or a saved place.") var toAddress: String?
    @Option(help: "1 to 4.") var passengers: UInt32 = 1
    @Option(help: "Your key for this request: running the command again with it returns the same ride (default: a new one).")
    var idempotencyKey: String?
    @Flag(help: "Follow the ride until a taxi is found (or none is).") var watch = false

    func call(_ gateway: GatewayConnection) async throws {
      guard let pickup = try self.pickup.location("pickup") else {
        throw ValidationError("give the pickup as --latitude and --longitude, or as --address")
      }
      let destination = try LocationOptions.location(latitude: toLatitude, longitude: toLongitude, address: toAddress, "destination")
      let response = try await gateway.dispatch.requestRide(
        .with {
          $0.pickup = pickup
          if let destination { $0.destination = destination }
          $0.passengers = passengers
          $0.idempotencyKey = idempotencyKey ?? UUID().uuidString
        }
      )
      FileHandle.standardOutput.write(Data(Print.rideText(response.ride).utf8))
      if watch { try await Watch.follow(response.ride.rideID, gateway: gateway, until: [.allocated, .noTaxi, .cancelled]) }
    }
  }

  struct Show: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "One of your rides.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ride's id.") var rideID: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.ride(
        try await gateway.dispatch.getRide(.with { $0.rideID = rideID }).ride
      )
    }
  }

  struct Cancel: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Cancel a ride that has not started: free within 30 seconds of the request, else the cancellation fee."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ride's id.") var rideID: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.ride(
        try await gateway.dispatch.cancelRide(.with { $0.rideID = rideID })
          .ride
      )
    }
  }

  struct Watch: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Follow a ride live until it ends (Ctrl-C to stop).")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ride's id.") var rideID: String

    func call(_ gateway: GatewayConnection) async throws {
      try await Self.follow(rideID, gateway: gateway, until: [])
    }

    /// Prints each change of the ride; returns when it reaches one of `states` (or ends).
    static func follow(_ rideID: String, gateway: GatewayConnection, until states: Set<Binario_Dispatch_V1_RideState>) async throws {
      try await gateway.dispatch.watchRide(.with { $0.rideID = rideID }) {
        response in
        var last: Binario_Dispatch_V1_Ride?
        for try await message in response.messages {
          let ride = message.ride
          if ride.state != last?.state || ride.delayed != last?.delayed || ride.estimatedPickupAt != last?.estimatedPickupAt {
            FileHandle.standardOutput.write(Data("\(Print.date(.init(date: Date()))) \(Print.rideState(ride.state))".utf8))
            var detail = ""
            if !ride.taxiCode.isEmpty, ride.state == .allocated {
              detail = ": taxi \(ride.taxiCode) (\(ride.taxiPlate)) at \(Print.date(ride.estimatedPickupAt)), your code \(ride.passengerCode)"
              if ride.delayed { detail += " (late)" }
            }
            FileHandle.standardOutput.write(Data((detail + "\n").utf8))
          }
          last = ride
          if states.contains(ride.state) { return }
        }
      }
    }
  }

  struct Reserve: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Book a taxi for later (at least two hours ahead); --shared to share it and its fare.",
      discussion: """
        binario taxi reserve --address "Piazza del Duomo 1" --to-address "Piazza dell'Ateneo Nuovo 1" --at 2026-12-01T08:30:00Z --shared
        """
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var pickup: LocationOptions
    @Option(name: .customLong("to-latitude")) var toLatitude: Double?
    @Option(name: .customLong("to-longitude")) var toLongitude: Double?
    @Option(name: .customLong("to-address"), help: "Where to, as an address or a saved place.") var toAddress: String?
    @Option(help: "The meeting time, ISO 8601 (2026-12-01T08:30:00Z or with an offset).") var at: String
    @Option(help: "1 to 4.") var passengers: UInt32 = 1
    @Flag(help: "Share the taxi with others going the same way at about the same time.") var shared = false
    @Option(help: "Your key for this booking: running the command again with it returns the same reservation.") var idempotencyKey: String?

    func call(_ gateway: GatewayConnection) async throws {
      guard let pickup = try self.pickup.location("pickup"),
        let destination = try LocationOptions.location(latitude: toLatitude, longitude: toLongitude, address: toAddress, "destination")
      else { throw ValidationError("give the pickup (--address, or --latitude and --longitude) and the destination (--to-...)") }
      guard let meeting = try? Date(at, strategy: .iso8601) else { throw ValidationError("--at: an ISO 8601 time, e.g. 2026-12-01T08:30:00Z") }
      let response = try await gateway.dispatch.createReservation(
        .with {
          $0.pickup = pickup
          $0.destination = destination
          $0.meetingAt = .init(date: meeting)
          $0.passengers = passengers
          $0.shared = shared
          $0.idempotencyKey = idempotencyKey ?? UUID().uuidString
        }
      )
      Print.reservation(response.reservation)
    }
  }

  /// `binario taxi reservations [delete|edit]`.
  struct Reservations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Your reservations: list them, change one (until 30 minutes before), delete one.",
      subcommands: [List.self, Edit.self, Delete.self],
      defaultSubcommand: List.self
    )

    struct List: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Your reservations, soonest first.")
      @OptionGroup var gateway: GatewayConnectionOptions

      func call(_ gateway: GatewayConnection) async throws {
        let response = try await gateway.dispatch.listReservations(.init())
        if response.reservations.isEmpty { print("no reservations") }
        response.reservations.forEach(Print.reservation)
      }
    }

    struct Edit: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Change a reservation's time, passengers or sharing.")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument(help: "The reservation's id.") var reservationID: String
      @Option(help: "A new meeting time, ISO 8601.") var at: String?
      @Option(help: "1 to 4.") var passengers: UInt32?
      @Option(help: "true or false.") var shared: Bool?

      func call(_ gateway: GatewayConnection) async throws {
        var meeting: Date?
        if let at {
          guard let parsed = try? Date(at, strategy: .iso8601) else { throw ValidationError("--at: an ISO 8601 time") }
          meeting = parsed
        }
        let response = try await gateway.dispatch.updateReservation(
          .with {
            $0.reservationID = reservationID
            if let meeting { $0.meetingAt = .init(date: meeting) }
            $0.passengers = passengers ?? 0
            if let shared { $0.shared = shared }
          }
        )
        Print.reservation(response.reservation)
      }
    }

    struct Delete: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Delete a reservation (the fee applies in its last 10 minutes).")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument(help: "The reservation's id.") var reservationID: String

      func call(_ gateway: GatewayConnection) async throws {
        let response = try await gateway.dispatch.deleteReservation(
          .with { $0.reservationID = reservationID }
        )
        Print.reservation(response.reservation)
      }
    }
  }

  struct History: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Your rides, newest first, with what each cost.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "How many (1 to 100).") var limit: UInt32 = 20

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.dispatch.listMyRides(
        .with { $0.pageSize = limit }
      )
      if response.rides.isEmpty { print("no rides yet") }
      response.rides.forEach(Print.ride)
    }
  }

  struct Addresses: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "The addresses of your recent rides, to pick from.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.dispatch.listRecentAddresses(.init())
      if response.places.isEmpty { print("no recent addresses") }
      response.places.forEach { print("  \(Print.place($0))") }
    }
  }

  /// `binario taxi places [save|delete]`.
  struct Places: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Your saved places (home, work): a request's --address may name them.",
      subcommands: [List.self, Save.self, Delete.self],
      defaultSubcommand: List.self
    )

    struct List: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Your saved places.")
      @OptionGroup var gateway: GatewayConnectionOptions

      func call(_ gateway: GatewayConnection) async throws {
        let response = try await gateway.dispatch.listSavedPlaces(.init())
        if response.places.isEmpty { print("no saved places") }
        response.places.forEach { print(String(format: "  %@: %.5f, %.5f", $0.name, $0.position.latitude, $0.position.longitude)) }
      }
    }

    struct Save: ConnectedCommand {
      static let configuration = CommandConfiguration(
        abstract: "Save (or move) a named place.",
        discussion: "binario taxi places save home --latitude 45.4719 --longitude 9.1879"
      )
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument(help: "Its name.") var name: String
      @OptionGroup var position: PositionOptions

      func call(_ gateway: GatewayConnection) async throws {
        let response = try await gateway.dispatch.savePlace(
          .with {
            $0.place = .with {
              $0.name = name
              $0.position = .with {
                $0.latitude = position.latitude
                $0.longitude = position.longitude
              }
            }
          }
        )
        print("saved \(response.place.name)")
      }
    }

    struct Delete: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Forget a saved place.")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument(help: "Its name.") var name: String

      func call(_ gateway: GatewayConnection) async throws {
        _ = try await gateway.dispatch.deleteSavedPlace(.with { $0.name = name })
        print("forgotten")
      }
    }
  }
}
