import BinarioDomain
import Foundation

/// What scheduling erased of a deleted account.
public struct SchedulingErasure: Sendable, Hashable {
  public let itineraries: Int
  public let notifications: Int
  public let pushDevices: Int
}

/// An account's life as scheduling follows it from identity's events: deleted → its
/// itineraries cancelled (their members told), its memberships, inbox, devices and followed
/// trains erased; a friendship ended → each leaves the other's itineraries, and both are told.
/// Each change commits with the event's position (exactly once).
public struct AccountLifecycle: Sendable {
  let store: SchedulingStore
  let clock: any DomainClock
  let notifications: NotificationCentre

  public init(store: SchedulingStore, clock: any DomainClock, notifications: NotificationCentre) {
    self.store = store
    self.clock = clock
    self.notifications = notifications
  }

  public func accountDeleted(userID: String, email: String, position: EventPosition) async throws -> SchedulingErasure {
    let organised = try store.itineraries(ofUser: userID).filter { $0.organiserID == userID }
    let notices = try organised.map { itinerary in
      Notice(
        userIDs: try members(of: itinerary, except: userID),
        content: NotificationContent(
          kind: .itineraryUpdate,
          title: "\(itinerary.name) was cancelled",
          body: "Its organiser left Binario, so the trip to \(itinerary.destination) is no longer planned.",
          data: ["itinerary_id": itinerary.id]
        )
      )
    }
    return try await store.eraseAccount(
      userID: userID,
      email: email,
      notices: notices,
      position: position,
      at: clock.now(),
      onCommitted: notifications.onCommitted
    )
  }

  /// `a` and `b` are no longer friends: each leaves the other's itineraries. The member hears
  /// which trip they left, the organiser who left it.
  public func friendshipEnded(_ a: String, _ b: String, position: EventPosition) async throws {
    var notices: [Notice] = []
    for (organiser, member) in [(a, b), (b, a)] {
      for itinerary in try store.itineraries(ofUser: organiser) where itinerary.organiserID == organiser {
        guard try members(of: itinerary, except: organiser).contains(member) else { continue }
        let data = ["itinerary_id": itinerary.id]
        notices.append(
          Notice(
            userIDs: [member],
            content: NotificationContent(
              kind: .itineraryUpdate,
              title: "You left \(itinerary.name)",
              body: "You and its organiser are no longer friends, so you are no longer part of the trip to \(itinerary.destination).",
              data: data
            )
          )
        )
        notices.append(
          Notice(
            userIDs: [organiser],
            content: NotificationContent(
              kind: .itineraryUpdate,
              title: "A member left \(itinerary.name)",
              body: "Someone you are no longer friends with is no longer part of the trip to \(itinerary.destination).",
              data: data
            )
          )
        )
      }
    }
    try await store.endItineraryMemberships(
      between: a,
      and: b,
      notices: notices,
      position: position,
      at: clock.now(),
      onCommitted: notifications.onCommitted
    )
  }

  /// Who is told of a change to `itinerary`: its accepted and invited members with an account.
  func members(of itinerary: Itinerary, except userID: String) throws -> [String] {
    try store.invites(itineraryID: itinerary.id)
      .filter { ($0.status == .accepted || $0.isOpen) && !$0.inviteeUserID.isEmpty && $0.inviteeUserID != userID }
      .map(\.inviteeUserID)
  }
}
