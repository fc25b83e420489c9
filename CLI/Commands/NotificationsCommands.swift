import ArgumentParser
import BinarioProto
import Foundation

struct NotificationsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notifications",
    abstract: "Your inbox, its live stream, delivery preferences and push devices.",
    subcommands: [List.self, Watch.self, Read.self, Preferences.self, Devices.self],
    defaultSubcommand: List.self
  )

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Your notifications, newest first (* unread).")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Flag(help: "Only unread ones.") var unread = false
    @Option(help: "How many (1-100).") var pageSize: UInt32 = 20
    @Option(help: "The page token the previous page printed.") var page: String = ""

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.notifications.listNotifications(
        .with {
          $0.unreadOnly = self.unread
          $0.pageSize = self.pageSize
          $0.pageToken = self.page
        }
      )
      print("\(response.unreadCount) unread")
      for notification in response.notifications { Print.notification(notification) }
      if !response.nextPageToken.isEmpty { print("more: --page \(response.nextPageToken)") }
    }
  }

  struct Watch: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print each notification as it arrives, until interrupted.",
      discussion: "With --cursor, first everything after that cursor (each notification prints its own)."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "Resume after this notification's cursor.") var cursor: String = ""
    @Option(help: "Stop after this many notifications (for scripts); default: until interrupted.") var count: Int?

    func call(_ gateway: GatewayConnection) async throws {
      FileHandle.standardOutput.write(Data("watching your notifications (Ctrl-C to stop)\n".utf8))
      try await gateway.notifications.watchNotifications(
        .with { $0.cursor = self.cursor }
      ) { response in
        var printed = 0
        for try await message in response.messages {
          // Unbuffered: each arrives on screen (or in a pipe) as it comes.
          FileHandle.standardOutput.write(Data(Print.notificationText(message.notification).utf8))
          printed += 1
          if let count = self.count, printed >= count { return }
        }
      }
    }
  }

  struct Read: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Mark notifications read.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "Notification ids.") var ids: [String] = []
    @Flag(help: "All of them.") var all = false

    func call(_ gateway: GatewayConnection) async throws {
      guard self.all || !self.ids.isEmpty else { throw ValidationError("name notification ids, or pass --all") }
      let response = try await gateway.notifications.markNotificationsRead(
        .with {
          $0.notificationIds = self.ids
          $0.all = self.all
        }
      )
      print("marked \(response.marked) read; \(response.unreadCount) unread")
    }
  }

  struct Preferences: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show, or set, the channels your notifications go out on (at least one stays on)."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "on or off") var push: Switch?
    @Option(help: "on or off") var email: Switch?
    @Option(help: "on or off") var sms: Switch?

    enum Switch: String, ExpressibleByArgument {
      case on, off
      var isOn: Bool { self == .on }
    }

    func call(_ gateway: GatewayConnection) async throws {
      var preferences = try await gateway.notifications.getNotificationPreferences(
        .init()
      ).preferences
      if self.push != nil || self.email != nil || self.sms != nil {
        if let push { preferences.push = push.isOn }
        if let email { preferences.email = email.isOn }
        if let sms { preferences.sms = sms.isOn }
        preferences = try await gateway.notifications.setNotificationPreferences(
          .with { $0.preferences = preferences }
        ).preferences
      }
      func state(_ on: Bool) -> String { on ? "on" : "off" }
      print("push \(state(preferences.push)), email \(state(preferences.email)), sms \(state(preferences.sms))")
    }
  }

  struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "The phones and browsers your notifications are pushed to.",
      subcommands: [ListDevices.self, Add.self, Remove.self],
      defaultSubcommand: ListDevices.self
    )

    struct ListDevices: ConnectedCommand {
      static let configuration = CommandConfiguration(commandName: "list", abstract: "Your push devices.")
      @OptionGroup var gateway: GatewayConnectionOptions

      func call(_ gateway: GatewayConnection) async throws {
        let response = try await gateway.notifications.listPushDevices(
          .init()
        )
        if response.devices.isEmpty { print("no push devices") }
        for device in response.devices {
          print("\(device.deviceID)  \(device.name)  \(String(describing: device.platform))  \(device.token.prefix(16))…")
        }
      }
    }

    struct Add: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Register a device's push token.")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Option(help: "fcm, apns or web-push") var platform: Platform
      @Option(help: "The provider's token for the device.") var token: String
      @Option(help: "A name to know it by.") var name: String = ""

      enum Platform: String, ExpressibleByArgument {
        case fcm, apns
        case webPush = "web-push"
      }

      func call(_ gateway: GatewayConnection) async throws {
        let response = try await gateway.notifications.registerPushDevice(
          .with {
            $0.platform =
              switch self.platform {
              case .fcm: .fcm
              case .apns: .apns
              case .webPush: .webPush
              }
            $0.token = self.token
            $0.name = self.name
          }
        )
        print("registered device \(response.device.deviceID)")
      }
    }

    struct Remove: ConnectedCommand {
      static let configuration = CommandConfiguration(abstract: "Stop pushing to a device.")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument(help: "The device id (see 'binario notifications devices').") var deviceID: String

      func call(_ gateway: GatewayConnection) async throws {
        _ = try await gateway.notifications.removePushDevice(
          .with { $0.deviceID = self.deviceID }
        )
        print("removed device \(self.deviceID)")
      }
    }
  }
}
