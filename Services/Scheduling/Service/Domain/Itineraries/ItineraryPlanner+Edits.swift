import BinarioDomain
import Foundation

/// The fields of a trip its organiser edits.
public enum ItineraryField: String, Sendable, Hashable, CaseIterable {
  case name, destination
  case startDate = "start_date"
  case endDate = "end_date"
  case estimatedCost = "estimated_cost"
}

/// The fields of an event a person on the trip edits.
public enum ItineraryEventField: String, Sendable, Hashable, CaseIterable {
  case title, place, latitude, longitude
  case startsAt = "starts_at"
  case endsAt = "ends_at"
  case notes, cost, train
}

extension ItineraryPlanner {
  /// The organiser changes the trip's `fields` to those of the edit; the members are told.
  public func update(
    userID: String,
    itineraryID: String,
    fields: Set<ItineraryField>,
    name: String,
    destination: String,
    startDate: String,
    endDate: String,
    estimatedCostMinor: Int64,
    currency: String
  ) async throws -> ItineraryDetails {
    let (current, invites) = try visible(itineraryID, to: userID)
    try requireOrganiser(current, userID)
    var check = InputValidation()
    var itinerary = current
    if fields.contains(.name) { itinerary.name = check.requiredText(name, field: "name", what: "a name") }
    if fields.contains(.destination) { itinerary.destination = check.requiredText(destination, field: "destination", what: "a destination") }
    if fields.contains(.startDate) {
      if let date = ServiceDate(iso: startDate) {
        itinerary.startDate = date
      } else {
        check.fail("start_date", "a date as YYYY-MM-DD, not \"\(startDate)\"")
      }
    }
    if fields.contains(.endDate) {
      if let date = ServiceDate(iso: endDate) { itinerary.endDate = date } else { check.fail("end_date", "a date as YYYY-MM-DD, not \"\(endDate)\"") }
    }
    if itinerary.endDate < itinerary.startDate { check.fail("end_date", "the trip ends before it starts") }
    if fields.contains(.estimatedCost) {
      itinerary.estimatedCost = check.money(
        estimatedCostMinor,
        currency: currency.isEmpty ? current.estimatedCost.currency : currency,
        field: "estimated_cost"
      )
    }
    try check.finish()
    let members = Self.memberIDs(itinerary, invites).filter { $0 != userID }
    let notice = Notice(
      userIDs: members,
      content: NotificationContent(
        kind: .itineraryUpdate,
        title: "\(current.name) changed",
        body: "\(itinerary.name): \(itinerary.destination), \(itinerary.startDate) to \(itinerary.endDate).",
        data: ["itinerary_id": itinerary.id]
      )
    )
    try await store.replaceItinerary(itinerary, at: clock.now(), notice: notice, onCommitted: notifications.onCommitted)
    return try await details(of: itinerary, for: userID)
  }

  /// The organiser removes a member or cancels an invite; a person with an account is told. What
  /// a removed member paid or owes stays in the balances.
  public func removeInvite(userID: String, itineraryID: String, inviteID rawID: String) async throws {
    let (itinerary, invites) = try visible(itineraryID, to: userID)
    try requireOrganiser(itinerary, userID)
    let id = rawID.trimmingCharacters(in: .whitespaces)
    guard let invite = invites.first(where: { $0.id == id }) else {
      throw ServiceError.notFound("\(itinerary.name) has no invite \(id)")
    }
    let title: PersonText =
      invite.status == .accepted ? "You are no longer on \(itinerary.name)" : "Your invite to \(itinerary.name) was withdrawn"
    let notice =
      invite.inviteeUserID.isEmpty || invite.status == .rejected || invite.status == .left
      ? nil
      : Notice(
        userIDs: [invite.inviteeUserID],
        content: NotificationContent(
          kind: .itineraryUpdate,
          title: TranslatedText(title),
          body: "The organiser removed you from the trip to \(itinerary.destination).",
          data: ["itinerary_id": itinerary.id]
        )
      )
    try await store.deleteInvite(id: invite.id, itineraryID: itinerary.id, at: clock.now(), notice: notice, onCommitted: notifications.onCommitted)
  }

