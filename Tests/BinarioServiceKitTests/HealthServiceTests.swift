import BinarioProto
import GRPCCore
import Testing

@testable import BinarioServiceKit

@Suite("Health service")
struct HealthServiceTests {
  typealias Request = Grpc_Health_V1_HealthCheckRequest
  typealias Response = Grpc_Health_V1_HealthCheckResponse

  private func request(_ service: String) -> Request {
    .with { $0.service = service }
  }

  @Test("Check answers a known service's status and NOT_FOUND for an unknown one", .timeLimit(.minutes(1)))
  func check() async throws {
    let provider = HealthStatusProvider()
    provider.setStatus(.serving)
    provider.setStatus(.notServing, forService: "binario.identity.v1.Identity")

    try await withInProcessServer(services: [HealthService(provider: provider)]) { grpc throws in
      let health = Grpc_Health_V1_Health.Client(wrapping: grpc)
      #expect(try await health.check(request("")).status == .serving)
      #expect(try await health.check(request("binario.identity.v1.Identity")).status == .notServing)
      let error = await #expect(throws: RPCError.self) { try await health.check(request("nobody")) }
      #expect(error?.code == .notFound)
    }
  }

  @Test("Watch sends the current status at once, then each change, and ends on shutdown after NOT_SERVING", .timeLimit(.minutes(1)))
  func watch() async throws {
    let provider = HealthStatusProvider()
    provider.setStatus(.serving, forService: "binario.dispatch.v1.Dispatch")

    try await withInProcessServer(services: [HealthService(provider: provider)]) { grpc throws in
      let health = Grpc_Health_V1_Health.Client(wrapping: grpc)
      let received = try await health.watch(request("binario.dispatch.v1.Dispatch")) { response throws in
        var statuses: [Response.ServingStatus] = []
        for try await message in response.messages {
          statuses.append(message.status)
          switch statuses.count {
          case 1: provider.setStatus(.notServing, forService: "binario.dispatch.v1.Dispatch")
          case 2: provider.setStatus(.serving, forService: "binario.dispatch.v1.Dispatch")
          case 3: provider.enterShutdown()
          default: break
          }
        }
        return statuses
      }
      // The stream ended (OK) by itself after the shutdown status.
      #expect(received == [.serving, .notServing, .serving, .notServing])
      #expect(try await health.check(request("binario.dispatch.v1.Dispatch")).status == .notServing)
    }
  }

  @Test("Watch of an unknown service sends SERVICE_UNKNOWN, then its status once known", .timeLimit(.minutes(1)))
  func watchUnknown() async throws {
    let provider = HealthStatusProvider()
    try await withInProcessServer(services: [HealthService(provider: provider)]) { grpc throws in
      let health = Grpc_Health_V1_Health.Client(wrapping: grpc)
      let received = try await health.watch(request("later")) { response throws in
        var statuses: [Response.ServingStatus] = []
        for try await message in response.messages {
          statuses.append(message.status)
          if statuses.count == 1 { provider.setStatus(.serving, forService: "later") }
          if statuses.count == 2 { break }
        }
        return statuses
      }
      #expect(received == [.serviceUnknown, .serving])
    }
  }

  @Test("a slow watcher gets only the newest status; a watch started after shutdown ends at once")
  func slowAndLateWatchers() async throws {
    let provider = HealthStatusProvider()
    provider.setStatus(.serving)
    let slow = provider.watch(service: "")
    provider.setStatus(.notServing)
    provider.setStatus(.serving)
    provider.enterShutdown()
    provider.setStatus(.serving)  // ignored once shut down
    var statuses: [Response.ServingStatus] = []
    for await status in slow { statuses.append(status) }
    #expect(statuses == [.notServing])

    var late: [Response.ServingStatus] = []
    for await status in provider.watch(service: "") { late.append(status) }
    #expect(late == [.notServing])
    #expect(provider.status() == .notServing)
  }

  @Test("Watch ends when the caller cancels the call", .timeLimit(.minutes(1)))
  func watchEndsOnCancel() async throws {
    let provider = HealthStatusProvider()
    provider.setStatus(.serving)
    let service = HealthService(provider: provider)
    let cancellation = ServerContext.RPCCancellationHandle()
    let context = ServerContext(
      descriptor: Grpc_Health_V1_Health.Method.Watch.descriptor,
      remotePeer: "test",
      localPeer: "test",
      cancellation: cancellation
    )
    let (written, writtenContinuation) = AsyncStream.makeStream(of: Response.self)
    let writer = RPCWriter(wrapping: ContinuationWriter(continuation: writtenContinuation))

    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        try await service.watch(request: self.request(""), response: writer, context: context)
        writtenContinuation.finish()
      }
      for await response in written {
        #expect(response.status == .serving)
        cancellation.cancel()
      }
      try await group.waitForAll()  // watch returned
    }
  }
}

/// An `RPCWriter` target that forwards to an `AsyncStream`.
private struct ContinuationWriter<Element: Sendable>: RPCWriterProtocol {
  let continuation: AsyncStream<Element>.Continuation

  func write(_ element: Element) async throws {
    self.continuation.yield(element)
  }

  func write(contentsOf elements: some Sequence<Element>) async throws {
    for element in elements { self.continuation.yield(element) }
  }
}
