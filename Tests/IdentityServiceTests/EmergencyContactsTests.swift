import Foundation
import IdentityService
import Testing

@Suite("Emergency contacts and alerts")
struct EmergencyContactsTests {
  @Test("add, list, update, remove: only the owner's")
  func crud() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let eve = try await identity.confirmedAccount("eve@example.com", firstName: "Eve")

    let mum = try await identity.domain.addEmergencyContact(userID: ada.id, name: " Mum ", phone: "+39 333 000 0000", channel: .sms)
    #expect(mum.name == "Mum" && mum.phone == "+393330000000")
    let dad = try await identity.domain.addEmergencyContact(userID: ada.id, name: "Dad", phone: "+393331111111", channel: .whatsApp)
    #expect(try await identity.domain.emergencyContacts(userID: ada.id) == [mum, dad])
    #expect(try await identity.domain.emergencyContacts(userID: eve.id).isEmpty)

    let updated = try await identity.domain.updateEmergencyContact(
      userID: ada.id,
      contactID: mum.id,
      changes: EmergencyContactChanges(channel: .some(.whatsApp))
    )
    #expect(updated.channel == .whatsApp && updated.name == "Mum")

    let eveUpdates = await identityError {
      _ = try await identity.domain.updateEmergencyContact(userID: eve.id, contactID: mum.id, changes: EmergencyContactChanges(name: "Eve's"))
    }
    #expect(eveUpdates?.code == "notFound")
    let eveRemoves = await identityError { try await identity.domain.removeEmergencyContact(userID: eve.id, contactID: mum.id) }
    #expect(eveRemoves?.code == "notFound")

