import BinarioDomain
import BinarioStorage
import Foundation
import GRDB
import IdentityService
import Testing

@Suite("Store")
struct StoreTests {
  static let hostile = [
    "Robert'); DROP TABLE account; --",
    #"O"Brien \ 'quoted' "double""#,
    "' OR '1'='1",
    "%_* ; SELECT * FROM session",
  ]

  @Test("strings with quotes and SQL fragments are stored and returned literally")
  func literalStrings() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com", firstName: Self.hostile[0], lastName: Self.hostile[1])
    #expect(ada.firstName == Self.hostile[0] && ada.lastName == Self.hostile[1])
    let updated = try await identity.domain.updateMe(userID: ada.id, changes: ProfileChanges(firstName: Self.hostile[2]))
    #expect(try await identity.domain.me(userID: ada.id).firstName == updated.firstName)
    for name in Self.hostile {
      _ = try await identity.domain.addEmergencyContact(userID: ada.id, name: name, phone: "+393330000000", channel: .sms)
    }
    #expect(try await identity.domain.emergencyContacts(userID: ada.id).map(\.name) == Self.hostile)
    let alerts = try await identity.domain.sendEmergencyAlert(userID: ada.id, position: (1, 2), note: Self.hostile[3])
    #expect(alerts.allSatisfy { $0.text.contains(Self.hostile[3]) })
    let tables = try await identity.database.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
    #expect(tables.contains("account") && tables.contains("session"))
    // A hostile address is just not an account.
    let error = await identityError { _ = try await identity.domain.login(email: "' OR '1'='1", password: "x") }
    #expect(error?.code == "unauthenticated")
  }

  @Test("the signing key is created once and kept across restarts")
  func signingKeyKept() async throws {
    let database = try TemporaryDatabase(migrations: IdentityMigrations.all)
    let store = IdentityStore(pool: database.pool)
    let first = try await IdentityDomain.start(store: store, clock: ManualClock(), policy: .forTests)
    let second = try await IdentityDomain.start(store: store, clock: ManualClock(), policy: .forTests)
    #expect(first.publishedSigningKeys == second.publishedSigningKeys)
    #expect(first.publishedSigningKeys.count == 1)
    #expect(first.publishedSigningKeys[0].publicKey.count == 32)
    #expect(first.publishedSigningKeys[0].algorithm == "EdDSA")
  }

  @Test("an account written is there after the database is closed and reopened")
  func durable() async throws {
    let database = try TemporaryDatabase(migrations: IdentityMigrations.all)
    let domain = try await IdentityDomain.start(store: IdentityStore(pool: database.pool), clock: ManualClock(), policy: .forTests)
    let account = try await domain.register(TestIdentity.details(email: "ada@example.com"))
    try database.pool.close()
    let reopened = IdentityStore(pool: try ServiceDatabase.open(at: database.path, migrations: IdentityMigrations.all))
    #expect(try await reopened.account(id: account.id)?.email == "ada@example.com")
  }

  @Test("however many calls race to trade a refresh token, one token of the session stays tradable")
  func rotationRace() async throws {
    let identity = try await TestIdentity()
    let tokens = try await identity.signedIn("ada@example.com")
    let outcomes = await withTaskGroup(of: Bool.self) { group in
      for _ in 0 ..< 8 {
        group.addTask { (try? await identity.domain.refresh(refreshToken: tokens.refreshToken)) != nil }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(outcomes.contains(true))
    // However many traded it (a lost answer may be asked again), one token stays tradable.
    let tradable = try await identity.store.database.read { db in
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM refresh_token WHERE used_at IS NULL AND retired_at IS NULL")
    }
    #expect(tradable == 1)
  }
}
