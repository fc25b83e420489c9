import BinarioDomain
import Foundation

/// Shared trip itineraries: an organiser plans, invites friends (or contacts who have not
/// registered yet, whose invite waits for their account), members share events and the
/// estimated cost. To anyone who is neither the organiser nor a member an itinerary does not
/// exist (`NOT_FOUND`). Invitations and changes reach the people concerned through the
/// ``NotificationCentre``, written in the same transaction as the change.
public final class ItineraryPlanner: Sendable {
  let store: SchedulingStore
  let clock: any DomainClock
  let directory: any AccountDirectory
  let notifications: NotificationCentre
  let trains: any ItineraryTrains

  public init(
    store: SchedulingStore,
    clock: any DomainClock,
    directory: any AccountDirectory,
    notifications: NotificationCentre,
    trains: any ItineraryTrains
  ) {
    self.store = store
    self.clock = clock
    self.directory = directory
    self.notifications = notifications
    self.trains = trains
  }

  public func create(
    userID: String,
    name rawName: String,
    destination rawDestination: String,
    startDate rawStart: String,
    endDate rawEnd: String,
    estimatedCostMinor: Int64,
    currency: String,
    key: IdempotencyKey? = nil
  ) async throws -> ItineraryDetails {
    let id = key.id(prefix: "it") { UUID().uuidString.lowercased() }
    if key != nil, let earlier = try store.itinerary(id: id), earlier.organiserID == userID {
      return try await details(of: earlier, for: userID)
    }
    var check = InputValidation()
    let name = check.requiredText(rawName, field: "name", what: "a name")
    let destination = check.requiredText(rawDestination, field: "destination", what: "a destination")
    let start = ServiceDate(iso: rawStart)
    let end = ServiceDate(iso: rawEnd)
    if start == nil { check.fail("start_date", "a date as YYYY-MM-DD, not \"\(rawStart)\"") }
    if end == nil { check.fail("end_date", "a date as YYYY-MM-DD, not \"\(rawEnd)\"") }
    if let start, let end, end < start { check.fail("end_date", "the trip ends before it starts") }
    let cost = check.money(estimatedCostMinor, currency: currency.isEmpty ? "EUR" : currency, field: "estimated_cost")
    try check.finish()
    let itinerary = Itinerary(
      id: id,
      organiserID: userID,
      name: name,
      destination: destination,
      startDate: start!,
      endDate: end!,
      estimatedCost: cost,
      status: .active,
      createdAt: clock.now()
    )
    try await store.insertItinerary(itinerary)
    return try await details(of: itinerary, for: userID)
  }

  /// The active itineraries the user organises or joined.
  public func list(userID: String) async throws -> [ItineraryDetails] {
    var all: [ItineraryDetails] = []
    for itinerary in try store.itineraries(ofUser: userID) { all.append(try await details(of: itinerary, for: userID)) }
    return all
  }

  public func get(userID: String, itineraryID: String) async throws -> ItineraryDetails {
    let (itinerary, _) = try visible(itineraryID, to: userID)
    return try await details(of: itinerary, for: userID)
  }

  /// Deletes (organiser only); the members and pending invitees are told.
  public func delete(userID: String, itineraryID: String) async throws {
    let (itinerary, invites) = try visible(itineraryID, to: userID)
    try requireOrganiser(itinerary, userID)
    let told = invites.filter { ($0.status == .accepted || $0.isOpen) && !$0.inviteeUserID.isEmpty }
    let notice = Notice(
      userIDs: told.map(\.inviteeUserID),
      content: NotificationContent(
        kind: .itineraryUpdate,
        title: "\(itinerary.name) was cancelled",
        body: "The organiser deleted the trip to \(itinerary.destination).",
        data: ["itinerary_id": itinerary.id]
      )
    )
    try await store.markItineraryDeleted(
      id: itinerary.id,
      at: clock.now(),
      notice: notice,
      onCommitted: notifications.onCommitted
    )
  }

