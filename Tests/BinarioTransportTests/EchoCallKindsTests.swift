import BinarioEcho
import BinarioTransport
import GRPCCore
import GRPCProtobuf
import Testing

@Suite("Echo over the Binario transport: the four call kinds")
struct EchoCallKindsTests {
  @Test func unaryCallReturnsTheRequest() async throws {
    try await withTestServer { port, _ in
      try await withTestClient(port: port) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        let reply = try await echo.get(.with { $0.text = "ciao Milano" })
        #expect(reply.text == "ciao Milano")
      }
    }
  }

  @Test func serverStreamingReturnsEachWord() async throws {
    try await withTestServer { port, _ in
      try await withTestClient(port: port) { client, _ in
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

  @Test func clientStreamingJoinsAllRequests() async throws {
    try await withTestServer { port, _ in
      try await withTestClient(port: port) { client, _ in
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

  @Test func bidirectionalStreamingAnswersEachRequestInTurn() async throws {
    try await withTestServer { port, _ in
      try await withTestClient(port: port) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let replies = try await echo.update(
          request: StreamingClientRequest { writer in
            // Ping-pong: each request is written only after the previous reply arrived.
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

  @Test func aThousandConcurrentUnaryCallsOnOneConnectionEachGetTheirOwnAnswer() async throws {
    try await withTestServer { port, _ in
      try await withTestClient(port: port) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        let mismatches = try await withThrowingTaskGroup(of: Bool.self) { group in
          for index in 0..<1000 {
            group.addTask {
              let reply = try await echo.get(.with { $0.text = "call \(index)" })
              return reply.text == "call \(index)"
            }
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
