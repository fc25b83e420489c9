import BinarioStorage
import Foundation
import GRDB

extension TelemetryStore {
  static func device(_ row: Row) -> Device {
    Device(
      id: row["id"],
      ownerUserID: row["owner_user_id"],
      name: row["name"],
      campaignID: row["campaign_id"],
      hasToken: (row["token_hash"] as Data?) != nil,
      tokenIssuedAt: (row["token_issued_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
      createdAt: Date(timeIntervalSince1970: row["created_at"]),
      lastSeenAt: (row["last_seen_at"] as Double?).map(Date.init(timeIntervalSince1970:))
    )
  }

  /// Inserts the device unless one with `id` exists already (a keyed write sent again).
  public func insertDevice(id: String, ownerUserID: String, name: String, tokenHash: Data? = nil, at instant: Date) async throws {
    try await pool.write { db in
      guard try !db.hasRow(in: "device", id: id) else { return }
      try db.execute(
        sql: "INSERT INTO device (id, owner_user_id, name, token_hash, token_issued_at, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        arguments: [id, ownerUserID, name, tokenHash, tokenHash == nil ? nil : instant.timeIntervalSince1970, instant.timeIntervalSince1970]
      )
    }
  }

  public func device(id: String) async throws -> Device? {
    try pool.readOnCurrentThread { db in
      try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM device WHERE id = ?"), arguments: [id]).map(Self.device)
    }
  }

  /// The devices whose row keys are `seqs`, in that order (those still there).
  public func devices(seqs: [Int64]) async throws -> [(seq: Int64, device: Device)] {
    try pool.readOnCurrentThread { db in
      let statement = try db.cachedStatement(sql: "SELECT * FROM device WHERE seq = ?")
      return try seqs.compactMap { seq in try Row.fetchOne(statement, arguments: [seq]).map { (seq, Self.device($0)) } }
    }
  }

  /// The device whose token hashes to `hash`, with its row key and whether its owner's account
  /// is disabled.
  public func device(tokenHash hash: Data) async throws -> (seq: Int64, device: Device, ownerDisabled: Bool)? {
    try pool.readOnCurrentThread { db in
      try Row.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT device.*, disabled_account.user_id IS NOT NULL AS owner_disabled FROM device
            LEFT JOIN disabled_account ON disabled_account.user_id = device.owner_user_id
            WHERE token_hash = ?
            """
        ),
        arguments: [hash]
      ).map { ($0["seq"], Self.device($0), $0["owner_disabled"]) }
    }
  }

  /// Replaces (or, with `nil`, revokes) a device's token; whether the device exists.
  public func setToken(deviceID: String, hash: Data?, at instant: Date) async throws -> Bool {
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE device SET token_hash = ?, token_issued_at = ? WHERE id = ?",
        arguments: [hash, hash == nil ? nil : instant.timeIntervalSince1970, deviceID]
      )
      return db.changesCount > 0
    }
  }

  public func setCampaign(deviceID: String, campaignID: String?) async throws {
    try await pool.write { db in
      try db.execute(sql: "UPDATE device SET campaign_id = ? WHERE id = ?", arguments: [campaignID, deviceID])
    }
  }

  /// Deletes a device and every reading of it.
  public func deleteDevice(id: String) async throws {
    try await pool.write { db in try db.execute(sql: "DELETE FROM device WHERE id = ?", arguments: [id]) }
  }

  /// The devices `userID` may see: their own, their campaigns', and public campaigns', by name.
  public func visibleDevices(userID: String) async throws -> [Device] {
    try pool.readOnCurrentThread { db in
      // `visible` is a constant: the statement is compiled once per connection.
      try Row.fetchAll(db.cachedStatement(sql: "SELECT d.* FROM device d WHERE \(Self.visible) ORDER BY d.name, d.id"), arguments: [userID, userID])
        .map(Self.device)
    }
  }

  /// Whether `userID` may see device `id`.
  public func canSee(userID: String, deviceID: String) async throws -> Bool {
    try pool.readOnCurrentThread { db in
      try Bool.fetchOne(
        db,
        sql: "SELECT EXISTS (SELECT 1 FROM device d WHERE d.id = ? AND \(Self.visible))",
        arguments: [deviceID, userID, userID]
      ) ?? false
    }
  }

  /// The visibility rule on a device aliased `d`, with the user's id twice as its arguments.
  static let visible = """
    (d.owner_user_id = ? OR EXISTS (SELECT 1 FROM campaign c WHERE c.id = d.campaign_id AND (c.public = 1
      OR EXISTS (SELECT 1 FROM campaign_member m WHERE m.campaign_id = c.id AND m.user_id = ?))))
    """

  // MARK: - Campaigns

  /// Inserts `campaign` unless one with its id exists already (a keyed write sent again).
  public func insertCampaign(_ campaign: Campaign, at instant: Date) async throws {
    try await pool.write { db in
      guard try !db.hasRow(in: "campaign", id: campaign.id) else { return }
      try db.execute(
        sql: "INSERT INTO campaign (id, owner_user_id, name, public, created_at) VALUES (?, ?, ?, ?, ?)",
        arguments: [campaign.id, campaign.ownerUserID, campaign.name, campaign.isPublic, instant.timeIntervalSince1970]
      )
      for member in Set(campaign.memberUserIDs + [campaign.ownerUserID]) {
        try db.execute(sql: "INSERT OR IGNORE INTO campaign_member (campaign_id, user_id) VALUES (?, ?)", arguments: [campaign.id, member])
      }
    }
  }

  public func campaign(id: String) async throws -> Campaign? {
    try pool.readOnCurrentThread { db in
      guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM campaign WHERE id = ?"), arguments: [id]) else { return nil }
      let members = try String.fetchAll(
        db.cachedStatement(sql: "SELECT user_id FROM campaign_member WHERE campaign_id = ? ORDER BY user_id"),
        arguments: [id]
      )
      return Campaign(id: row["id"], ownerUserID: row["owner_user_id"], name: row["name"], isPublic: row["public"], memberUserIDs: members)
    }
  }

  /// The campaigns `userID` belongs to, and the public ones, by name.
  public func campaigns(visibleTo userID: String) async throws -> [Campaign] {
    let ids = try pool.readOnCurrentThread { db in
      try String.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT c.id FROM campaign c
            WHERE c.public = 1 OR EXISTS (SELECT 1 FROM campaign_member m WHERE m.campaign_id = c.id AND m.user_id = ?)
            ORDER BY c.name, c.id
            """
        ),
        arguments: [userID]
      )
    }
    var campaigns: [Campaign] = []
    for id in ids { if let campaign = try await campaign(id: id) { campaigns.append(campaign) } }
    return campaigns
  }

  public func addMember(campaignID: String, userID: String) async throws {
    try await pool.write { db in
      try db.execute(sql: "INSERT OR IGNORE INTO campaign_member (campaign_id, user_id) VALUES (?, ?)", arguments: [campaignID, userID])
    }
  }
}