  /// Invites a friend by user id, or by email a friend or a contact waiting to register
  /// (organiser only). By email, a registered person who is not a friend yet is sent a friend
  /// request for the organiser, and the invite waits for the friendship
  /// (`ItineraryPlanner+WaitingInvites.swift`).
  public func invite(
    userID: String,
    itineraryID: String,
    inviteeUserID rawInvitee: String?,
    email rawEmail: String?
  )
    async throws -> ItineraryInvite
  {
    let (itinerary, _) = try visible(itineraryID, to: userID)
    try requireOrganiser(itinerary, userID)
    var check = InputValidation()
    var inviteeUserID = rawInvitee?.trimmingCharacters(in: .whitespaces) ?? ""
    var email = ""
    if let rawEmail {
      email = check.email(rawEmail, field: "email")
    } else if inviteeUserID.isEmpty {
      check.fail("user_id", "invite a friend by user id, or a contact by email")
    }
    try check.finish()
    if !email.isEmpty {
      if let account = try await directory.accounts(emails: [email]).first {
        inviteeUserID = account.userID
        email = ""
      } else if try await !directory.isPendingContact(userID: userID, email: email) {
        throw ServiceError.failedPrecondition(
          "\(email) is neither a friend nor one of your contacts; add them as a contact first"
        )
      }
    }
    if inviteeUserID == userID { throw ServiceError.invalid("user_id", "you organise this trip") }
    var awaitsFriendship = false
    if !inviteeUserID.isEmpty, try await !directory.areFriends(userID, inviteeUserID) {
      // By id only friends (an id is learnt from the friends list); by email, a registered
      // person is asked to be a friend and the invite waits for their answer.
      guard rawEmail != nil else {
        throw ServiceError.failedPrecondition("you can invite only your friends; send them a friend request first")
      }
      awaitsFriendship = try await !directory.sendFriendRequest(from: userID, to: inviteeUserID)
    }
    let organiser = try await directory.accounts(ids: [userID]).first?.displayName ?? "A friend"
    let invite = ItineraryInvite(
      id: UUID().uuidString.lowercased(),
      itineraryID: itinerary.id,
      inviteeUserID: inviteeUserID,
      inviteeEmail: email,
      status: .pending,
      invitedAt: clock.now(),
      answeredAt: nil,
      awaitsFriendship: awaitsFriendship
    )
    let notice: Notice? =
      if inviteeUserID.isEmpty {
        nil
      } else if awaitsFriendship {
        // The trip stays theirs to discover once friends; the request is what they answer now.
        Notice(
          userIDs: [inviteeUserID],
          content: NotificationContent(
            kind: .itineraryInvite,
            title: "\(organiser) asked to be your friend",
            body: "Accept their friend request to see their invite to a trip.",
            data: ["friend_request_from": userID]
          )
        )
      } else {
        Notice(userIDs: [inviteeUserID], content: Self.invitation(itinerary, from: organiser, invite))
      }
    do {
      return try await store.insertInvite(invite, notice: notice, onCommitted: notifications.onCommitted)
    } catch StoreConflict.duplicate {
      throw ServiceError.alreadyExists("they are already invited to or a member of \(itinerary.name)")
    }
  }

  /// The invites waiting for the user's answer, with each itinerary's summary. Invites sent to
  /// the user's address before they registered are theirs from now on.
  public func pendingInvites(userID: String) async throws -> [(ItineraryInvite, Itinerary)] {
    try await claimInvites(of: try await directory.accounts(ids: [userID]).first, userID: userID)
    return try store.pendingInvites(userID: userID)
  }

  /// Gives the user the invites sent to their address before they registered, if identity's
  /// `AddressConfirmed` has not yet (``addressConfirmed(userID:email:position:)``).
  private func claimInvites(of account: PeerAccount?, userID: String) async throws {
    if let email = account?.email, !email.isEmpty {
      try await claimEmailInvites(email: email, userID: userID, position: nil)
    }
  }

