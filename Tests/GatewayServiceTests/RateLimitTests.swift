import BinarioAuth
import BinarioEcho
import Foundation
import GRPCCore
import GatewayService
import Testing

@Suite("Rate limits: token buckets per client")
struct RateLimitTests {
  @Test func aBucketGivesItsBurstThenRefillsWithTime() {
    let clock = ManualGatewayClock()
    let limiter = RateLimiter(limit: RateLimit(ratePerSecond: 2, burst: 3), clock: clock)
    #expect((0 ..< 3).allSatisfy { _ in limiter.allow("ip:1.2.3.4") })
    #expect(!limiter.allow("ip:1.2.3.4"))
    #expect(limiter.allow("ip:5.6.7.8"))
    clock.advance(by: .milliseconds(500))
    #expect(limiter.allow("ip:1.2.3.4"))
    #expect(!limiter.allow("ip:1.2.3.4"))
    clock.advance(by: .seconds(60))
    #expect((0 ..< 3).allSatisfy { _ in limiter.allow("ip:1.2.3.4") })
    #expect(!limiter.allow("ip:1.2.3.4"))
  }

  @Test func fullBucketsAreForgottenWhenThereAreMany() {
    let clock = ManualGatewayClock()
    let limiter = RateLimiter(limit: RateLimit(ratePerSecond: 1, burst: 1), clock: clock, pruneThreshold: 10)
    for index in 0 ..< 10 { #expect(limiter.allow("ip:\(index)")) }
    clock.advance(by: .seconds(5))
    #expect(limiter.allow("ip:new"))
    #expect(limiter.bucketCount == 1)
  }

  @Test func rateLimitsParseFromText() throws {
    #expect(try RateLimit(parsing: "50") == RateLimit(ratePerSecond: 50, burst: 100))
    #expect(try RateLimit(parsing: "0.5/3") == RateLimit(ratePerSecond: 0.5, burst: 3))
    #expect(throws: GatewayConfigurationError.self) { try RateLimit(parsing: "fast") }
    #expect(throws: GatewayConfigurationError.self) { try RateLimit(parsing: "-1") }
  }

  @Test func aClientOverItsLimitGetsResourceExhausted() async throws {
    let clock = ManualGatewayClock()
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(
        upstreams: ["echo": upstream.port],
        rateLimit: RateLimit(ratePerSecond: 1, burst: 2),
        clock: clock
      ) { gateway in
        try await withGatewayClient(gateway) { client in
          let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
          _ = try await echo.get(.with { $0.text = "1" })
          _ = try await echo.get(.with { $0.text = "2" })
          let error = await #expect(throws: RPCError.self) { try await echo.get(.with { $0.text = "3" }) }
          #expect(error?.code == .resourceExhausted)
          #expect(error?.message.contains("rate limit") == true)
          clock.advance(by: .seconds(1))
          #expect(try await echo.get(.with { $0.text = "4" }).text == "4")
        }
      }
    }
  }

  @Test func signedInCallersAreLimitedPerUserNotPerAddress() async throws {
    let clock = ManualGatewayClock()
    let authorizer = StubAuthorizer { _, authorization in
      guard let authorization else { return .allow(nil) }
      return .allow(VerifiedAccessToken(userID: authorization, roles: [], sessionID: "s-\(authorization)", tokenID: "t", expiresAt: .distantFuture))
    }
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(
        upstreams: ["echo": upstream.port],
        rateLimit: RateLimit(ratePerSecond: 1, burst: 1),
        authorizer: authorizer,
        clock: clock
      ) { gateway in
        try await withGatewayClient(gateway) { client in
          let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
          _ = try await echo.get(.with { $0.text = "a" }, metadata: ["authorization": "alice"])
          _ = try await echo.get(.with { $0.text = "b" }, metadata: ["authorization": "bob"])
          _ = try await echo.get(.with { $0.text = "anonymous" })
          let error = await #expect(throws: RPCError.self) {
            try await echo.get(.with { $0.text = "a again" }, metadata: ["authorization": "alice"])
          }
          #expect(error?.code == .resourceExhausted)
        }
      }
    }
  }
}
