import BinarioServiceKit
import GatewayService
import Testing

@Suite("Routing: proto packages to upstreams")
struct RoutingTests {
  private let table: RoutingTable = {
    let address = UpstreamAddress(host: "127.0.0.1", port: 1)
    return try! RoutingTable(
      upstreams: ["identity": address, "geo-offers": address, "offers": address],
      routes: ["binario.deals.v1": "offers"]
    )
  }()

  @Test func packagesFollowTheConventionOrAnExplicitRoute() {
    #expect(self.table.upstream(forMethod: "/binario.identity.v1.Identity/Login") == "identity")
    #expect(self.table.upstream(forMethod: "/binario.identity.v2.Identity/Login") == "identity")
    #expect(self.table.upstream(forMethod: "/binario.geo_offers.v1.GeoOffers/Near") == "geo-offers")
    #expect(self.table.upstream(forMethod: "/binario.deals.v1.Deals/List") == "offers")
    #expect(self.table.upstream(forMethod: "/binario.ticketing.v1.Tickets/Buy") == nil)
    #expect(self.table.upstream(forMethod: "/other.identity.v1.Identity/Login") == nil)
    #expect(self.table.upstream(forMethod: "/binario.identity.beta.Identity/Login") == nil)
    #expect(self.table.upstream(forMethod: "binario.identity.v1.Identity/Login") == nil)
    #expect(self.table.upstream(forMethod: "/binario.identity.v1.Identity/") == nil)
  }

  @Test func aRouteToAnUnknownUpstreamIsAConfigurationError() {
    #expect(throws: GatewayConfigurationError.self) {
      try RoutingTable(upstreams: [:], routes: ["binario.x.v1": "x"])
    }
  }

  @Test func addressesParse() throws {
    #expect(try UpstreamAddress(parsing: "identity:7101") == UpstreamAddress(host: "identity", port: 7101))
    #expect(try UpstreamAddress(parsing: "[::1]:7101") == UpstreamAddress(host: "::1", port: 7101))
    #expect(throws: ServiceAddressError.self) { try UpstreamAddress(parsing: "identity") }
    #expect(throws: ServiceAddressError.self) { try UpstreamAddress(parsing: ":7101") }
    #expect(throws: ServiceAddressError.self) { try UpstreamAddress(parsing: "identity:0") }
  }

  @Test func methodPathsSplitIntoServiceAndPackage() {
    let path = MethodPath("/binario.identity.v1.Identity/Login")
    #expect(path?.service == "binario.identity.v1.Identity")
    #expect(path?.package == "binario.identity.v1")
    #expect(MethodPath("/Identity/Login") == nil)
    #expect(MethodPath("/a.B/") == nil)
  }
}
