import BinarioEcho
import BinarioTransport
import GRPCCore
import GRPCProtobuf
import Testing

/// A service whose handlers wait until the call is cancelled and report that they saw it.
private struct WaitingEchoService: Binario_Echo_V1_Echo.SimpleServiceProtocol {
  /// Each handler yields its request's text as it starts and once it has seen cancellation.
  let started: AsyncStream<String>.Continuation
  let sawCancellation: AsyncStream<String>.Continuation

  func get(request: Binario_Echo_V1_EchoRequest, context: ServerContext) async throws -> Binario_Echo_V1_EchoResponse {
    self.started.yield(request.text)
    try? await context.cancellation.cancelled
    self.sawCancellation.yield(request.text)
    throw RPCError(code: .cancelled, message: "gave up")
  }

  func expand(request: Binario_Echo_V1_EchoRequest, response: RPCWriter<Binario_Echo_V1_EchoResponse>, context: ServerContext) async throws {
    try await response.write(.with { $0.text = "first" })
    if request.text == "use the handler" {
      // GRPCCore's own way: a handler called when the RPC is cancelled.
      let (cancelled, cancelledContinuation) = AsyncStream.makeStream(of: Void.self)
      await withRPCCancellationHandler {
        self.started.yield(request.text)
        _ = await cancelled.first()
      } onCancelRPC: {
        cancelledContinuation.yield()
      }
    } else {
      self.started.yield(request.text)
      try? await context.cancellation.cancelled
    }
    self.sawCancellation.yield(request.text)
  }

  func collect(request: RPCAsyncSequence<Binario_Echo_V1_EchoRequest, any Error>, context: ServerContext) async throws -> Binario_Echo_V1_EchoResponse
  {
    throw RPCError(code: .unimplemented, message: "not used")
  }

  func update(
    request: RPCAsyncSequence<Binario_Echo_V1_EchoRequest, any Error>,
    response: RPCWriter<Binario_Echo_V1_EchoResponse>,
    context: ServerContext
  ) async throws {
    throw RPCError(code: .unimplemented, message: "not used")
  }
}

@Suite("Deadlines and cancellation")
struct DeadlineAndCancellationTests {
  /// The handler must be running when the deadline passes, or there is nothing to see cancelled;
  /// how soon it runs depends on the machine's load. So the handler answers one message as it
  /// starts, and a call whose deadline passed before that message arrived proves nothing: it is
  /// tried again with twice the deadline. Only events are awaited, never time.
  @Test(.timeLimit(.minutes(1))) func aPassedDeadlineGivesDeadlineExceededAndTheHandlerSeesCancellation() async throws {
    let (_, startedContinuation) = AsyncStream.makeStream(of: String.self)
    let (cancelled, cancelledContinuation) = AsyncStream.makeStream(of: String.self)
    let service = WaitingEchoService(started: startedContinuation, sawCancellation: cancelledContinuation)
    try await withTestServer(services: [service]) { port, _ in
      try await withTestClient(port: port) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        var timeout = Duration.milliseconds(200)
        for attempt in 1 ... 8 {
          var options = CallOptions.defaults
          options.timeout = timeout
          let label = "wait \(attempt)"
          let (arrived, arrival) = AsyncStream.makeStream(of: Void.self)
          let error = await #expect(throws: RPCError.self) {
            try await echo.expand(.with { $0.text = label }, options: options) { response in
              for try await _ in response.messages { arrival.yield() }
            }
          }
          arrival.finish()
          #expect(error?.code == .deadlineExceeded)
          guard await arrived.first() != nil else {
            timeout *= 2
            continue
          }
          // The handler ran before the deadline: it must see the call cancelled.
          var sawIt = false
          for await name in cancelled where name == label {
            sawIt = true
            break
          }
          #expect(sawIt)
          return
        }
        Issue.record("the handler never started within a deadline of up to \(timeout)")
      }
    }
  }

  @Test func clientCancellationReachesTheServerHandler() async throws {
    let (started, startedContinuation) = AsyncStream.makeStream(of: String.self)
    let (cancelled, cancelledContinuation) = AsyncStream.makeStream(of: String.self)
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
        let sawIt = await cancelled.first()
        #expect(sawIt != nil)
      }
    }
  }

  @Test(.timeLimit(.minutes(1))) func clientCancellationFiresGRPCsRPCCancellationHandler() async throws {
    let (started, startedContinuation) = AsyncStream.makeStream(of: String.self)
    let (cancelled, cancelledContinuation) = AsyncStream.makeStream(of: String.self)
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
        let sawIt = await cancelled.first()
        #expect(sawIt != nil)
      }
    }
  }
}