  /// Accepts (joins; the cost shares change) or rejects an invite of the user's; the organiser
  /// is told.
  public func respond(userID: String, inviteID rawID: String, accept: Bool) async throws -> ItineraryInvite {
    let account = try await directory.accounts(ids: [userID]).first
    try await claimInvites(of: account, userID: userID)
    let id = rawID.trimmingCharacters(in: .whitespaces)
    guard !id.isEmpty else { throw ServiceError.invalid("invite_id", "an invite id is required") }
    guard var invite = try store.invite(id: id), invite.inviteeUserID == userID, !invite.awaitsFriendship,
      let itinerary = try store.itinerary(id: invite.itineraryID), itinerary.status == .active
    else { throw ServiceError.notFound("you have no invite \(id)") }
    guard invite.status == .pending else {
      throw ServiceError.failedPrecondition("you already answered this invite (\(invite.status.rawValue))")
    }
    let name: PersonText = account.map { PersonText(verbatim: $0.displayName) } ?? "Your friend"
    let notice = Notice(
      userIDs: [itinerary.organiserID],
      content: NotificationContent(
        kind: .itineraryUpdate,
        title: accept ? "\(name) joined \(itinerary.name)" : "\(name) declined \(itinerary.name)",
        body: "",
        data: ["itinerary_id": itinerary.id, "invite_id": invite.id]
      )
    )
    let now = clock.now()
    invite.status = accept ? .accepted : .rejected
    invite.answeredAt = now
    try await store.setInviteStatus(id: invite.id, invite.status, at: now, notice: notice, onCommitted: notifications.onCommitted)
    return invite
  }

  /// A member leaves (the shares change); the organiser is told. The organiser deletes instead.
  public func leave(userID: String, itineraryID: String) async throws {
    let (itinerary, invites) = try visible(itineraryID, to: userID)
    guard itinerary.organiserID != userID else {
      throw ServiceError.failedPrecondition("you organise this trip: delete it instead of leaving")
    }
    let membership = invites.first { $0.inviteeUserID == userID && $0.status == .accepted }!
    let name = try await directory.accounts(ids: [userID]).first?.displayName ?? "A member"
    let notice = Notice(
      userIDs: [itinerary.organiserID],
      content: NotificationContent(
        kind: .itineraryUpdate,
        title: "\(name) left \(itinerary.name)",
        body: "",
        data: ["itinerary_id": itinerary.id]
      )
    )
    try await store.setInviteStatus(id: membership.id, .left, at: clock.now(), notice: notice, onCommitted: notifications.onCommitted)
  }

  /// Adds an event (organiser or member); the others are told. With `key`, the same key again
  /// answers the event it added, telling no one again.
  public func addEvent(userID: String, itineraryID: String, _ draft: ItineraryEventDraft, key: IdempotencyKey? = nil) async throws -> ItineraryEvent {
    let (itinerary, invites) = try visible(itineraryID, to: userID)
    let id = key.id(prefix: "ev") { UUID().uuidString.lowercased() }
    if key != nil, let earlier = try store.events(itineraryID: itinerary.id).first(where: { $0.id == id }) { return earlier }
    let event = try checked(draft, id: id, itinerary: itinerary, createdBy: userID)
    try await store.saveEvent(
      event,
      at: clock.now(),
      notice: Self.changeNotice(.added, event, itinerary, invites, by: userID),
      onCommitted: notifications.onCommitted
    )
    return event
  }

  /// Changes an event's `fields` (all of them when `nil`) to the draft's (organiser or member);
  /// the others are told.
  public func updateEvent(
    userID: String,
    itineraryID: String,
    eventID: String,
    _ draft: ItineraryEventDraft,
    fields: Set<ItineraryEventField>? = nil
  ) async throws
    -> ItineraryEvent
  {
    let (itinerary, invites) = try visible(itineraryID, to: userID)
    guard let existing = try store.events(itineraryID: itinerary.id).first(where: { $0.id == eventID }) else {
      throw ServiceError.notFound("\(itinerary.name) has no event \(eventID)")
    }
    let edited = fields.map { Self.merged(existing, draft, fields: $0) } ?? draft
    let event = try checked(edited, id: existing.id, itinerary: itinerary, createdBy: existing.createdBy)
    try await store.saveEvent(
      event,
      at: clock.now(),
      notice: Self.changeNotice(.changed, event, itinerary, invites, by: userID),
      onCommitted: notifications.onCommitted
    )
    return event
  }

