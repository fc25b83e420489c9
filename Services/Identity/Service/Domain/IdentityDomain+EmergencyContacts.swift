import BinarioDomain
import Foundation

extension IdentityDomain {
  /// A new emergency contact; with `key`, the same key again answers the contact it added.
  public func addEmergencyContact(
    userID: String,
    name: String,
    phone: String,
    channel: ContactChannel?,
    language rawLanguage: String = "",
    key: IdempotencyKey? = nil
  ) async throws -> EmergencyContact {
    _ = try await callerAccount(userID)
    let id = key.id(prefix: "ec") { Self.newID() }
    if key != nil, let earlier = try await store.emergencyContact(id: id, accountID: userID) { return earlier }
    var check = InputValidation()
    let name = check.requiredText(name, field: "name", what: "a name")
    let phone = check.phone(phone, field: "phone")
    if channel == nil { check.fail("channel", "choose SMS or WhatsApp") }
    let language = Self.contactLanguage(rawLanguage, &check)
    try check.finish()
    let existing = try await store.emergencyContacts(of: userID)
    guard existing.count < policy.maximumEmergencyContacts else {
      throw ServiceError.failedPrecondition(
        "you already have \(existing.count) emergency contacts, the most allowed; remove one first"
      )
    }
    let contact = EmergencyContact(id: id, name: name, phone: phone, channel: channel ?? .sms, language: language)
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
    if let language = changes.language { contact.language = Self.contactLanguage(language, &check) }
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

  /// A contact's language: `it`, `en`, or empty for the sender's (`nil`).
  static func contactLanguage(_ raw: String, _ check: inout InputValidation) -> Language? {
    let tag = raw.trimmingCharacters(in: .whitespaces)
    guard !tag.isEmpty else { return nil }
    guard let language = Language(tag: tag) else {
      check.fail("language", "\"it\", \"en\", or empty for yours")
      return nil
    }
    return language
  }

  /// Composes an alert with the position (or words saying it is unknown) for each recipient and
  /// sends it (records it in the outbox). Signed out (`userID` nil) the alert goes to the
  /// emergency number 112; signed in, to `recipients`, and to 112 when they have no contacts
  /// and chose none: an alert must reach someone. Each is written in its recipient's language:
  /// a contact's own, else the sender's; Italian to 112.
  public func sendEmergencyAlert(
    userID: String?,
    position: (latitude: Double, longitude: Double)?,
    note rawNote: String,
    recipients: EmergencyRecipients = .contactsOrEmergencyNumber
  ) async throws -> [EmergencyAlert] {
    var check = InputValidation()
    if let position {
      if !position.latitude.isFinite || !(-90 ... 90).contains(position.latitude) {
        check.fail("latitude", "the latitude must be between -90 and 90")
      }
      if !position.longitude.isFinite || !(-180 ... 180).contains(position.longitude) {
        check.fail("longitude", "the longitude must be between -180 and 180")
      }
    }
    let note = rawNote.trimmingCharacters(in: .whitespacesAndNewlines)
    if note.count > 500 { check.fail("note", "the note is longer than 500 characters") }
    try check.finish()

    var senderName: String?
    var contacts: [EmergencyContact] = []
    var language = RequestLanguage.current
    if let userID {
      let account = try await callerAccount(userID)
      senderName = Self.alertName(of: account)
      language = account.language
      contacts = try await store.emergencyContacts(of: userID)
    }
    // Named in the sender's language: the alerts sent are shown to them.
    let servicesName: PersonText = "Emergency services"
    let emergencyServices = EmergencyContact(
      id: "112",
      name: servicesName.rendered(in: language),
      phone: EmergencyAlertComposer.emergencyNumber,
      channel: .sms,
      language: .italian
    )
    let chosen: [EmergencyContact]
    switch userID == nil ? .emergencyNumber : recipients {
    case .contactsOrEmergencyNumber: chosen = contacts.isEmpty ? [emergencyServices] : contacts
    case .contacts:
      guard !contacts.isEmpty else {
        throw ServiceError.failedPrecondition("you have no emergency contacts: add one, or alert 112")
      }
      chosen = contacts
    case .emergencyNumber: chosen = [emergencyServices]
    case .both: chosen = contacts + [emergencyServices]
    }
    var alerts: [EmergencyAlert] = []
    for recipient in chosen {
      let alert = EmergencyAlertComposer.alert(
        senderName: senderName,
        note: note,
        position: position,
        recipientName: recipient.name,
        recipientPhone: recipient.phone,
        channel: recipient.channel,
        language: recipient.language ?? language
      )
      try await messageSender.send(TextMessage(channel: alert.channel, to: alert.recipientPhone, body: alert.text))
      alerts.append(alert)
    }
    return alerts
  }

  /// The sender as an alert names them: their names as given (a first name alone is enough),
  /// else their email address.
  static func alertName(of account: Account) -> String {
    let name = [account.firstName, account.lastName].map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    return name.isEmpty ? account.email : name.joined(separator: " ")
  }
}
