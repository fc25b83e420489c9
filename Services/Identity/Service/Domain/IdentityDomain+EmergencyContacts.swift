import BinarioDomain
import Foundation

extension IdentityDomain {
  public func addEmergencyContact(
    userID: String,
    name: String,
    phone: String,
    channel: ContactChannel?
  ) async throws -> EmergencyContact {
    _ = try await callerAccount(userID)
    var check = InputValidation()
    let name = check.requiredText(name, field: "name", what: "a name")
    let phone = check.phone(phone, field: "phone")
    if channel == nil { check.fail("channel", "choose SMS or WhatsApp") }
    try check.finish()
    let existing = try await store.emergencyContacts(of: userID)
    guard existing.count < policy.maximumEmergencyContacts else {
      throw ServiceError.failedPrecondition(
        "you already have \(existing.count) emergency contacts, the most allowed; remove one first"
      )
    }
    let contact = EmergencyContact(id: Self.newID(), name: name, phone: phone, channel: channel ?? .sms)
    try await store.insertEmergencyContact(contact, accountID: userID, at: clock.now())
    return contact
  }

  public func emergencyContacts(userID: String) async throws -> [EmergencyContact] {
    _ = try await callerAccount(userID)
    return try await store.emergencyContacts(of: userID)
  }

  /// Changes the given fields of one of the caller's contacts; another's is `NOT_FOUND`.
  public func updateEmergencyContact(
    userID: String,
    contactID rawID: String,
    changes: EmergencyContactChanges
  ) async throws -> EmergencyContact {
    let contactID = try Self.requiredID(rawID, field: "contact_id", what: "a contact id")
    guard var contact = try await store.emergencyContact(id: contactID, accountID: userID) else {
      throw ServiceError.notFound("you have no emergency contact \(contactID)")
    }
    var check = InputValidation()
    if let name = changes.name { contact.name = check.requiredText(name, field: "name", what: "a name") }
    if let phone = changes.phone { contact.phone = check.phone(phone, field: "phone") }
    if let channel = changes.channel {
      if let channel { contact.channel = channel } else { check.fail("channel", "choose SMS or WhatsApp") }
    }
    try check.finish()
    guard try await store.updateEmergencyContact(contact, accountID: userID) else {
      throw ServiceError.notFound("you have no emergency contact \(contactID)")
    }
    return contact
  }

  public func removeEmergencyContact(userID: String, contactID rawID: String) async throws {
    let contactID = try Self.requiredID(rawID, field: "contact_id", what: "a contact id")
    guard try await store.deleteEmergencyContact(id: contactID, accountID: userID) else {
      throw ServiceError.notFound("you have no emergency contact \(contactID)")
    }
  }

  /// Composes an alert with the position for each of the caller's emergency contacts and sends
  /// it (records it in the outbox). Signed out (`userID` nil), or signed in without contacts, one
  /// alert goes to the emergency number 112: an alert must reach someone.
  public func sendEmergencyAlert(
    userID: String?,
    latitude: Double,
    longitude: Double,
    note rawNote: String
  ) async throws -> [EmergencyAlert] {
    var check = InputValidation()
    if !latitude.isFinite || !(-90 ... 90).contains(latitude) {
      check.fail("latitude", "the latitude must be between -90 and 90")
    }
    if !longitude.isFinite || !(-180 ... 180).contains(longitude) {
      check.fail("longitude", "the longitude must be between -180 and 180")
    }
    let note = rawNote.trimmingCharacters(in: .whitespacesAndNewlines)
    if note.count > 500 { check.fail("note", "the note is longer than 500 characters") }
    try check.finish()

    var senderName: String?
    var contacts: [EmergencyContact] = []
    var language = RequestLanguage.current
    if let userID {
      let account = try await callerAccount(userID)
      senderName = "\(account.firstName) \(account.lastName)"
      language = account.language
      contacts = try await store.emergencyContacts(of: userID)
    }
    let recipients: [(name: String, phone: String, channel: ContactChannel)] =
      contacts.isEmpty
      ? [("Emergency services", EmergencyAlertComposer.emergencyNumber, .sms)]
      : contacts.map { ($0.name, $0.phone, $0.channel) }
    var alerts: [EmergencyAlert] = []
    for recipient in recipients {
      let alert = EmergencyAlertComposer.alert(
        senderName: senderName,
        note: note,
        latitude: latitude,
        longitude: longitude,
        recipientName: recipient.name,
        recipientPhone: recipient.phone,
        channel: recipient.channel,
        language: language
      )
      try await messageSender.send(TextMessage(channel: alert.channel, to: alert.recipientPhone, body: alert.text))
      alerts.append(alert)
    }
    return alerts
  }
}
