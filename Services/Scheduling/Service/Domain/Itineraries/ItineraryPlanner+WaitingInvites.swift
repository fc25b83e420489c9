import BinarioDomain
import Foundation

/// Waiting invites: an invite by email to a registered person who is not the organiser's friend
/// waits for the friend request sent with it; one to an address nobody has registered waits for
/// that account. Identity's events end the wait (``IdentityEvents``), each applied exactly once
/// with its notices.
extension ItineraryPlanner {
  /// `a` and `b` became friends: the invites that waited for it reach their invitees, and each
  /// organiser hears the invite is out.
  public func friendshipStarted(_ a: String, _ b: String, position: EventPosition) async throws {
    let names = try await displayNames([a, b])
    try await store.releaseInvitesAwaitingFriendship(
      between: a,
      and: b,
      notices: { invite, itinerary in
        let organiser = names[itinerary.organiserID] ?? "A friend"
        let invitee = names[invite.inviteeUserID] ?? "Your friend"
        return [
          Notice(userIDs: [invite.inviteeUserID], content: Self.invitation(itinerary, from: organiser, invite)),
          Notice(
            userIDs: [itinerary.organiserID],
            content: NotificationContent(
              kind: .itineraryUpdate,
              title: "\(invitee) accepted your friend request",
              body: "Your invite to \(itinerary.name) is now theirs to answer.",
              data: ["itinerary_id": itinerary.id, "invite_id": invite.id]
            )
          ),
        ]
      },
      position: position,
      at: clock.now(),
      onCommitted: notifications.onCommitted
    )
  }

  /// `to` declined `from`'s friend request: the invites that waited for it are declined, and the
  /// organiser is told.
  public func friendRequestDeclined(from: String, to: String, position: EventPosition) async throws {
    let names = try await displayNames([to])
    try await store.declineInvitesAwaitingFriendship(
      from: from,
      to: to,
      notices: { invite, itinerary in
        let invitee = names[invite.inviteeUserID] ?? "They"
        return [
          Notice(
            userIDs: [itinerary.organiserID],
            content: NotificationContent(
              kind: .itineraryUpdate,
              title: "\(invitee) declined \(itinerary.name)",
              body: "They declined your friend request, so your invite to the trip to \(itinerary.destination) was declined with it.",
              data: ["itinerary_id": itinerary.id, "invite_id": invite.id]
            )
          )
        ]
      },
      position: position,
      at: clock.now(),
      onCommitted: notifications.onCommitted
    )
  }

  /// An account confirmed `email`: the invites sent to that address are theirs. They are told
  /// each invite waits for their answer; each organiser that the person joined Binario.
  public func addressConfirmed(userID: String, email: String, position: EventPosition) async throws {
    try await claimEmailInvites(email: email, userID: userID, position: position)
  }

  func claimEmailInvites(email: String, userID: String, position: EventPosition?) async throws {
    let names = try await displayNames([userID])
    let organisers = try await displayNames(try store.organisersInvited(email: email))
    try await store.claimEmailInvites(
      email: email,
      userID: userID,
      notices: { invite, itinerary in
        let organiser = organisers[itinerary.organiserID] ?? "A friend"
        let invitee = names[userID] ?? email
        return [
          Notice(userIDs: [userID], content: Self.invitation(itinerary, from: organiser, invite)),
          Notice(
            userIDs: [itinerary.organiserID],
            content: NotificationContent(
              kind: .itineraryUpdate,
              title: "\(invitee) joined Binario",
              body: "Your invite to \(itinerary.name) now waits for their answer.",
              data: ["itinerary_id": itinerary.id, "invite_id": invite.id]
            )
          ),
        ]
      },
      position: position,
      at: clock.now(),
      onCommitted: notifications.onCommitted
    )
  }

  /// People's names as others see them, by id (the unknown left out).
  private func displayNames(_ ids: [String]) async throws -> [String: String] {
    guard !ids.isEmpty else { return [:] }
    return Dictionary(
      try await directory.accounts(ids: ids).map { ($0.userID, $0.displayName) },
      uniquingKeysWith: { first, _ in first }
    )
  }
}