  public func deleteEvent(userID: String, itineraryID: String, eventID: String) async throws {
    let (itinerary, invites) = try visible(itineraryID, to: userID)
    guard let event = try store.events(itineraryID: itinerary.id).first(where: { $0.id == eventID }) else {
      throw ServiceError.notFound("\(itinerary.name) has no event \(eventID)")
    }
    _ = try await store.deleteEvent(
      id: event.id,
      itineraryID: itinerary.id,
      at: clock.now(),
      notice: Self.changeNotice(.removed, event, itinerary, invites, by: userID),
      onCommitted: notifications.onCommitted
    )
  }

  // MARK: - Rules

  /// The itinerary and its invites, if `userID` organises it or is a member; else `NOT_FOUND`
  /// (it is not theirs to see, and they are not told it exists).
  func visible(_ rawID: String, to userID: String) throws -> (Itinerary, [ItineraryInvite]) {
    let id = rawID.trimmingCharacters(in: .whitespaces)
    guard !id.isEmpty else { throw ServiceError.invalid("itinerary_id", "an itinerary id is required") }
    let missing = ServiceError.notFound("you have no itinerary \(id)")
    guard let itinerary = try store.itinerary(id: id), itinerary.status == .active else { throw missing }
    let invites = try store.invites(itineraryID: id)
    guard itinerary.organiserID == userID || invites.contains(where: { $0.inviteeUserID == userID && $0.status == .accepted })
    else { throw missing }
    return (itinerary, invites)
  }

  func requireOrganiser(_ itinerary: Itinerary, _ userID: String) throws {
    guard itinerary.organiserID == userID else {
      throw ServiceError.permissionDenied("only the organiser of \(itinerary.name) can do that")
    }
  }

  func details(of itinerary: Itinerary, for userID: String) async throws -> ItineraryDetails {
    let invites = try store.invites(itineraryID: itinerary.id)
    let memberIDs =
      [itinerary.organiserID]
      + invites.filter { $0.status == .accepted }
      .sorted { ($0.answeredAt ?? $0.invitedAt) < ($1.answeredAt ?? $1.invitedAt) }.map(\.inviteeUserID)
    let people = Dictionary(
      try await directory.accounts(ids: memberIDs + invites.map(\.inviteeUserID).filter { !$0.isEmpty }).map { ($0.userID, $0) },
      uniquingKeysWith: { first, _ in first }
    )
    let events = try store.events(itineraryID: itinerary.id)
    let shares = itinerary.estimatedCost.split(into: memberIDs.count)
    let members = zip(memberIDs, shares).map { id, share in
      ItineraryDetails.Member(
        userID: id,
        displayName: people[id]?.displayName ?? "",
        organiser: id == itinerary.organiserID,
        costShare: share,
        email: people[id]?.email ?? ""
      )
    }
    return ItineraryDetails(
      itinerary: itinerary,
      members: members,
      invites: itinerary.organiserID == userID ? invites : invites.filter { $0.inviteeUserID == userID },
      events: events,
      people: people,
      trainLegs: trainLegs(of: events)
    )
  }

  /// The train events' rides as they run now, by event id; a run gone from the timetable (a
  /// new one imported) is left out, the event keeping its planned times.
  public func trainLegs(of events: [ItineraryEvent]) -> [String: ItineraryTrainLeg] {
    var legs: [String: ItineraryTrainLeg] = [:]
    for event in events {
      if let train = event.train, let leg = try? trains.leg(train, field: "train") { legs[event.id] = leg }
    }
    return legs
  }

