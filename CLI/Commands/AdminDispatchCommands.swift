import ArgumentParser
import BinarioProto
import Foundation
import SwiftProtobuf

extension GatewayConnection {
  /// The user id of the account with `email` (an admin's lookup).
  func userID(email: String) async throws -> String {
    try await identity.getAccount(.with { $0.account = .with { $0.email = email } })
      .profile.userID
  }
}

/// `binario admin taxis list|add|edit|delete`.
struct AdminTaxisCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "taxis",
    abstract: "The fleet: list, add, edit and delete taxis, link them to drivers.",
    subcommands: [List.self, Add.self, Edit.self, Delete.self],
    defaultSubcommand: List.self
  )

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Every taxi, with its driver and state.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.dispatch.listTaxis(.init())
      if response.taxis.isEmpty { print("no taxis") }
      response.taxis.forEach(Print.taxi)
    }
  }

  struct Add: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a taxi.",
      discussion: "binario admin taxis add --code MI-001 --plate AB123CD --driver-email driver@example.com"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "The company's code for it (its id).") var code: String
    @Option var plate: String
    @Option(help: "Seats for passengers (default 4).") var capacity: UInt32 = 4
    @Option(help: "The driver's account email (a driver account; see admin drivers add).") var driverEmail: String?

    func call(_ gateway: GatewayConnection) async throws {
      var driver = ""
      if let driverEmail { driver = try await gateway.userID(email: driverEmail) }
      let response = try await gateway.dispatch.createTaxi(
        .with {
          $0.taxi = .with {
            $0.code = code
            $0.plate = plate
            $0.capacity = capacity
            $0.driverUserID = driver
          }
        }
      )
      Print.taxi(response.taxi)
    }
  }

  struct Edit: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Change a taxi's plate, capacity or driver.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The taxi's code.") var code: String
    @Option var plate: String?
    @Option var capacity: UInt32?
    @Option(help: "Link it to this driver's account.") var driverEmail: String?
    @Flag(help: "Unlink its driver.") var noDriver = false

    func call(_ gateway: GatewayConnection) async throws {
      let current = try await gateway.dispatch.listTaxis(.init())
        .taxis.first { $0.code.caseInsensitiveCompare(code) == .orderedSame }
      guard let current else { throw CLIError("no taxi \(code)") }
      var driver = current.driverUserID
      if noDriver { driver = "" } else if let driverEmail { driver = try await gateway.userID(email: driverEmail) }
      let response = try await gateway.dispatch.updateTaxi(
        .with {
          $0.taxi = .with {
            $0.code = code
            $0.plate = plate ?? ""
            $0.capacity = capacity ?? 0
            $0.driverUserID = driver
          }
        }
      )
      Print.taxi(response.taxi)
    }
  }

  struct Delete: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Delete a taxi that is not on a job.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The taxi's code.") var code: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.dispatch.deleteTaxi(.with { $0.code = code })
      print("taxi \(code) deleted")
    }
  }
}

