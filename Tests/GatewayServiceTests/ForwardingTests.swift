import BinarioEcho
import BinarioTransport
import GRPCCore
import GRPCProtobuf
import GatewayService
import Testing

@Suite("Forwarding: the four call kinds, unknown routes, upstreams down, deadlines, cancellation")
struct ForwardingTests {
  @Test func unaryCallGoesThroughTheGateway() async throws {
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
          let reply = try await echo.get(
            .with {
              $0.text = "ciao Milano"
              $0.payload = .init(repeating: 7, count: 10_000)
            }
          )
          #expect(reply.text == "ciao Milano")
          #expect(reply.payload.count == 10_000)
        }
      }
    }
  }

  @Test func serverStreamingGoesThroughTheGateway() async throws {
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
          let words = try await echo.expand(.with { $0.text = "Cadorna Centrale Garibaldi" }) { response in
            var words: [String] = []
            for try await message in response.messages { words.append(message.text) }
            return words
          }
          #expect(words == ["Cadorna", "Centrale", "Garibaldi"])
        }
      }
    }
  }

  @Test func clientStreamingGoesThroughTheGateway() async throws {
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
          let reply = try await echo.collect(
            request: StreamingClientRequest { writer in
              for text in ["uno", "due", "tre"] { try await writer.write(.with { $0.text = text }) }
            }
          )
          #expect(reply.text == "uno due tre")
        }
      }
    }
  }

  @Test func bidirectionalStreamingGoesThroughTheGateway() async throws {
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
          let (stream, continuation) = AsyncStream.makeStream(of: String.self)
          let replies = try await echo.update(
            request: StreamingClientRequest { writer in
              try await writer.write(.with { $0.text = "0" })
              for await next in stream { try await writer.write(.with { $0.text = next }) }
            }
          ) { response in
            var replies: [String] = []
            for try await message in response.messages {
              replies.append(message.text)
              if replies.count < 5 { continuation.yield(String(replies.count)) } else { continuation.finish() }
            }
            return replies
          }
          #expect(replies == ["0", "1", "2", "3", "4"])
        }
      }
    }
  }

  @Test func manyConcurrentCallsEachGetTheirOwnAnswer() async throws {
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
          let mismatches = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0 ..< 300 {
              group.addTask { try await echo.get(.with { $0.text = "call \(index)" }).text == "call \(index)" }
            }
            var mismatches = 0
            for try await matched in group where !matched { mismatches += 1 }
            return mismatches
          }
          #expect(mismatches == 0)
        }
      }
    }
  }

  @Test func aMethodNoUpstreamServesIsUnimplemented() async throws {
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let descriptor = MethodDescriptor(fullyQualifiedService: "binario.nowhere.v1.Nothing", method: "Do", type: .unary)
          let error = await #expect(throws: RPCError.self) {
            try await client.unary(
              request: ClientRequest(message: Binario_Echo_V1_EchoRequest()),
              descriptor: descriptor,
              serializer: ProtobufSerializer<Binario_Echo_V1_EchoRequest>(),
              deserializer: ProtobufDeserializer<Binario_Echo_V1_EchoResponse>(),
              options: .defaults
            ) { try $0.message }
          }
          #expect(error?.code == .unimplemented)
        }
      }
    }
  }

  @Test func anUpstreamThatIsDownGivesUnavailableAtOnce() async throws {
    let port = try await unusedPort()
    try await withGateway(upstreams: ["echo": port]) { gateway in
      try await withGatewayClient(gateway) { client in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        // A gateway that waited for the upstream to come back would end these calls with
        // DEADLINE_EXCEEDED after a minute; an answer of UNAVAILABLE means it did not wait. The
        // time bound is loose on purpose: under a parallel test run on two cores, a second of
        // scheduling delay is no sign of waiting.
        var options = CallOptions.defaults
        options.timeout = .seconds(60)
        for _ in 0 ..< 3 {
          let start = ContinuousClock.now
          let error = await #expect(throws: RPCError.self) {
            try await echo.get(.with { $0.text = "anyone?" }, options: options)
          }
          #expect(error?.code == .unavailable)
          // The client hears which service is down, not where it lives (that is for the log).
          #expect(error?.message == "the echo service is unavailable; try again shortly")
          #expect(ContinuousClock.now - start < .seconds(10))
        }
      }
    }
  }

  @Test func theDeadlineTravelsUpstream() async throws {
    try await withUpstream(services: [ProbeService(events: EventRecorder())]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          var options = CallOptions.defaults
          options.timeout = .seconds(30)
          let text = try await client.unary(
            request: ClientRequest(message: Binario_Echo_V1_EchoRequest()),
            descriptor: ProbeService.metadata,
            serializer: ProtobufSerializer<Binario_Echo_V1_EchoRequest>(),
            deserializer: ProtobufDeserializer<Binario_Echo_V1_EchoResponse>(),
            options: options
          ) { try $0.message.text }
          // The upstream's handler finds it in its context, not as `grpc-timeout` metadata.
          #expect(!text.contains("grpc-timeout"))
          let timeout = try #require(text.split(separator: "\n").first { $0.hasPrefix("timeout=") })
          let milliseconds = try #require(Int(timeout.dropFirst("timeout=".count).dropLast(2)))
          #expect((1 ... 30_000).contains(milliseconds))
        }
      }
    }
  }

  @Test func aDeadlineThatPassesEndsTheCallAtBothEnds() async throws {
    let events = EventRecorder()
    try await withUpstream(services: [ProbeService(events: events)]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          var options = CallOptions.defaults
          options.timeout = .milliseconds(300)
          let error = await #expect(throws: RPCError.self) {
            try await client.unary(
              request: ClientRequest(message: Binario_Echo_V1_EchoRequest()),
              descriptor: ProbeService.hang,
              serializer: ProtobufSerializer<Binario_Echo_V1_EchoRequest>(),
              deserializer: ProtobufDeserializer<Binario_Echo_V1_EchoResponse>(),
              options: options
            ) { try $0.message }
          }
          #expect(error?.code == .deadlineExceeded)
          // On a loaded machine the call may be over before the upstream ran its handler; if it
          // ran, it must have been told the call is over.
          if events.recorded.first?.hasPrefix("started") == true {
            _ = await events.next()
            #expect(await events.next() == "cancelled")
          }
        }
      }
    }
  }

  @Test func aCancelFromTheClientReachesTheUpstream() async throws {
    let events = EventRecorder()
    try await withUpstream(services: [ProbeService(events: events)]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let call = Task {
            try await client.unary(
              request: ClientRequest(message: Binario_Echo_V1_EchoRequest()),
              descriptor: ProbeService.hang,
              serializer: ProtobufSerializer<Binario_Echo_V1_EchoRequest>(),
              deserializer: ProtobufDeserializer<Binario_Echo_V1_EchoResponse>(),
              options: .defaults
            ) { try $0.message }
          }
          #expect(await events.next() == "started timeout=none")
          call.cancel()
          #expect(await events.next() == "cancelled")
          _ = await call.result
        }
      }
    }
  }
}
