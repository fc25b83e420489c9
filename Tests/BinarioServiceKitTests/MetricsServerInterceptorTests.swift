import GRPCCore
import Prometheus
import Testing

@testable import BinarioServiceKit

@Suite("Metrics interceptor")
struct MetricsServerInterceptorTests {
  private func calls(_ method: String, _ code: String) -> String {
    #"grpc_server_calls_total{method="test.Strings/\#(method)",code="\#(code)"}"#
  }

  private func errors(_ method: String, _ code: String) -> String {
    #"grpc_server_errors_total{method="test.Strings/\#(method)",code="\#(code)"}"#
  }

  @Test("unary calls are counted by status code, errors apart, with their latency", .timeLimit(.minutes(1)))
  func unary() async throws {
    let registry = PrometheusCollectorRegistry()
    try await withInProcessServer(
      services: [StringsService()],
      interceptors: [MetricsServerInterceptor(registry: registry)]
    ) { client throws in
      #expect(try await client.echo("hello") == "hello")
      #expect(try await client.echo("again") == "again")
      await #expect(throws: RPCError.self) { try await client.echo("fail:5") }
      await #expect(throws: RPCError.self) { try await client.echo("boom") }
    }

    let text = PrometheusText(text: registry.emitToString())
    #expect(text.value(calls("Echo", "OK")) == 2)
    #expect(text.value(calls("Echo", "NOT_FOUND")) == 1)
    #expect(text.value(calls("Echo", "UNKNOWN")) == 1)
    #expect(text.value(errors("Echo", "NOT_FOUND")) == 1)
    #expect(text.value(errors("Echo", "UNKNOWN")) == 1)
    #expect(text.value(errors("Echo", "OK")) == nil)

    let latency = #"grpc_server_call_duration_seconds"#
    #expect(text.value(latency + #"_count{method="test.Strings/Echo"}"#) == 4)
    #expect(try #require(text.value(latency + #"_sum{method="test.Strings/Echo"}"#)) > 0)
    #expect(text.value(latency + #"_bucket{method="test.Strings/Echo",le="0.0001"}"#) != nil)
    #expect(text.value(latency + #"_bucket{method="test.Strings/Echo",le="10.0"}"#) == 4)
    #expect(text.text.contains("# TYPE grpc_server_call_duration_seconds histogram"))
  }

  @Test("a streamed call is recorded when its response producer finishes, not before", .timeLimit(.minutes(1)))
  func serverStreamingRecordedAtTheEnd() async throws {
    let registry = PrometheusCollectorRegistry()
    let (release, releaseCall) = AsyncStream.makeStream(of: Void.self)
    try await withInProcessServer(
      services: [StringsService(release: release)],
      interceptors: [MetricsServerInterceptor(registry: registry)]
    ) { client throws in
      try await client.expand("ab") { response throws in
        var received: [String] = []
        for try await message in response.messages {
          received.append(message)
          if received.count == 2 {
            // Both messages are out, the producer still runs: nothing recorded yet.
            #expect(PrometheusText(text: registry.emitToString()).value(calls("Expand", "OK")) == nil)
            releaseCall.finish()
          }
        }
        #expect(received == ["a", "b"])
      }
    }
    #expect(PrometheusText(text: registry.emitToString()).value(calls("Expand", "OK")) == 1)
  }

  @Test("client-streaming and bidirectional calls are counted, including a failure mid-stream", .timeLimit(.minutes(1)))
  func clientAndBidirectionalStreaming() async throws {
    let registry = PrometheusCollectorRegistry()
    try await withInProcessServer(
      services: [StringsService()],
      interceptors: [MetricsServerInterceptor(registry: registry)]
    ) { client throws in
      let joined = try await client.clientStreaming(
        request: StreamingClientRequest { writer in try await writer.write(contentsOf: ["x", "y"]) },
        descriptor: StringsService.collect,
        serializer: StringSerializer(),
        deserializer: StringDeserializer(),
        options: .defaults
      ) { try $0.message }
      #expect(joined == "xy")

      let failure = try await client.bidirectionalStreaming(
        request: StreamingClientRequest { writer in try await writer.write(contentsOf: ["one", "fail"]) },
        descriptor: StringsService.chat,
        serializer: StringSerializer(),
        deserializer: StringDeserializer(),
        options: .defaults
      ) { response -> RPCError? in
        do {
          for try await _ in response.messages {}
          return nil
        } catch let error as RPCError {
          return error
        }
      }
      #expect(failure?.code == .invalidArgument)
    }

    let text = PrometheusText(text: registry.emitToString())
    #expect(text.value(calls("Collect", "OK")) == 1)
    #expect(text.value(calls("Chat", "INVALID_ARGUMENT")) == 1)
    #expect(text.value(errors("Chat", "INVALID_ARGUMENT")) == 1)
    #expect(text.value(#"grpc_server_call_duration_seconds_count{method="test.Strings/Chat"}"#) == 1)
  }
}
