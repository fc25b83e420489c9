import ArgumentParser
import BinarioProto
import Foundation
import SwiftProtobuf

struct TripsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trips",
    abstract: "The railway timetable, live: stations, journeys, runs, departures boards, following a run.",
    subcommands: [Stations.self, Search.self, Show.self, Board.self, Follow.self, Unfollow.self, Followed.self]
  )

  /// A run named on the command line: its trip id and service date.
  struct RunOptions: ParsableArguments {
    @Argument(help: "The trip id (see 'binario trips board' or 'search').") var tripID: String
    @Option(help: "The run's service date, YYYY-MM-DD.") var date: String

    var ref: Binario_Scheduling_V1_RunRef {
      .with {
        $0.tripID = self.tripID
        $0.serviceDate = self.date
      }
    }
  }

  struct Stations: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "List stations (by name or code).")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "Part of a name or code.") var query: String = ""

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.scheduling.listStations(.with { $0.query = self.query })
      for station in response.stations {
        print("\(station.stationID)  \(station.name) (\(station.code))  \(station.latitude), \(station.longitude)")
      }
    }
  }

  struct Search: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Journeys from one station to another, live.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "The departure station's id.") var from: String
    @Option(help: "The destination's id.") var to: String
    @Option(help: "Leaving at or after this instant (ISO 8601, e.g. 2026-11-25T08:00:00+01:00); default now.") var after: String?
    @Option(help: "How many journeys (1-20).") var limit: UInt32 = 5

    func call(_ gateway: GatewayConnection) async throws {
      let request = try Binario_Scheduling_V1_SearchJourneysRequest.with {
        $0.fromStationID = self.from
        $0.toStationID = self.to
        $0.limit = self.limit
        if let after = self.after { $0.departureAfter = try instant(after, option: "--after") }
      }
      let response = try await gateway.scheduling.searchJourneys(request)
      if response.journeys.isEmpty { print("no journeys found") }
      for journey in response.journeys {
        print("\(Print.clock(journey.departure)) → \(Print.clock(journey.arrival))  (\(journey.legs.count == 1 ? "direct" : "1 change"))")
        for leg in journey.legs {
          let board = leg.run.stops.first { $0.sequence == leg.boardSequence }
          let alight = leg.run.stops.first { $0.sequence == leg.alightSequence }
          print(
            "  \(Print.train(leg.run))\n    \(board.map { "\(Print.departure($0)) \($0.station.name) \(Print.platform($0))" } ?? "")"
              + "\n    \(alight.map { "\(Print.clock($0.expectedArrival)) \($0.station.name)" } ?? "")"
          )
        }
        // One ticket for every train of the journey.
        let legs = journey.legs.map { leg in
          let board = leg.run.stops.first { $0.sequence == leg.boardSequence }?.station.stationID ?? ""
          let alight = leg.run.stops.first { $0.sequence == leg.alightSequence }?.station.stationID ?? ""
          return "--leg \(leg.run.run.tripID),\(leg.run.run.serviceDate),\(board),\(alight)"
        }
        print("  price it: binario tickets quote \(legs.joined(separator: " "))")
      }
    }
  }

  struct Show: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "A run with every stop, live.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var run: RunOptions

    func call(_ gateway: GatewayConnection) async throws {
      Print.run(try await gateway.scheduling.getRun(.with { $0.run = self.run.ref }).run)
    }
  }

  struct Board: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "A station's next departures, live.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The station's id (see 'binario trips stations').") var station: String
    @Option(help: "How many departures (1-50).") var limit: UInt32 = 10

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.scheduling.getDeparturesBoard(
        .with {
          $0.stationID = self.station
          $0.limit = self.limit
        }
      )
      print("Departures from \(response.station.name)")
      for departure in response.departures {
        guard let stop = departure.run.stops.first(where: { $0.sequence == departure.sequence }) else { continue }
        print("  \(Print.departure(stop))  \(Print.train(departure.run))  \(Print.platform(stop))")
      }
    }
  }

  struct Follow: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Follow a run: its live changes reach your notifications.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var run: RunOptions

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.scheduling.followRun(
        .with { $0.run = self.run.ref }
      )
      print("following \(self.run.tripID) on \(self.run.date)")
    }
  }

  struct Unfollow: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Stop following a run.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var run: RunOptions

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.scheduling.unfollowRun(
        .with { $0.run = self.run.ref }
      )
      print("no longer following \(self.run.tripID) on \(self.run.date)")
    }
  }

  struct Followed: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "The runs you follow, live.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.scheduling.listFollowedRuns(
        .init()
      )
      if response.runs.isEmpty { print("you follow no runs") }
      for run in response.runs { Print.run(run) }
    }
  }
}

/// An ISO 8601 instant from an option, or a validation error naming it.
func instant(_ text: String, option: String) throws -> Google_Protobuf_Timestamp {
  guard let date = try? Date(text, strategy: .iso8601) else {
    throw ValidationError("\(option) must be an ISO 8601 instant such as 2026-11-25T08:00:00+01:00, not '\(text)'")
  }
  return Google_Protobuf_Timestamp(date: date)
}
