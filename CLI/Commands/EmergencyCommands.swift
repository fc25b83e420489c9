import ArgumentParser
import BinarioProto
import GRPCCore

struct EmergencyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "emergency",
    abstract: "Your emergency contacts, and sending an alert with your position.",
    subcommands: [List.self, Add.self, Update.self, Remove.self, Alert.self],
    defaultSubcommand: List.self
  )

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "List your emergency contacts.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.listEmergencyContacts(
        .init()
      )
      if response.contacts.isEmpty { print("no emergency contacts yet") }
      for contact in response.contacts { Print.contact(contact) }
    }
  }

  struct Add: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Add an emergency contact.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option var name: String
    @Option(help: "E.164, e.g. +393331234567") var phone: String
    @Option(help: "sms or whatsapp") var channel: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.addEmergencyContact(
        .with {
          $0.name = self.name
          $0.phone = self.phone
          $0.channel = Binario_Identity_V1_ContactChannel(displayName: self.channel) ?? .unspecified
        }
      )
      Print.contact(response.contact)
    }
  }

  struct Update: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Change an emergency contact.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var contactID: String
    @Option var name: String?
    @Option var phone: String?
    @Option(help: "sms or whatsapp") var channel: String?

    func call(_ gateway: GatewayConnection) async throws {
      var request = Binario_Identity_V1_UpdateEmergencyContactRequest()
      request.contactID = self.contactID
      if let name { request.name = name }
      if let phone { request.phone = phone }
      if let channel { request.channel = Binario_Identity_V1_ContactChannel(displayName: channel) ?? .unspecified }
      let response = try await gateway.identity.updateEmergencyContact(
        request
      )
      Print.contact(response.contact)
    }
  }

  struct Remove: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Remove an emergency contact.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var contactID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.identity.removeEmergencyContact(
        .with { $0.contactID = self.contactID }
      )
      print("contact removed")
    }
  }

  struct Alert: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Send your position to your emergency contacts (signed out: to 112).",
      discussion: """
        Without --latitude and --longitude the alert says the position is unknown. A saved session \
        that no longer signs in (expired, signed out elsewhere) does not stop the alert: it goes \
        out signed out, to 112, and says so.
        """
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option var latitude: Double?
    @Option var longitude: Double?
    @Option var note: String = ""
    @Option(help: "Signed in: contacts, 112, or both (default: your contacts, or 112 without any).")
    var to: Recipients?

    enum Recipients: String, ExpressibleByArgument, CaseIterable {
      case contacts
      case emergency = "112"
      case both
    }

    func validate() throws {
      if (latitude == nil) != (longitude == nil) { throw ValidationError("give both --latitude and --longitude, or neither") }
    }

    func call(_ gateway: GatewayConnection) async throws {
      let request = Binario_Identity_V1_SendEmergencyAlertRequest.with {
        if let latitude = self.latitude, let longitude = self.longitude {
          $0.latitude = latitude
          $0.longitude = longitude
        }
        $0.note = self.note
        switch self.to {
        case .contacts: $0.recipients = .contacts
        case .emergency: $0.recipients = .emergencyNumber
        case .both: $0.recipients = .both
        case nil: $0.recipients = .unspecified
        }
      }
      // An emergency is no time for "sign in again": a session that no longer works is dropped
      // for this alert, which goes out signed out (to 112).
      var metadata: Metadata = [:]
      do {
        metadata = try await gateway.signedInIfAny()
      } catch {
        print("your saved session no longer signs in (\(error)); alerting 112 without it")
      }
      let response: Binario_Identity_V1_SendEmergencyAlertResponse
      do {
        response = try await gateway.identity.sendEmergencyAlert(request, metadata: metadata)
      } catch let error as RPCError where error.code == .unauthenticated && !metadata.isEmpty {
        print("your saved session was refused (\(error.message)); alerting 112 without it")
        response = try await gateway.identity.sendEmergencyAlert(request, metadata: [:])
      }
      for message in response.messages {
        print("to \(message.recipientName) \(message.recipientPhone) via \(message.channel.displayName):")
        print("  \(message.text)")
        print("  open: \(message.deepLink)")
      }
    }
  }
}
