import ArgumentParser
import BinarioProto
import Foundation

/// `binario devices`: your sensor boards and their upload tokens.
struct DevicesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "devices",
    abstract: "Your sensor boards: register one (its upload token shown once), list, rotate or revoke a token, share, delete.",
    subcommands: [Add.self, List.self, RotateToken.self, RevokeToken.self, Share.self, Delete.self]
  )

  struct Add: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Register a board; prints its device token, shown this once.",
      discussion: "binario devices add \"Bike board\" --save-token .dev/bike-board.token"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "A name for the board.") var name: String
    @Option(name: .customLong("save-token"), help: "Also write the token to this file (readable by you only).") var saveToken: String?

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.telemetry.registerDevice(
        .with { $0.name = name }
      )
      Print.device(response.device)
      print("device token (shown once; the board uploads with it): \(response.token)")
      if let saveToken {
        guard FileManager.default.createFile(atPath: saveToken, contents: Data((response.token + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw CLIError("could not write \(saveToken)") }
        print("saved to \(saveToken)")
      }
    }
  }

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The boards you see: yours, your campaigns' and public ones.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.telemetry.listDevices(.init())
      if response.devices.isEmpty { print("no devices (binario devices add NAME registers one)") }
      response.devices.forEach(Print.device)
    }
  }

  struct RotateToken: ConnectedCommand {
    static let configuration = CommandConfiguration(commandName: "rotate-token", abstract: "A new token for your board; the old one stops working.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The device id.") var device: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.telemetry.rotateDeviceToken(
        .with { $0.deviceID = device }
      )
      print("new device token (shown once): \(response.token)")
    }
  }

  struct RevokeToken: ConnectedCommand {
    static let configuration = CommandConfiguration(commandName: "revoke-token", abstract: "Stop your board's token working (until you rotate it).")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The device id.") var device: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.telemetry.revokeDeviceToken(
        .with { $0.deviceID = device }
      )
      print("revoked: \(device) uploads nothing until you rotate its token")
    }
  }

  struct Share: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "share",
      abstract: "Put your board in a campaign you belong to (its members see its readings), or take it out.",
      discussion: "binario devices share dev_… --campaign cmp_…   |   binario devices share dev_… --private"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The device id.") var device: String
    @Option(help: "The campaign id.") var campaign: String?
    @Flag(name: .customLong("private"), help: "Take it out of its campaign.") var makePrivate = false

    func validate() throws {
      guard (campaign == nil) != (!makePrivate) else { throw ValidationError("give --campaign ID or --private") }
    }

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.telemetry.setDeviceCampaign(
        .with {
          $0.deviceID = device
          $0.campaignID = campaign ?? ""
        }
      )
      print(campaign.map { "\(device) is in campaign \($0)" } ?? "\(device) is private")
    }
  }

  struct Delete: ConnectedCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete your board with all its readings.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The device id.") var device: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.telemetry.deleteDevice(.with { $0.deviceID = device })
      print("deleted \(device) and its readings")
    }
  }
}

/// `binario campaigns`: shared measurement campaigns.
struct CampaignsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "campaigns",
    abstract: "Measurement campaigns: their members see the boards put in them; a public one is everyone's.",
    subcommands: [Create.self, List.self, AddMember.self]
  )

  struct Create: ConnectedCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "A new campaign, you its owner.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "Its name.") var name: String
    @Flag(name: .customLong("public"), help: "Everyone sees its boards.") var isPublic = false

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.telemetry.createCampaign(
        .with {
          $0.name = name
          $0.public = isPublic
        }
      )
      print("\(response.campaign.id)  \(response.campaign.name)\(response.campaign.public ? "  (public)" : "")")
    }
  }

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Your campaigns and the public ones.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.telemetry.listCampaigns(.init())
      if response.campaigns.isEmpty { print("no campaigns") }
      for campaign in response.campaigns {
        print("\(campaign.id)  \(campaign.name)\(campaign.public ? "  (public)" : "")  \(campaign.memberUserIds.count) members")
      }
    }
  }

  struct AddMember: ConnectedCommand {
    static let configuration = CommandConfiguration(commandName: "add-member", abstract: "Add a member (an account id) to your campaign.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The campaign id.") var campaign: String
    @Argument(help: "The member's account id (binario me shows yours).") var user: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.telemetry.addCampaignMember(
        .with {
          $0.campaignID = campaign
          $0.userID = user
        }
      )
      print("\(user) is a member of \(campaign)")
    }
  }
}
