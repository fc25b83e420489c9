import ArgumentParser
import BinarioProto
import Foundation

struct AdminTripsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trips",
    abstract: "Live changes and edits to the timetable; each reaches the run's followers.",
    subcommands: [
      Delay.self, Platform.self, Cancel.self, History.self, Create.self, Update.self, Remove.self, Lines.self, Import.self,
    ]
  )

  struct Delay: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Delay a run from a stop on by minutes (0 clears it) or to a new departure time."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var run: TripsCommand.RunOptions
    @Option(help: "Minutes late.") var minutes: Int32 = 0
    @Option(help: "Instead of --minutes: the new departure time from that stop, HH:MM.") var newDeparture: String = ""
    @Option(help: "From this stop on (its sequence); default the first.") var fromStop: Int32 = 0
    @Option(help: "Why, for the travellers.") var reason: String
    @OptionGroup var key: ChangeKeyOption

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.scheduling.delayRun(
        .with {
          $0.run = self.run.ref
          $0.minutes = self.minutes
          $0.newDeparture = self.newDeparture
          $0.fromSequence = self.fromStop
          $0.reason = self.reason
          $0.idempotencyKey = self.key.value
        }
      )
      Print.run(response.run)
    }
  }

  struct Platform: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Move a run's stop to another platform.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var run: TripsCommand.RunOptions
    @Option(help: "The stop's sequence (see 'binario trips show').") var stop: Int32
    @Option(help: "The new platform.") var platform: String
    @Option(help: "Why, for the travellers.") var reason: String
    @OptionGroup var key: ChangeKeyOption

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.scheduling.changePlatform(
        .with {
          $0.run = self.run.ref
          $0.sequence = self.stop
          $0.platform = self.platform
          $0.reason = self.reason
          $0.idempotencyKey = self.key.value
        }
      )
      Print.run(response.run)
    }
  }

  struct Cancel: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Cancel a run, whole or from a stop on.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var run: TripsCommand.RunOptions
    @Option(help: "From this stop on (its sequence); default the whole run.") var fromStop: Int32 = 0
    @Option(help: "Why, for the travellers.") var reason: String
    @OptionGroup var key: ChangeKeyOption

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.scheduling.cancelRun(
        .with {
          $0.run = self.run.ref
          $0.fromSequence = self.fromStop
          $0.reason = self.reason
          $0.idempotencyKey = self.key.value
        }
      )
      Print.run(response.run)
    }
  }

  struct History: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Every change made to a run: who, when, what and why.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var run: TripsCommand.RunOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.scheduling.listRunChanges(
        .with { $0.run = self.run.ref }
      )
      if response.changes.isEmpty { print("no changes") }
      for change in response.changes {
        let what: String
        switch change.change {
        case .delay(let delay)?: what = "delay \(delay.minutes) min from stop \(delay.fromSequence)"
        case .platformChange(let move)?: what = "platform \(move.platform) at stop \(move.sequence)"
        case .cancellation(let cancel)?:
          what = cancel.fromSequence == 0 ? "cancelled" : "cancelled from stop \(cancel.fromSequence)"
        case nil: what = "?"
        }
        print("\(Print.date(change.changedAt))  \(what)  by \(change.changedBy): \(change.reason)")
      }
    }
  }

  /// A stop as typed: `STATION@HH:MM`, `STATION@HH:MM-HH:MM` (arrival-departure), with
  /// `#PLATFORM` after either.
  static func plannedStop(_ text: String) throws -> Binario_Scheduling_V1_PlannedStop {
    let (place, platform) = text.split(separator: "#", maxSplits: 1).map(String.init).splitFirst
    let parts = place.split(separator: "@", maxSplits: 1).map(String.init)
    guard parts.count == 2, !parts[0].isEmpty else {
      throw ValidationError("--stop must be STATION@HH:MM or STATION@HH:MM-HH:MM, with #PLATFORM after either, not '\(text)'")
    }
    let times = parts[1].split(separator: "-", maxSplits: 1).map(String.init)
    return .with {
      $0.stationID = parts[0]
      $0.arrival = times[0]
      $0.departure = times.count > 1 ? times[1] : times[0]
      $0.platform = platform ?? ""
    }
  }

  struct Create: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a run on a date, e.g. --stop MI_CENTRALE@08:05#3 --stop MI_LAMBRATE@08:12-08:13 --stop BERGAMO@08:59."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "The run's service date, YYYY-MM-DD.") var date: String
    @Option(help: "The line's id (see 'binario admin trips lines').") var line: String
    @Option(help: "The train number.") var trainNumber: String
    @Option(help: "Where it goes; default the last stop's station.") var headsign: String = ""
    @Option(help: "STATION@HH:MM[-HH:MM][#PLATFORM], in order; at least two.") var stop: [String]

    func call(_ gateway: GatewayConnection) async throws {
      let stops = try self.stop.map(AdminTripsCommand.plannedStop)
      let response = try await gateway.scheduling.createRun(
        .with {
          $0.serviceDate = self.date
          $0.lineID = self.line
          $0.trainNumber = self.trainNumber
          $0.headsign = self.headsign
          $0.stops = stops
        }
      )
      Print.run(response.run)
    }
  }

  struct Update: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Change a run's train number, headsign or stops on its date (a trip that runs on other dates gets a run of its own)."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var run: TripsCommand.RunOptions
    @Option(help: "A new train number.") var trainNumber: String = ""
    @Option(help: "A new headsign.") var headsign: String = ""
    @Option(help: "The new stops, STATION@HH:MM[-HH:MM][#PLATFORM], in order (none: unchanged).") var stop: [String] = []

    func call(_ gateway: GatewayConnection) async throws {
      let stops = try self.stop.map(AdminTripsCommand.plannedStop)
      let response = try await gateway.scheduling.updateRun(
        .with {
          $0.run = self.run.ref
          $0.trainNumber = self.trainNumber
          $0.headsign = self.headsign
          $0.stops = stops
        }
      )
      Print.run(response.run)
    }
  }

  struct Remove: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Take a run out of the timetable for its date.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var run: TripsCommand.RunOptions
    @Option(help: "Why, for the travellers.") var reason: String = ""

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.scheduling.removeRun(
        .with {
          $0.run = self.run.ref
          $0.reason = self.reason
        }
      )
      print("removed \(self.run.tripID) on \(self.run.date)")
    }
  }

  struct Lines: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "The timetable's lines.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.scheduling.listLines(.init())
      for line in response.lines { print("\(line.lineID)  \(line.shortName)  \(line.longName)") }
    }
  }

  struct Import: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Replace the whole timetable with a zipped GTFS feed.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The feed's .zip file.") var zip: String

    func call(_ gateway: GatewayConnection) async throws {
      guard let bytes = FileManager.default.contents(atPath: self.zip) else {
        throw ValidationError("cannot read \(self.zip)")
      }
      let response = try await gateway.scheduling.importTimetable(
        .with { $0.feedZip = bytes }
      )
      print(
        "imported \(response.stations) stations, \(response.lines) lines, \(response.trips) trips, \(response.serviceDays) service days; times in \(response.timezone)"
      )
      if !response.unusedFiles.isEmpty { print("not used: \(response.unusedFiles.joined(separator: ", "))") }
    }
  }
}

struct AdminDeliveriesCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "deliveries",
    abstract: "What notifications went out on push, email and SMS (the outbox), newest first."
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @Option(help: "Only this user's (their id).") var user: String = ""
  @Option(help: "How many (1-500).") var limit: UInt32 = 50

  func call(_ gateway: GatewayConnection) async throws {
    let response = try await gateway.notifications.listDeliveries(
      .with {
        $0.userID = self.user
        $0.limit = self.limit
      }
    )
    for delivery in response.deliveries {
      print("\(Print.date(delivery.sentAt))  \(String(describing: delivery.channel))  \(delivery.address)  \(delivery.title)")
    }
  }
}

extension Array where Element == String {
  /// The first element and the second, if any.
  fileprivate var splitFirst: (String, String?) { (self.first ?? "", self.count > 1 ? self[1] : nil) }
}

/// `--idempotency-key` of a live change: the same admin's key again changes nothing more.
struct ChangeKeyOption: ParsableArguments {
  @Option(help: "Your key for this change: running the command again with it changes nothing more (default: a new one).")
  var idempotencyKey: String?

  var value: String { idempotencyKey ?? UUID().uuidString }
}
