import BinarioAuth
import BinarioEcho
import Foundation
import GRPCCore
import GatewayService
import Testing

@Suite("Metadata: caller identity only from the gateway, request ids")
struct MetadataTests {
  @Test func callerMetadataFromAClientIsDropped() async throws {
    try await withUpstream(services: [ProbeService(events: EventRecorder())]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let seen = try await metadataSeenUpstream(
            client,
            sending: [
              "x-user-id": "admin", "x-roles": "admin", "x-session-id": "s1", "x-forwarded-for": "10.9.9.9",
              "x-custom": "kept",
            ]
          )
          #expect(seen["x-user-id"] == nil)
          #expect(seen["x-roles"] == nil)
          #expect(seen["x-session-id"] == nil)
          #expect(seen["x-custom"] == ["kept"])
          #expect(seen["x-forwarded-for"] == ["127.0.0.1"])
        }
      }
    }
  }

  @Test func theVerifiedCallerReplacesWhatTheClientClaimed() async throws {
    let caller = VerifiedAccessToken(
      userID: "u-42",
      roles: [.passenger, .driver],
      sessionID: "s-7",
      tokenID: "t-1",
      expiresAt: Date().addingTimeInterval(600)
    )
    let authorizer = StubAuthorizer { _, _ in .allow(caller) }
    try await withUpstream(services: [ProbeService(events: EventRecorder())]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port], authorizer: authorizer) { gateway in
        try await withGatewayClient(gateway) { client in
          let seen = try await metadataSeenUpstream(
            client,
            sending: ["x-user-id": "admin", "x-roles": "admin", "authorization": "Bearer a.b.c"]
          )
          #expect(seen["x-user-id"] == ["u-42"])
          #expect(seen["x-roles"] == ["passenger,driver"])
          #expect(seen["x-session-id"] == ["s-7"])
          #expect(seen["authorization"] == nil, "the bearer token stays at the gateway")
        }
      }
    }
  }

  @Test func aDeviceMethodsTokenIsForwardedAndAClientsOwnIsDropped() async throws {
    let token = "bdt_" + String(repeating: "a", count: 43)
    let authorizer = StubAuthorizer { _, authorization in authorization == nil ? .allow(nil) : .allowDevice(token: token) }
    try await withUpstream(services: [ProbeService(events: EventRecorder())]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port], authorizer: authorizer) { gateway in
        try await withGatewayClient(gateway) { client in
          let forged = try await metadataSeenUpstream(client, sending: ["x-device-token": "bdt_forged"])
          #expect(forged["x-device-token"] == nil, "only the gateway says which device token a call carries")
          let device = try await metadataSeenUpstream(client, sending: ["authorization": .string("Device \(token)"), "x-device-token": "bdt_forged"])
          #expect(device["x-device-token"] == [token])
          #expect(device["authorization"] == nil)
          #expect(device["x-user-id"] == nil)
        }
      }
    }
  }

  @Test func aSaneRequestIDFromTheClientIsKept() async throws {
    try await withUpstream(services: [ProbeService(events: EventRecorder())]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let seen = try await metadataSeenUpstream(client, sending: ["x-request-id": "trip-2025.03:ab_c"])
          #expect(seen["x-request-id"] == ["trip-2025.03:ab_c"])
          #expect(seen["request-id"] == ["trip-2025.03:ab_c"])
        }
      }
    }
  }

  @Test func aMissingOrInsaneRequestIDIsReplacedWithANewOne() async throws {
    try await withUpstream(services: [ProbeService(events: EventRecorder())]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let none = try await metadataSeenUpstream(client)
          let insane = try await metadataSeenUpstream(client, sending: ["x-request-id": "a b\nc"])
          let tooLong = try await metadataSeenUpstream(client, sending: ["x-request-id": .string(String(repeating: "a", count: 200))])
          for seen in [none, insane, tooLong] {
            let ids = try #require(seen["x-request-id"])
            #expect(ids.count == 1)
            #expect(UUID(uuidString: ids[0]) != nil)
            #expect(seen["request-id"] == ids)
          }
          #expect(none["x-request-id"] != insane["x-request-id"])
        }
      }
    }
  }

  @Test func oversizedMetadataIsRefusedBeforeItReachesTheUpstream() async throws {
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
          let error = await #expect(throws: RPCError.self) {
            try await echo.get(.with { $0.text = "hi" }, metadata: ["x-big": .string(String(repeating: "x", count: 100_000))])
          }
          #expect(error?.code == .resourceExhausted)
          let reply = try await echo.get(.with { $0.text = "still fine" })
          #expect(reply.text == "still fine")
        }
      }
    }
  }

  @Test func theClientGetsTheRequestIDBack() async throws {
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
          let metadata = try await echo.get(.with { $0.text = "hi" }, metadata: ["x-request-id": "mine-1"]) { response in
            response.metadata
          }
          #expect(Array(metadata[stringValues: "x-request-id"]) == ["mine-1"])
        }
      }
    }
  }
}
