import ArgumentParser
import BinarioProto
import Foundation
import SwiftProtobuf

/// `binario driver ...`: a driver's taxi, availability, position, offers and rides.
struct DriverCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "driver",
    abstract: "Drive a taxi: availability, position, offers as they arrive, accept or reject, the ride to its end.",
    subcommands: [
      Status.self, Available.self, Unavailable.self, Position.self, Jobs.self, Accept.self, Reject.self, Delay.self, Arrived.self,
      NoShow.self, GiveUp.self, Start.self, Complete.self,
    ]
  )

  struct Status: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Your taxi, its place in the queue, its offer and ride.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.dispatch.getMyTaxi(.init())
      Print.taxi(response.taxi)
      if response.hasOffer { Print.offer(response.offer) }
      if response.hasRide { Print.ride(response.ride) }
    }
  }

  struct Available: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Take jobs: join the tail of your zone's queue.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.dispatch.setAvailability(
        .with { $0.available = true }
      )
      Print.taxi(response.taxi)
    }
  }

  struct Unavailable: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Stop taking jobs, saying why.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "Why: break, end of shift, ...") var reason: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.dispatch.setAvailability(
        .with { $0.reason = reason }
      )
      Print.taxi(response.taxi)
    }
  }

  struct Position: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Report where your taxi is.",
      discussion: "binario driver position --latitude 45.4642 --longitude 9.1900"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var position: PositionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.dispatch.reportPosition(
        .with {
          $0.position = .with {
            $0.latitude = position.latitude
            $0.longitude = position.longitude
          }
        }
      )
      if !response.used { print("position not used: \(response.ignoredReason.replacingOccurrences(of: "_", with: " "))") }
      Print.taxi(response.taxi)
    }
  }

  struct Jobs: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print offers, withdrawals and your ride's changes as they arrive (Ctrl-C to stop).",
      discussion: "binario driver jobs --accept --count 1   (accepts the first offer and stops)"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Flag(help: "Accept each offer as it arrives.") var accept = false
    @Flag(help: "Reject each offer as it arrives.") var reject = false
    @Option(help: "Stop after this many offers.") var count: Int?

    func validate() throws {
      if accept && reject { throw ValidationError("--accept or --reject, not both") }
    }

    func call(_ gateway: GatewayConnection) async throws {
      FileHandle.standardOutput.write(Data("waiting for jobs (Ctrl-C to stop)\n".utf8))
      try await gateway.dispatch.watchJobs(.init()) { response in
        var offers = 0
        for try await message in response.messages {
          switch message.event {
          case .offer(let offer):
            Self.write(
              "OFFER \(offer.offerID): pick up at \(Print.place(offer.ride.pickup)), \(Print.distance(offer.distanceMetres)) away, answer by \(Print.date(offer.expiresAt))"
            )
            for (index, stop) in offer.ride.route.enumerated() {
              Self.write(
                "  \(index + 1). \(stop.kind == .pickup ? "pick up" : "drop off") \(stop.passengerName) (\(stop.passengers)) at \(Print.place(stop.place))"
              )
            }
            offers += 1
            if accept || reject {
              do {
                // A fresh token: the stream may have been open longer than one lives.
                if accept {
                  let ride = try await gateway.dispatch.acceptOffer(
                    .with { $0.offerID = offer.offerID }
                  ).ride
                  Self.write("accepted: ride \(ride.rideID), passenger \(ride.passengerName)")
                } else {
                  _ = try await gateway.dispatch.rejectOffer(.with { $0.offerID = offer.offerID })
                  Self.write("rejected \(offer.offerID)")
                }
              } catch {
                Self.write(ErrorReport.describe(error))
              }
            }
            if let count, offers >= count { return }
          case .offerWithdrawn(let withdrawn):
            Self.write("offer \(withdrawn.offerID) withdrawn: \(withdrawn.reason)")
          case .ride(let ride):
            Self.write("ride \(ride.rideID): \(Print.rideState(ride.state))" + (ride.route.isEmpty ? "" : ", \(ride.route.count) stops"))
            for (index, stop) in ride.route.enumerated() {
              Self.write(
                "  \(index + 1). \(stop.kind == .pickup ? "pick up" : "drop off") \(stop.passengerName) (\(stop.passengers)) at \(Print.place(stop.place))"
              )
            }
          case .taxi(let taxi):
            Self.write(
              "taxi \(taxi.code): \(Print.taxiState(taxi.state))" + (taxi.queuePosition > 0 ? ", #\(taxi.queuePosition) in zone \(taxi.zoneID)" : "")
            )
          case nil:
            break
          }
        }
      }
    }

    /// Unbuffered: each line reaches the screen (or a pipe) as it comes.
    static func write(_ line: String) {
      FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
  }

  struct Accept: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Take an offered job.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The offer's id.") var offerID: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.ride(
        try await gateway.dispatch.acceptOffer(.with { $0.offerID = offerID })
          .ride
      )
    }
  }

  struct Reject: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Decline an offered job (your taxi goes to the tail of the queue).")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The offer's id.") var offerID: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.taxi(
        try await gateway.dispatch.rejectOffer(.with { $0.offerID = offerID })
          .taxi
      )
    }
  }

  struct Delay: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Tell the passenger you will be late.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ride's id.") var rideID: String
    @Option(help: "How many minutes late (1 to 120).") var minutes: UInt32

    func call(_ gateway: GatewayConnection) async throws {
      Print.ride(
        try await gateway.dispatch.reportDelay(
          .with {
            $0.rideID = rideID
            $0.minutes = minutes
          }
        ).ride
      )
    }
  }

  struct Arrived: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "You are at the pickup (the passenger is told).")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ride's id.") var rideID: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.ride(
        try await gateway.dispatch.reportArrived(.with { $0.rideID = rideID })
          .ride
      )
    }
  }

  struct NoShow: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "no-show",
      abstract: "The passenger did not come after the wait the operator sets: the fee is taken, your taxi gets its place back."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ride's id.") var rideID: String
    @Option(help: "A shared ride: the absent rider's reservation (a stop's reservation id).") var reservation = ""

    func call(_ gateway: GatewayConnection) async throws {
      Print.ride(
        try await gateway.dispatch.reportNoShow(
          .with {
            $0.rideID = rideID
            $0.reservationID = reservation
          }
        ).ride
      )
    }
  }

  struct GiveUp: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "give-up",
      abstract: "You cannot do the job after all: it is offered to the next taxi at once, the operators told why."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ride's id.") var rideID: String
    @Option(help: "Why (\"breakdown\", \"road closed\", ...).") var reason: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.ride(
        try await gateway.dispatch.giveUpRide(
          .with {
            $0.rideID = rideID
            $0.reason = reason
          }
        ).ride
      )
    }
  }

  struct Start: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "The passenger is on board; give the code they told you.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ride's id.") var rideID: String
    @Option(help: "The passenger's code.") var code: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.ride(
        try await gateway.dispatch.startRide(
          .with {
            $0.rideID = rideID
            $0.passengerCode = code
          }
        ).ride
      )
    }
  }

  struct Complete: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "The passenger is at the destination: the fare is charged.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ride's id.") var rideID: String

    func call(_ gateway: GatewayConnection) async throws {
      Print.ride(
        try await gateway.dispatch.completeRide(.with { $0.rideID = rideID })
          .ride
      )
    }
  }
}
