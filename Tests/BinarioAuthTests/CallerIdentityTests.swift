import BinarioAuth
import GRPCCore
import Testing

@Suite("Caller identity from metadata")
struct CallerIdentityTests {
  func metadata(userID: String = "user-1", roles: String = "passenger,admin", session: String = "s-1") -> Metadata {
    var metadata: Metadata = [:]
    metadata.addString(userID, forKey: "x-user-id")
    metadata.addString(roles, forKey: "x-roles")
    metadata.addString(session, forKey: "x-session-id")
    return metadata
  }

  @Test("from the gateway's certificate identity, the metadata names the caller")
  func fromGateway() throws {
    let caller = try #require(CallerIdentity(metadata: metadata(), peerIdentity: "spiffe://binario/gateway"))
    #expect(caller == CallerIdentity(userID: "user-1", roles: [.passenger, .admin], sessionID: "s-1"))
  }

  @Test(
    "from any other peer the metadata is ignored",
    arguments: [nil, "spiffe://binario/dispatch", "spiffe://binario/identity", "spiffe://binario/gateway/x", ""]
  )
  func fromAnyoneElse(peer: String?) {
    #expect(CallerIdentity(metadata: metadata(), peerIdentity: peer) == nil)
  }

  @Test("no user id, an empty one, or two of them: no caller")
  func missingOrDoubledUserID() {
    #expect(CallerIdentity(metadata: [:], peerIdentity: WorkloadIdentity.gateway) == nil)
    #expect(CallerIdentity(metadata: metadata(userID: ""), peerIdentity: WorkloadIdentity.gateway) == nil)
    var doubled = metadata()
    doubled.addString("user-2", forKey: "x-user-id")
    #expect(CallerIdentity(metadata: doubled, peerIdentity: WorkloadIdentity.gateway) == nil)
  }

  @Test("unknown role names and spaces are dropped")
  func roleParsing() throws {
    let caller = try #require(
      CallerIdentity(metadata: metadata(roles: " driver , emperor,,"), peerIdentity: WorkloadIdentity.gateway)
    )
    #expect(caller.roles == [.driver])
  }

  @Test("the gateway's writing replaces what a client sent, and reads back the same")
  func writeReplaces() throws {
    var forged = metadata(userID: "victim", roles: "admin")
    forged.addString("keep-me", forKey: "request-id")
    let caller = CallerIdentity(userID: "user-9", roles: [.driver, .passenger], sessionID: "s-9")
    caller.write(to: &forged)
    #expect(Array(forged[stringValues: "x-user-id"]) == ["user-9"])
    #expect(Array(forged[stringValues: "x-roles"]) == ["passenger,driver"])
    #expect(Array(forged[stringValues: "request-id"]) == ["keep-me"])
    #expect(CallerIdentity(metadata: forged, peerIdentity: WorkloadIdentity.gateway) == caller)
    CallerIdentity.removeAll(from: &forged)
    #expect(forged[stringValues: "x-user-id"].first(where: { _ in true }) == nil)
  }

  @Test("access levels admit the right roles")
  func accessLevels() {
    #expect(AccessLevel.public.admits(roles: nil))
    #expect(!AccessLevel.signedIn.admits(roles: nil))
    #expect(AccessLevel.signedIn.admits(roles: []))
    #expect(AccessLevel.driver.admits(roles: [.driver]))
    #expect(!AccessLevel.driver.admits(roles: [.admin, .passenger]))
    #expect(AccessLevel.admin.admits(roles: [.admin]))
    #expect(!AccessLevel.admin.admits(roles: [.driver, .passenger]))
    #expect(!AccessLevel.admin.admits(roles: nil))
  }
}
