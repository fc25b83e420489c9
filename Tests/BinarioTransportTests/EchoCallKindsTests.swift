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
          for index in 0 ..< 1000 {
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

  /// Requests written while their call is still being opened on the event loop must keep their
  /// order: a message, then the end of input. With a queue limit of one byte every request makes
  /// its writer wait for the `Open`, which is when a half-close could overtake the message (the
  /// server then saw an empty request stream: "Empty stream.").
  @Test func requestsWrittenWhileTheCallOpensKeepTheirOrder() async throws {
    var connection = BinarioConnectionConfiguration.defaults
    connection.outboundQueueLimit = 1
    try await withTestServer { port, _ in
      try await withTestClient(port: port, connection: connection) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        let failures = try await withThrowingTaskGroup(of: String?.self) { group in
          for index in 0 ..< 400 {
            group.addTask {
              do {
                if index.isMultiple(of: 2) {
                  let reply = try await echo.get(.with { $0.text = "call \(index)" })
                  return reply.text == "call \(index)" ? nil : "call \(index): \(reply.text)"
                }
                let reply = try await echo.collect(
                  request: StreamingClientRequest { writer in
                    for word in ["a", "b", "c"] { try await writer.write(.with { $0.text = "\(word)\(index)" }) }
                  }
                )
                return reply.text == "a\(index) b\(index) c\(index)" ? nil : "collect \(index): \(reply.text)"
              } catch {
                return "call \(index): \(error)"
              }
            }
          }
          var failures: [String] = []
          for try await failure in group { if let failure { failures.append(failure) } }
          return failures
        }
        #expect(failures.isEmpty, "\(failures.count) calls failed, e.g. \(failures.prefix(3))")
      }
    }
  }
}