  private func checked(
    _ draft: ItineraryEventDraft,
    id: String,
    itinerary: Itinerary,
    createdBy: String
  ) throws
    -> ItineraryEvent
  {
    var draft = draft
    if let train = draft.train {
      // A train's ride: when, where and the map position are the timetable's.
      var check = InputValidation()
      if train.ticketID.count > 100 { check.fail("event.ticket_id", "at most 100 characters") }
      try check.finish()
      let leg = try trains.leg(train, field: "event.train")
      if draft.title.trimmingCharacters(in: .whitespaces).isEmpty {
        draft.title = "\(leg.line.isEmpty ? "" : "\(leg.line) ")\(leg.trainNumber) → \(leg.toStation.name)"
      }
      draft.place = leg.fromStation.name
      draft.latitude = leg.fromStation.latitude
      draft.longitude = leg.fromStation.longitude
      draft.startsAt = leg.scheduledDeparture
      draft.endsAt = leg.scheduledArrival
    }
    var check = InputValidation()
    let title = check.requiredText(draft.title, field: "event.title", what: "a title")
    let place = check.optionalText(draft.place, field: "event.place", what: "the place", maxLength: 200)
    let notes = check.optionalText(draft.notes, field: "event.notes", what: "the notes", maxLength: 2000)
    if !(-90 ... 90).contains(draft.latitude) { check.fail("event.latitude", "from -90 to 90") }
    if !(-180 ... 180).contains(draft.longitude) { check.fail("event.longitude", "from -180 to 180") }
    if draft.startsAt == nil { check.fail("event.starts_at", "when the event starts is required") }
    let endsAt = draft.endsAt ?? draft.startsAt
    if let start = draft.startsAt, let endsAt, endsAt < start { check.fail("event.ends_at", "the event ends before it starts") }
    let cost = check.money(
      draft.cost.amountMinor,
      currency: draft.cost.currency.isEmpty ? itinerary.estimatedCost.currency : draft.cost.currency,
      field: "event.cost"
    )
    try check.finish()
    return ItineraryEvent(
      id: id,
      itineraryID: itinerary.id,
      title: title,
      place: place,
      latitude: draft.latitude,
      longitude: draft.longitude,
      startsAt: draft.startsAt!,
      endsAt: endsAt!,
      notes: notes,
      cost: cost,
      createdBy: createdBy,
      train: draft.train
    )
  }

  static func invitation(_ itinerary: Itinerary, from organiser: String, _ invite: ItineraryInvite) -> NotificationContent {
    NotificationContent(
      kind: .itineraryInvite,
      title: "\(organiser) invited you to \(itinerary.name)",
      body: "A trip to \(itinerary.destination), \(itinerary.startDate) to \(itinerary.endDate).",
      data: ["itinerary_id": itinerary.id, "invite_id": invite.id]
    )
  }

  /// What happened to an itinerary's event.
  enum EventChange { case added, changed, removed }

  /// Tells everyone on the itinerary but `author` that an event changed.
  static func changeNotice(
    _ change: EventChange,
    _ event: ItineraryEvent,
    _ itinerary: Itinerary,
    _ invites: [ItineraryInvite],
    by author: String
  ) -> Notice {
    let people = [itinerary.organiserID] + invites.filter { $0.status == .accepted }.map(\.inviteeUserID)
    let title: PersonText =
      switch change {
      case .added: "\(itinerary.name): \(event.title) added"
      case .changed: "\(itinerary.name): \(event.title) changed"
      case .removed: "\(itinerary.name): \(event.title) removed"
      }
    return Notice(
      userIDs: people.filter { $0 != author },
      content: NotificationContent(
        kind: .itineraryUpdate,
        title: TranslatedText(title),
        body: TranslatedText(PersonText(verbatim: event.place)),
        data: ["itinerary_id": itinerary.id, "event_id": event.id]
      )
    )
  }
}
