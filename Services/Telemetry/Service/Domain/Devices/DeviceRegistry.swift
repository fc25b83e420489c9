import BinarioDomain
import Foundation

/// Devices and campaigns: registering a board (its token shown once), rotating and revoking its
/// token, deleting it with its readings, sharing it through a campaign; and who sees what: a
/// user sees their own devices, their campaigns' and public campaigns', nothing else.
public struct DeviceRegistry: Sendable {
  let store: TelemetryStore
  let clock: any DomainClock

  public init(store: TelemetryStore, clock: any DomainClock) {
    self.store = store
    self.clock = clock
  }

  /// A new device of `ownerUserID`'s, with its upload token (shown this once). With `key`, the
  /// same key again answers the device it registered with a new token: the first answer may
  /// have been lost, and only a token's hash is kept.
  public func register(ownerUserID: String, name rawName: String, key: IdempotencyKey? = nil) async throws -> (device: Device, token: String) {
    var check = InputValidation()
    let name = check.requiredText(rawName, field: "name", what: "a device name", maxLength: 80)
    try check.finish()
    let token = DeviceToken.generate()
    let id = key.id(prefix: "dev") { "dev_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20) }
    if key != nil, let earlier = try await store.device(id: id), earlier.ownerUserID == ownerUserID {
      _ = try await store.setToken(deviceID: id, hash: DeviceToken.hash(token), at: clock.now())
      return (earlier, token)
    }
    try await store.insertDevice(id: id, ownerUserID: ownerUserID, name: name, tokenHash: DeviceToken.hash(token), at: clock.now())
    return (try await store.device(id: id)!, token)
  }

  /// The devices `userID` may see.
  public func devices(visibleTo userID: String) async throws -> [Device] {
    try await store.visibleDevices(userID: userID)
  }

  /// A new token for the owner's device (the old one stops working at once).
  public func rotateToken(ownerUserID: String, deviceID: String) async throws -> String {
    _ = try await owned(ownerUserID, deviceID)
    let token = DeviceToken.generate()
    _ = try await store.setToken(deviceID: deviceID, hash: DeviceToken.hash(token), at: clock.now())
    return token
  }

  /// Revokes the owner's device's token: no upload until a new one is made.
  public func revokeToken(ownerUserID: String, deviceID: String) async throws {
    _ = try await owned(ownerUserID, deviceID)
    _ = try await store.setToken(deviceID: deviceID, hash: nil, at: clock.now())
  }

  /// Deletes the owner's device and all its readings (the only way a reading is ever deleted).
  public func delete(ownerUserID: String, deviceID: String) async throws {
    _ = try await owned(ownerUserID, deviceID)
    try await store.deleteDevice(id: deviceID)
  }

  /// The device a token uploads for; UNAUTHENTICATED for a malformed, unknown or revoked token
  /// (a deleted account's boards are gone, tokens and all), PERMISSION_DENIED while its owner's
  /// account is disabled.
  public func device(forToken token: String) async throws -> (seq: Int64, device: Device) {
    guard DeviceToken.looksValid(token), let found = try await store.device(tokenHash: DeviceToken.hash(token)) else {
      throw ServiceError.unauthenticated("the device token is not valid (revoked, rotated, or mistyped); its owner can make a new one")
    }
    if found.ownerDisabled {
      throw ServiceError.permissionDenied("the account this board belongs to is disabled; its uploads are refused until an administrator enables it")
    }
    return (found.seq, found.device)
  }

  /// Whether `userID` may see `deviceID`'s readings; NOT_FOUND otherwise (the same answer as for no
  /// such device: others' devices are not revealed).
  public func checkVisible(userID: String, deviceID: String) async throws {
    guard try await store.canSee(userID: userID, deviceID: deviceID) else { throw ServiceError.notFound("no device \(deviceID)") }
  }

  // MARK: - Campaigns

  /// A new campaign; with `key`, the same key again answers the campaign it made.
  public func createCampaign(ownerUserID: String, name rawName: String, isPublic: Bool, key: IdempotencyKey? = nil) async throws -> Campaign {
    let id = key.id(prefix: "cmp") { "cmp_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20) }
    if key != nil, let earlier = try await store.campaign(id: id), earlier.ownerUserID == ownerUserID { return earlier }
    var check = InputValidation()
    let name = check.requiredText(rawName, field: "name", what: "a campaign name", maxLength: 80)
    try check.finish()
    let campaign = Campaign(
      id: id,
      ownerUserID: ownerUserID,
      name: name,
      isPublic: isPublic,
      memberUserIDs: [ownerUserID]
    )
    try await store.insertCampaign(campaign, at: clock.now())
    return campaign
  }

  /// The campaigns `userID` belongs to, and the public ones.
  public func campaigns(visibleTo userID: String) async throws -> [Campaign] {
    try await store.campaigns(visibleTo: userID)
  }

  /// The campaign's owner adds a member.
  public func addMember(ownerUserID: String, campaignID: String, userID: String) async throws {
    guard let campaign = try await store.campaign(id: campaignID), campaign.ownerUserID == ownerUserID else {
      throw ServiceError.notFound("no campaign \(campaignID) of yours")
    }
    try await store.addMember(campaignID: campaign.id, userID: userID)
  }

  /// The device's owner puts it in a campaign they belong to (or, with `nil`, takes it out).
  public func setCampaign(ownerUserID: String, deviceID: String, campaignID: String?) async throws {
    _ = try await owned(ownerUserID, deviceID)
    if let campaignID {
      guard let campaign = try await store.campaign(id: campaignID), campaign.memberUserIDs.contains(ownerUserID) else {
        throw ServiceError.notFound("no campaign \(campaignID) you are a member of")
      }
    }
    try await store.setCampaign(deviceID: deviceID, campaignID: campaignID)
  }

  func owned(_ ownerUserID: String, _ deviceID: String) async throws -> Device {
    guard let device = try await store.device(id: deviceID), device.ownerUserID == ownerUserID else {
      throw ServiceError.notFound("no device \(deviceID) of yours")
    }
    return device
  }
}
