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

  @Test("every method of every service has an access rule; geo-offers' internal method is ticketing's alone; drivers' methods need the driver role")
  func everyServiceIsComplete() {
    let services: [(MethodAccessPolicy, [MethodDescriptor])] = [
      (
        .scheduling,
        Binario_Scheduling_V1_Scheduling.Method.descriptors + Binario_Scheduling_V1_Notifications.Method.descriptors
          + Binario_Scheduling_V1_Itineraries.Method.descriptors
      ),
      (.ticketing, Binario_Ticketing_V1_Tickets.Method.descriptors + Binario_Ticketing_V1_Subscriptions.Method.descriptors),
      (.geoOffers, Binario_GeoOffers_V1_GeoOffers.Method.descriptors),
      (.dispatch, Binario_Dispatch_V1_Dispatch.Method.descriptors),
      (.telemetry, Binario_Telemetry_V1_Telemetry.Method.descriptors),
    ]
    for (policy, descriptors) in services {
      let missing = descriptors.filter { policy.access(for: $0) == nil || MethodAccessPolicy.all.access(for: $0) == nil }
      #expect(missing.isEmpty, "no access rule for \(missing.map(\.fullyQualifiedMethod))")
    }
    typealias G = Binario_GeoOffers_V1_GeoOffers.Method
    #expect(MethodAccessPolicy.geoOffers.access(for: G.FindRouteOffer.descriptor) == .internal(allowedPeers: ["spiffe://binario/ticketing"]))
    #expect(MethodAccessPolicy.geoOffers.access(for: G.CreateDeal.descriptor) == .level(.admin))
    #expect(MethodAccessPolicy.geoOffers.access(for: G.ReportLocation.descriptor) == .level(.signedIn))
    #expect(MethodAccessPolicy.geoOffers.access(for: G.ListNearestStations.descriptor) == .level(.public))
    typealias D = Binario_Dispatch_V1_Dispatch.Method
    #expect(MethodAccessPolicy.dispatch.access(for: D.WatchJobs.descriptor) == .level(.driver))
    #expect(MethodAccessPolicy.dispatch.access(for: D.AcceptOffer.descriptor) == .level(.driver))
    #expect(MethodAccessPolicy.dispatch.access(for: D.WatchMonitor.descriptor) == .level(.admin))
    #expect(MethodAccessPolicy.dispatch.access(for: D.RequestRide.descriptor) == .level(.signedIn))
    typealias T = Binario_Telemetry_V1_Telemetry.Method
    #expect(MethodAccessPolicy.telemetry.access(for: T.UploadReadings.descriptor) == .level(.device))
    #expect(MethodAccessPolicy.telemetry.access(for: T.StreamReadings.descriptor) == .level(.device))
    let deviceMethods = Binario_Telemetry_V1_Telemetry.Method.descriptors.filter { MethodAccessPolicy.all.access(for: $0) == .level(.device) }
    #expect(
      Set(deviceMethods) == [T.UploadReadings.descriptor, T.StreamReadings.descriptor, T.UploadSensorCommunityReadings.descriptor],
      "only the upload methods take a device token"
    )
    #expect(
      MethodAccessPolicy.ticketing.access(for: Binario_Ticketing_V1_Tickets.Method.ListDepartingTickets.descriptor)
        == .internal(allowedPeers: ["spiffe://binario/geo-offers"])
    )
    #expect(
      MethodAccessPolicy.scheduling.access(for: Binario_Scheduling_V1_Scheduling.Method.GetRuns.descriptor)
        == .internal(allowedPeers: ["spiffe://binario/ticketing", "spiffe://binario/geo-offers"])
    )
  }

}
