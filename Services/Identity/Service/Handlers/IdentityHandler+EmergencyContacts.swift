import BinarioAuth
import BinarioDomain
import BinarioProto
import GRPCCore

extension IdentityHandler {
  public func addEmergencyContact(
    request: Binario_Identity_V1_AddEmergencyContactRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_AddEmergencyContactResponse {
    let userID = try caller().userID
    let contact = try await domain.addEmergencyContact(
      userID: userID,
      name: request.name,
      phone: request.phone,
      channel: ContactChannel(proto: request.channel),
      language: request.language,
      key: try IdempotencyKey(caller: userID, key: request.idempotencyKey)
    )
    return .with { $0.contact = Binario_Identity_V1_EmergencyContact(contact) }
  }

  public func listEmergencyContacts(
    request: Binario_Identity_V1_ListEmergencyContactsRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ListEmergencyContactsResponse {
    let contacts = try await domain.emergencyContacts(userID: try caller().userID)
    return .with { $0.contacts = contacts.map(Binario_Identity_V1_EmergencyContact.init) }
  }

  public func updateEmergencyContact(
    request: Binario_Identity_V1_UpdateEmergencyContactRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_UpdateEmergencyContactResponse {
    let changes = EmergencyContactChanges(
      name: request.hasName ? request.name : nil,
      phone: request.hasPhone ? request.phone : nil,
      channel: request.hasChannel ? .some(ContactChannel(proto: request.channel)) : nil,
      language: request.hasLanguage ? request.language : nil
    )
    let contact = try await domain.updateEmergencyContact(
      userID: try caller().userID,
      contactID: request.contactID,
      changes: changes
    )
    return .with { $0.contact = Binario_Identity_V1_EmergencyContact(contact) }
  }

  public func removeEmergencyContact(
    request: Binario_Identity_V1_RemoveEmergencyContactRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_RemoveEmergencyContactResponse {
    try await domain.removeEmergencyContact(userID: try caller().userID, contactID: request.contactID)
    return .init()
  }

  /// Public: signed in (through the gateway) it alerts the caller's contacts; otherwise 112.
  public func sendEmergencyAlert(
    request: Binario_Identity_V1_SendEmergencyAlertRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_SendEmergencyAlertResponse {
    let alerts = try await domain.sendEmergencyAlert(
      userID: CallerIdentity.current?.userID,
      position: request.hasLatitude || request.hasLongitude ? (request.latitude, request.longitude) : nil,
      note: request.note,
      recipients: EmergencyRecipients(request.recipients)
    )
    return .with { $0.messages = alerts.map(Binario_Identity_V1_EmergencyAlertMessage.init) }
  }
}

extension EmergencyRecipients {
  init(_ recipients: Binario_Identity_V1_EmergencyRecipients) {
    switch recipients {
    case .contacts: self = .contacts
    case .emergencyNumber: self = .emergencyNumber
    case .both: self = .both
    case .unspecified, .UNRECOGNIZED: self = .contactsOrEmergencyNumber
    }
  }
}
