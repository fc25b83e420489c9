import BinarioAuth
import BinarioProto
import GRPCCore
import Testing

@Suite("Method access policy")
struct MethodAccessPolicyTests {
  typealias M = Binario_Identity_V1_Identity.Method

  @Test("every Identity method has an access rule")
  func identityIsComplete() {
    let missing = M.descriptors.filter { MethodAccessPolicy.identity.access(for: $0) == nil }
    #expect(missing.isEmpty, "no access rule for \(missing.map(\.fullyQualifiedMethod))")
    #expect(MethodAccessPolicy.identity.methods.count == M.descriptors.count)
    let all = MethodAccessPolicy.all
    #expect(M.descriptors.allSatisfy { all.access(for: $0) != nil })
  }

  @Test("the levels are the ones the issue sets")
  func identityLevels() {
    let policy = MethodAccessPolicy.identity
    #expect(policy.access(for: M.Login.descriptor) == .level(.public))
    #expect(policy.access(for: M.Register.descriptor) == .level(.public))
    #expect(policy.access(for: M.SendEmergencyAlert.descriptor) == .level(.public))
    #expect(policy.access(for: M.GetMe.descriptor) == .level(.signedIn))
    #expect(policy.access(for: M.Logout.descriptor) == .level(.signedIn))
    #expect(policy.access(for: M.RemoveFriend.descriptor) == .level(.signedIn))
    #expect(policy.access(for: M.GrantRole.descriptor) == .level(.admin))
    #expect(policy.access(for: M.ListOutboxMessages.descriptor) == .level(.admin))
    #expect(policy.access(for: M.WatchRevocations.descriptor) == .internal(allowedPeers: ["spiffe://binario/gateway"]))
  }

  @Test("lookup by wire path, with or without the slash; unknown methods have none")
  func pathLookup() {
    let policy = MethodAccessPolicy.identity
    #expect(policy.access(forPath: "/binario.identity.v1.Identity/Login") == .level(.public))
    #expect(policy.access(forPath: "binario.identity.v1.Identity/CreateDriver") == .level(.admin))
    #expect(policy.access(forPath: "/binario.identity.v1.Identity/Nope") == nil)
    let unknown = MethodDescriptor(fullyQualifiedService: "binario.x.v1.X", method: "Y", type: .unary)
    #expect(policy.access(for: unknown) == nil)
  }
}