/// `binario admin drivers list|add|delete`: driver accounts (identity) and their taxis (dispatch).
struct AdminDriversCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "drivers",
    abstract: "Driver accounts and the taxis they drive: list, add (optionally with a taxi), delete.",
    subcommands: [List.self, Add.self, Delete.self],
    defaultSubcommand: List.self
  )

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Every driver account, with its taxi.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let taxis = try await gateway.dispatch.listTaxis(.init()).taxis
      var token = ""
      var printed = 0
      repeat {
        let page = try await gateway.identity.listAccounts(
          .with {
            $0.role = .driver
            $0.pageSize = 200
            $0.pageToken = token
          }
        )
        for account in page.accounts {
          let taxi = taxis.first { $0.driverUserID == account.userID }
          print(
            "\(account.email) \(Print.name(account.firstName, account.lastName)) [\(account.userID)]: "
              + (taxi.map { "taxi \($0.code), \(Print.taxiState($0.state))" } ?? "no taxi")
          )
          printed += 1
        }
        token = page.nextPageToken
      } while !token.isEmpty
      if printed == 0 { print("no drivers") }
    }
  }

  struct Add: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Create a driver account (identity) and link it to a taxi.",
      discussion: "binario admin drivers add --email dino@example.com --first-name Dino --phone +393330000001 --taxi MI-001"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var password: PasswordOptions
    @Option var email: String
    @Option var firstName: String
    @Option var lastName: String = ""
    @Option(help: "E.164, e.g. +393331234567") var phone: String = ""
    @Option(help: "The taxi they drive (its code).") var taxi: String?

    func call(_ gateway: GatewayConnection) async throws {
      let profile = try await gateway.identity.createDriver(
        try .with {
          $0.email = email
          $0.password = try password.read(prompt: "The driver's password: ")
          $0.firstName = firstName
          $0.lastName = lastName
          $0.phone = phone
        }
      ).profile
      print("driver \(profile.email) [\(profile.userID)] created")
      if let taxi {
        let linked = try await gateway.dispatch.updateTaxi(
          .with {
            $0.taxi = .with {
              $0.code = taxi
              $0.driverUserID = profile.userID
            }
          }
        )
        Print.taxi(linked.taxi)
      }
    }
  }

  struct Delete: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Unlink a driver from their taxi and delete their account.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option var email: String

    func call(_ gateway: GatewayConnection) async throws {
      let userID = try await gateway.userID(email: email)
      let taxis = try await gateway.dispatch.listTaxis(.init()).taxis
      for taxi in taxis where taxi.driverUserID == userID {
        _ = try await gateway.dispatch.updateTaxi(
          .with {
            $0.taxi = .with {
              $0.code = taxi.code
              $0.driverUserID = ""
            }
          }
        )
        print("taxi \(taxi.code) has no driver now")
      }
      _ = try await gateway.identity.deleteDriver(
        .with { $0.account = .with { $0.userID = userID } }
      )
      print("the driver's account is deleted")
    }
  }
}

/// `binario admin zones`: the taxi zones and the tariff.
struct AdminZonesCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(commandName: "zones", abstract: "The city's taxi zones, their neighbours, and the tariff.")
  @OptionGroup var gateway: GatewayConnectionOptions

  func call(_ gateway: GatewayConnection) async throws {
    let response = try await gateway.dispatch.listZones(.init())
    for zone in response.zones {
      print("\(zone.zoneID) \(zone.name): \(zone.border.count) corners; neighbours \(zone.neighbourZoneIds.joined(separator: ", "))")
    }
    let tariff = response.tariff
    print(
      "Tariff: \(Print.money(tariff.baseFare)) + \(Print.money(tariff.perKilometre))/km (estimates ×\(tariff.detourFactor)); "
        + "cancellation fee \(Print.money(tariff.cancellationFee)) after \(tariff.freeCancellationSeconds) s"
    )
  }
}

/// `binario admin monitor [--watch]`: the control room.
struct AdminMonitorCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "monitor",
    abstract: "The control room: every zone's queue, waiting requests and rides under way (live with --watch)."
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @Flag(help: "Print a new picture after every change (Ctrl-C to stop).") var watch = false
  @Option(help: "With --watch: stop after this many pictures.") var count: Int?

  func call(_ gateway: GatewayConnection) async throws {
    guard watch else {
      Print.monitor(try await gateway.dispatch.getMonitorSnapshot(.init()).snapshot)
      return
    }
    try await gateway.dispatch.watchMonitor(.init()) { response in
      var printed = 0
      for try await message in response.messages {
        FileHandle.standardOutput.write(Data(Print.monitorText(message.snapshot).utf8))
        printed += 1
        if let count, printed >= count { return }
      }
    }
  }
}

/// `binario admin alerts [--acknowledge ID]`: what the control room was told (no taxi, missed
/// offers, a silent taxi, a job given up), kept until an admin has seen to it.
struct AdminAlertsCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "alerts",
    abstract: "The control room's alerts, open then seen to; --acknowledge ID once you have seen to one."
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @Option(help: "Mark this alert seen to (it leaves the open alerts).") var acknowledge: String?

  func call(_ gateway: GatewayConnection) async throws {
    if let acknowledge {
      let alert = try await gateway.dispatch.acknowledgeTaxiAlert(.with { $0.alertID = acknowledge }).alert
      print(Print.alertText(alert))
      return
    }
    let response = try await gateway.dispatch.listTaxiAlerts(.init())
    print(response.open.isEmpty ? "No open alerts." : "Open:")
    for alert in response.open { print("  " + Print.alertText(alert)) }
    if !response.acknowledged.isEmpty { print("Seen to:") }
    for alert in response.acknowledged { print("  " + Print.alertText(alert)) }
  }
}