  /// The event with `fields` taken from `draft` and the others as they were.
  static func merged(_ existing: ItineraryEvent, _ draft: ItineraryEventDraft, fields: Set<ItineraryEventField>) -> ItineraryEventDraft {
    ItineraryEventDraft(
      title: fields.contains(.title) ? draft.title : existing.title,
      place: fields.contains(.place) ? draft.place : existing.place,
      latitude: fields.contains(.latitude) ? draft.latitude : existing.latitude,
      longitude: fields.contains(.longitude) ? draft.longitude : existing.longitude,
      startsAt: fields.contains(.startsAt) ? draft.startsAt : existing.startsAt,
      endsAt: fields.contains(.endsAt) ? draft.endsAt : (fields.contains(.startsAt) && existing.endsAt == existing.startsAt ? nil : existing.endsAt),
      notes: fields.contains(.notes) ? draft.notes : existing.notes,
      cost: fields.contains(.cost) ? draft.cost : existing.cost,
      train: fields.contains(.train) ? draft.train : existing.train
    )
  }

  /// The trip's events as an iCalendar file.
  public func calendar(userID: String, itineraryID: String) async throws -> (content: String, fileName: String) {
    let (itinerary, _) = try visible(itineraryID, to: userID)
    let events = try store.events(itineraryID: itinerary.id)
    return (ItineraryCalendar.render(itinerary, events: events, at: clock.now()), "\(ItineraryCalendar.fileName(itinerary.name)).ics")
  }
}

/// An itinerary as iCalendar (RFC 5545): one VEVENT per event, times in UTC, text escaped and
/// lines folded at 75 octets.
public enum ItineraryCalendar {
  public static func render(_ itinerary: Itinerary, events: [ItineraryEvent], at now: Date) -> String {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Binario//Itineraries//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
    lines.append("X-WR-CALNAME:\(text(itinerary.name))")
    for event in events {
      lines.append("BEGIN:VEVENT")
      lines.append("UID:\(event.id)@binario")
      lines.append("DTSTAMP:\(instant(now))")
      lines.append("DTSTART:\(instant(event.startsAt))")
      lines.append("DTEND:\(instant(event.endsAt > event.startsAt ? event.endsAt : event.startsAt.addingTimeInterval(3600)))")
      lines.append("SUMMARY:\(text(event.title))")
      if !event.place.isEmpty { lines.append("LOCATION:\(text(event.place))") }
      if event.latitude != 0 || event.longitude != 0 {
        lines.append("GEO:\(String(format: "%.6f", event.latitude));\(String(format: "%.6f", event.longitude))")
      }
      var description = event.notes
      if event.cost.amountMinor > 0 { description += (description.isEmpty ? "" : "\n") + "\(event.cost)" }
      if !description.isEmpty { lines.append("DESCRIPTION:\(text(description))") }
      lines.append("END:VEVENT")
    }
    lines.append("END:VCALENDAR")
    return lines.map(fold).joined(separator: "\r\n") + "\r\n"
  }

  /// A name for the file: letters, digits and hyphens.
  static func fileName(_ name: String) -> String {
    let kept = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
    let joined = String(kept).split(separator: "-").joined(separator: "-")
    return joined.isEmpty ? "itinerary" : joined
  }

  /// 20270501T083000Z
  static func instant(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func pad(_ value: Int?, _ width: Int = 2) -> String {
      let text = String(value ?? 0)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(parts.year, 4))\(pad(parts.month))\(pad(parts.day))T\(pad(parts.hour))\(pad(parts.minute))\(pad(parts.second))Z"
  }

  /// TEXT as RFC 5545 writes it: backslash, semicolon and comma escaped, line breaks as \n.
  static func text(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
      .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
  }

  /// A line longer than 75 octets continued on lines that start with a space, never inside a
  /// character.
  static func fold(_ line: String) -> String {
    var folded: [String] = []
    var current = ""
    var octets = 0
    for character in line {
      let size = String(character).utf8.count
      if octets + size > (folded.isEmpty ? 75 : 74) {
        folded.append(current)
        current = ""
        octets = 0
      }
      current.append(character)
      octets += size
    }
    folded.append(current)
    return folded.joined(separator: "\r\n ")
  }
}