    try await identity.domain.removeEmergencyContact(userID: ada.id, contactID: mum.id)
    #expect(try await identity.domain.emergencyContacts(userID: ada.id) == [dad])
  }

  @Test("bad contacts name every bad field")
  func validation() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let error = await identityError { _ = try await identity.domain.addEmergencyContact(userID: ada.id, name: "", phone: "333", channel: nil) }
    #expect(error?.fields == ["channel", "name", "phone"])
    let contact = try await identity.domain.addEmergencyContact(userID: ada.id, name: "Mum", phone: "+393330000000", channel: .sms)
    let update = await identityError {
      _ = try await identity.domain.updateEmergencyContact(
        userID: ada.id,
        contactID: contact.id,
        changes: EmergencyContactChanges(phone: "x", channel: .some(nil))
      )
    }
    #expect(update?.fields == ["channel", "phone"])
  }

  @Test("an alert goes to each contact with the position and a deep link, and is recorded")
  func alertToContacts() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    _ = try await identity.domain.addEmergencyContact(userID: ada.id, name: "Mum", phone: "+393330000000", channel: .sms)
    _ = try await identity.domain.addEmergencyContact(userID: ada.id, name: "Dad", phone: "+393331111111", channel: .whatsApp)

    let alerts = try await identity.domain.sendEmergencyAlert(userID: ada.id, position: (45.4642, 9.19), note: "Fell & hurt ankle")
    #expect(alerts.count == 2)
    let sms = alerts[0]
    #expect(sms.mapsLink == "https://maps.google.com/?q=45.464200,9.190000")
    #expect(sms.text.contains("Ada Lovelace") && sms.text.contains("Fell & hurt ankle") && sms.text.contains(sms.mapsLink))
    #expect(sms.deepLink.hasPrefix("sms:+393330000000?body=EMERGENCY%3A%20Ada%20Lovelace"))
    #expect(sms.deepLink.contains("Fell%20%26%20hurt%20ankle"))
    let whatsApp = alerts[1]
    #expect(whatsApp.deepLink.hasPrefix("https://wa.me/393331111111?text=EMERGENCY"))
    #expect(whatsApp.channel == .whatsApp)

    let recorded = try await identity.store.outboxMessages(recipient: "+393331111111", limit: 5)
    #expect(recorded.map(\.channel) == [.whatsApp])
    #expect(recorded.first?.body == whatsApp.text)
  }

  @Test("signed out (or without contacts) the alert goes to 112")
  func alertTo112() async throws {
    let identity = try await TestIdentity()
    let alerts = try await identity.domain.sendEmergencyAlert(userID: nil, position: (-33.5, -70.25), note: "")
    #expect(alerts.count == 1)
    #expect(alerts[0].recipientPhone == "112")
    #expect(alerts[0].deepLink.hasPrefix("sms:112?body="))
    #expect(alerts[0].mapsLink == "https://maps.google.com/?q=-33.500000,-70.250000")
    #expect(try await identity.store.outboxMessages(recipient: "112", limit: 5).count == 1)
    // Italy's 112 reads Italian, whatever the sender's language.
    #expect(alerts[0].text == "EMERGENZA: qualcuno ha bisogno di aiuto. Posizione: https://maps.google.com/?q=-33.500000,-70.250000")

    let ada = try await identity.confirmedAccount("ada@example.com")
    let lonely = try await identity.domain.sendEmergencyAlert(userID: ada.id, position: (0, 0), note: "help")
    #expect(lonely.map(\.recipientPhone) == ["112"])
    #expect(lonely[0].text.hasPrefix("EMERGENZA: Ada Lovelace ha bisogno di aiuto. Nota: help"), "\(lonely[0].text)")
  }

  @Test("an alert to a person's contacts is in the person's language; to 112 always in Italian")
  func alertLanguage() async throws {
    let identity = try await TestIdentity()
    let bea = try await identity.confirmedAccount("bea@example.com", firstName: "Bea", lastName: "Rossi", language: "it")
    _ = try await identity.domain.addEmergencyContact(userID: bea.id, name: "Mamma", phone: "+393330000000", channel: .sms)
    let italian = try await identity.domain.sendEmergencyAlert(userID: bea.id, position: (45.4642, 9.19), note: "caviglia")
    #expect(italian[0].text.hasPrefix("EMERGENZA: Bea Rossi ha bisogno di aiuto. Nota: caviglia Posizione: "), "\(italian[0].text)")
    let ada = try await identity.confirmedAccount("ada@example.com", language: "en")
    _ = try await identity.domain.addEmergencyContact(userID: ada.id, name: "Mum", phone: "+393331111111", channel: .sms)
    let english = try await identity.domain.sendEmergencyAlert(userID: ada.id, position: (45.4642, 9.19), note: "")
    #expect(english[0].text.hasPrefix("EMERGENCY: Ada Lovelace needs help. Position: "), "\(english[0].text)")
  }

  @Test("without a position the alert says so; the person chooses contacts, 112 or both; each is told in their language")
  func alertChoices() async throws {
    let identity = try await TestIdentity()
    // A first name alone names her.
    let cleo = try await identity.confirmedAccount("cleo@example.com", firstName: "Cleo", lastName: "", language: "en")
    let nowhere = try await identity.domain.sendEmergencyAlert(userID: cleo.id, position: nil, note: "")
    #expect(nowhere.map(\.recipientPhone) == ["112"] && nowhere[0].mapsLink.isEmpty)
    #expect(nowhere[0].text == "EMERGENZA: Cleo ha bisogno di aiuto. Posizione sconosciuta: il suo dispositivo non ha saputo indicarla.")
    let refused = await identityError {
      _ = try await identity.domain.sendEmergencyAlert(userID: cleo.id, position: nil, note: "", recipients: .contacts)
    }
    #expect(refused?.code == "failedPrecondition")
    _ = try await identity.domain.addEmergencyContact(userID: cleo.id, name: "Nonna", phone: "+393330000009", channel: .sms, language: "it")
    _ = try await identity.domain.addEmergencyContact(userID: cleo.id, name: "Sam", phone: "+447700900123", channel: .whatsApp)
    let both = try await identity.domain.sendEmergencyAlert(userID: cleo.id, position: (45.5, 9.2), note: "", recipients: .both)
    #expect(both.map(\.recipientPhone) == ["+393330000009", "+447700900123", "112"])
    #expect(both[0].text.hasPrefix("EMERGENZA: Cleo ha bisogno di aiuto. Posizione: "), "\(both[0].text)")
    #expect(both[1].text.hasPrefix("EMERGENCY: Cleo needs help. Position: "), "\(both[1].text)")
    let only112 = try await identity.domain.sendEmergencyAlert(userID: cleo.id, position: (45.5, 9.2), note: "", recipients: .emergencyNumber)
    #expect(only112.map(\.recipientPhone) == ["112"])
    // Each alert sent is recorded.
    #expect(try await identity.store.outboxMessages(recipient: "112", limit: 10).count == 3)
  }

  @Test(
    "positions outside the globe are refused",
    arguments: [
      (91.0, 0.0, ["latitude"]), (-90.5, 0.0, ["latitude"]), (0.0, 180.01, ["longitude"]), (Double.nan, Double.infinity, ["latitude", "longitude"]),
    ]
  )
  func badPosition(latitude: Double, longitude: Double, fields: [String]) async throws {
    let identity = try await TestIdentity()
    let error = await identityError {
      _ = try await identity.domain.sendEmergencyAlert(userID: nil, position: (latitude, longitude), note: "")
    }
    #expect(error?.fields == fields)
  }

  @Test("percent-encoding keeps only unreserved characters")
  func encoding() {
    #expect(EmergencyAlertComposer.percentEncoded("a b&c=d?é/~._-") == "a%20b%26c%3Dd%3F%C3%A9%2F~._-")
  }
}
