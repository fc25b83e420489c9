import BinarioEcho
import GRPCCore

/// An echo service whose unary handler tells the test it started, then holds the call until
/// the test opens the gate (or the call is cancelled; `"hold through cancellation"` holds on
/// even then, like a handler still busy when its server is lost).
struct GatedEchoService: Binario_Echo_V1_Echo.SimpleServiceProtocol {
  let started: AsyncStream<Void>.Continuation
  let gate: AsyncStream<Void>

  static func make() -> (service: GatedEchoService, started: AsyncStream<Void>, open: AsyncStream<Void>.Continuation) {
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let (gate, gateContinuation) = AsyncStream.makeStream(of: Void.self)
    return (GatedEchoService(started: startedContinuation, gate: gate), started, gateContinuation)
  }

  func get(request: Binario_Echo_V1_EchoRequest, context: ServerContext) async throws -> Binario_Echo_V1_EchoResponse {
    if request.text == "hold" {
      self.started.yield()
      for await _ in self.gate { break }
    } else if request.text == "hold through cancellation" {
      self.started.yield()
      let gate = self.gate
      await Task { for await _ in gate { break } }.value
    }
    return .with { $0.text = request.text }
  }

  func expand(request: Binario_Echo_V1_EchoRequest, response: RPCWriter<Binario_Echo_V1_EchoResponse>, context: ServerContext) async throws {
    try await response.write(.with { $0.text = "first" })
    self.started.yield()
    for await _ in self.gate { break }
  }

  func collect(request: RPCAsyncSequence<Binario_Echo_V1_EchoRequest, any Error>, context: ServerContext) async throws -> Binario_Echo_V1_EchoResponse
  {
    .init()
  }

  func update(
    request: RPCAsyncSequence<Binario_Echo_V1_EchoRequest, any Error>,
    response: RPCWriter<Binario_Echo_V1_EchoResponse>,
    context: ServerContext
  ) async throws {}
}

extension AsyncStream {
  /// The next element, for tests that wait on one event.
  func first() async -> Element? {
    var iterator = self.makeAsyncIterator()
    return await iterator.next()
  }
}

/// Suspends until the calling task is cancelled, then throws `CancellationError`: for request
/// producers that must stay open until the test (or a deadline) ends the call.
func waitUntilCancelled() async throws {
  let (never, keepOpen) = AsyncStream.makeStream(of: Void.self)
  for await _ in never {}
  withExtendedLifetime(keepOpen) {}
  throw CancellationError()
}
