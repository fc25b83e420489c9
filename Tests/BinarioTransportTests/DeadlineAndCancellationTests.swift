import BinarioEcho
import BinarioTransport
import GRPCCore
import GRPCProtobuf
import Testing

/// A service whose handlers wait until the call is cancelled and report that they saw it.
private struct WaitingEchoService: Binario_Echo_V1_Echo.SimpleServiceProtocol {
  let started: AsyncStream<Void>.Continuation
  let sawCancellation: AsyncStream<Void>.Continuation

  func get(request: Binario_Echo_V1_EchoRequest, context: ServerContext) async throws -> Binario_Echo_V1_EchoResponse {
    self.started.yield()
    try? await context.cancellation.cancelled
    self.sawCancellation.yield()
    throw RPCError(code: .cancelled, message: "gave up")
  }

  func expand(request: Binario_Echo_V1_EchoRequest, response: RPCWriter<Binario_Echo_V1_EchoResponse>, context: ServerContext) async throws {
    try await response.write(.with { $0.text = "first" })
    if request.text == "use the handler" {
      // GRPCCore's own way: a handler called when the RPC is cancelled.
      let (cancelled, cancelledContinuation) = AsyncStream.makeStream(of: Void.self)
      await withRPCCancellationHandler {
        self.started.yield()
        _ = await cancelled.first()
      } onCancelRPC: {
        cancelledContinuation.yield()
      }
    } else {
      self.started.yield()
      try? await context.cancellation.cancelled
    }
    self.sawCancellation.yield()
  }

  func collect(request: RPCAsyncSequence<Binario_Echo_V1_EchoRequest, any Error>, context: ServerContext) async throws -> Binario_Echo_V1_EchoResponse {
    throw RPCError(code: .unimplemented, message: "not used")
  }

  func update(request: RPCAsyncSequence<Binario_Echo_V1_EchoRequest, any Error>, response: RPCWriter<Binario_Echo_V1_EchoResponse>, context: ServerContext) async throws {
    throw RPCError(code: .unimplemented, message: "not used")
  }
}

@Suite("Deadlines and cancellation")
struct DeadlineAndCancellationTests {
  @Test func aPassedDeadlineGivesDeadlineExceededAndTheHandlerSeesCancellation() async throws {
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let (cancelled, cancelledContinuation) = AsyncStream.makeStream(of: Void.self)
    let service = WaitingEchoService(started: startedContinuation, sawCancellation: cancelledContinuation)
    try await withTestServer(services: [service]) { port, _ in
      try await withTestClient(port: port) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        var options = CallOptions.defaults
        // Long enough that the handler starts first even on a loaded machine (it must, for the
        // test to see it cancelled); the call then runs until the deadline ends it.
        options.timeout = .seconds(1)
        let error = await #expect(throws: RPCError.self) {
          _ = try await echo.get(.with { $0.text = "wait" }, options: options)
        }
        #expect(error?.code == .deadlineExceeded)
        _ = await started.first()
        let sawIt: Void? = await cancelled.first()
        #expect(sawIt != nil)
      }
    }
  }

  @Test func clientCancellationReachesTheServerHandler() async throws {
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let (cancelled, cancelledContinuation) = AsyncStream.makeStream(of: Void.self)
    let service = WaitingEchoService(started: startedContinuation, sawCancellation: cancelledContinuation)
    try await withTestServer(services: [service]) { port, _ in
      try await withTestClient(port: port) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        let call = Task {
          try await echo.expand(.with { $0.text = "wait" }) { response in
            for try await _ in response.messages {}
          }
        }
        _ = await started.first()
        call.cancel()
        _ = await call.result
        let sawIt: Void? = await cancelled.first()
        #expect(sawIt != nil)
      }
    }
  }

  @Test(.timeLimit(.minutes(1))) func clientCancellationFiresGRPCsRPCCancellationHandler() async throws {
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let (cancelled, cancelledContinuation) = AsyncStream.makeStream(of: Void.self)
    let service = WaitingEchoService(started: startedContinuation, sawCancellation: cancelledContinuation)
    try await withTestServer(services: [service]) { port, _ in
      try await withTestClient(port: port) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        let call = Task {
          try await echo.expand(.with { $0.text = "use the handler" }) { response in
            for try await _ in response.messages {}
          }
        }
        _ = await started.first()
        call.cancel()
        _ = await call.result
        let sawIt: Void? = await cancelled.first()
        #expect(sawIt != nil)
      }
    }
  }
}
