import ArgumentParser
import BinarioProto

struct FriendsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "friends",
    abstract: "Your friends, friend requests, and contacts waiting to register.",
    subcommands: [
      List.self, Requests.self, Request.self, Accept.self, Reject.self, Remove.self, AddContact.self,
      RemoveContact.self,
    ],
    defaultSubcommand: List.self
  )

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "List your friends and contacts waiting to register.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.listFriends(.init())
      if response.friends.isEmpty && response.pendingContacts.isEmpty { print("no friends yet") }
      for friend in response.friends { print(Print.user(friend)) }
      for contact in response.pendingContacts {
        print("\(contact.name) <\(contact.email)>  (pending registration)  [\(contact.contactID)]")
      }
    }
  }

  struct Requests: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "List friend requests to and from you.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.listFriendRequests(
        .init()
      )
      print("incoming:")
      for request in response.incoming { print("  \(request.requestID)  from \(Print.user(request.from))") }
      print("outgoing:")
      for request in response.outgoing { print("  \(request.requestID)  to \(Print.user(request.to))") }
    }
  }

  struct Request: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Ask someone, by email, to be your friend.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option var email: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.sendFriendRequest(
        .with { $0.email = self.email }
      )
      print("friend request \(response.request.requestID) sent to \(self.email)")
    }
  }

  struct Accept: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Accept a friend request.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The request id (see 'binario friends requests').") var requestID: String

    func call(_ gateway: GatewayConnection) async throws {
      try await respond(gateway, requestID: self.requestID, accept: true)
      print("you are now friends")
    }
  }

  struct Reject: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Reject a friend request.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The request id (see 'binario friends requests').") var requestID: String

    func call(_ gateway: GatewayConnection) async throws {
      try await respond(gateway, requestID: self.requestID, accept: false)
      print("request rejected")
    }
  }

  struct Remove: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a friend.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The friend's user id (see 'binario friends').") var userID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.identity.removeFriend(
        .with { $0.userID = self.userID }
      )
      print("friend removed")
    }
  }
}

extension FriendsCommand {
  struct AddContact: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "add-contact",
      abstract: "Save someone by name and email.",
      discussion: """
        Someone not registered yet is listed as pending registration and becomes your friend when \
        they sign up with that address; someone registered is sent a friend request.
        """
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option var name: String
    @Option var email: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.identity.addContact(
        .with {
          $0.name = self.name
          $0.email = self.email
        }
      )
      switch response.outcome {
      case .pendingContact(let contact):
        print("saved \(contact.name) <\(contact.email)>, pending registration [\(contact.contactID)]")
      case .friendRequest(let request):
        print("\(self.email) is registered: friend request \(request.requestID) sent")
      case nil:
        print("saved")
      }
    }
  }

  struct RemoveContact: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove-contact",
      abstract: "Remove a contact waiting to register."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The contact's id (see 'binario friends').") var contactID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.identity.removeContact(
        .with { $0.contactID = self.contactID }
      )
      print("contact removed")
    }
  }
}

private func respond(_ gateway: GatewayConnection, requestID: String, accept: Bool) async throws {
  _ = try await gateway.identity.respondToFriendRequest(
    .with {
      $0.requestID = requestID
      $0.accept = accept
    }
  )
}
