import BinarioTracing
import GRPCCore
import Tracing

/// A client span for every call a service makes to another, child of the span the call is made
/// in, whose context goes to the callee as `traceparent`/`tracestate` metadata. The span ends
/// when the response has been read to its end (or the call failed).
public struct TracingClientInterceptor: ClientInterceptor {
  private let serverAddress: String
  private let serverPort: Int
  private let tracer: any Tracer

  /// - Parameters:
  ///   - serverAddress: Where the callee listens, for the span's attributes; so is `serverPort`.
  ///   - tracer: By default the one bootstrapped for the process (``ServiceTracing``).
  public init(serverAddress: String, serverPort: Int, tracer: any Tracer = InstrumentationSystem.tracer) {
    self.serverAddress = serverAddress
    self.serverPort = serverPort
    self.tracer = tracer
  }

  public func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingClientRequest<Input>,
    context: ClientContext,
    next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
  ) async throws -> StreamingClientResponse<Output> {
    let method = context.descriptor.fullyQualifiedMethod
    let span = self.tracer.startSpan(method, context: ServiceContext.current ?? .topLevel, ofKind: .client)
    if span.isRecording {
      span.updateAttributes { attributes in
        attributes[SpanAttributeName.rpcSystem] = "grpc"
        attributes[SpanAttributeName.rpcMethod] = method
        attributes[SpanAttributeName.serverAddress] = self.serverAddress
        attributes[SpanAttributeName.serverPort] = self.serverPort
      }
    }
    var request = request
    self.tracer.inject(span.context, into: &request.metadata, using: MetadataInjector())

    var response: StreamingClientResponse<Output>
    do {
      response = try await next(request, context)
    } catch {
      CallSpan.end(span, outcome: RPCOutcome(error: error), kind: .client)
      throw error
    }
    switch response.accepted {
    case .success(var contents):
      contents.bodyParts = RPCAsyncSequence(
        wrapping: EndObservingSequence(base: contents.bodyParts) { error in
          CallSpan.end(span, outcome: error.map(RPCOutcome.init(error:)) ?? .ok, kind: .client)
        }
      )
      response.accepted = .success(contents)
    case .failure(let error):
      CallSpan.end(span, outcome: RPCOutcome(error: error), kind: .client)
    }
    return response
  }
}

/// An async sequence that reports once how its base ended: `nil` at its end, or the error it
/// threw. A sequence dropped before its end reports nothing.
struct EndObservingSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
  typealias Element = Base.Element
  let base: Base
  let onEnd: @Sendable ((any Error)?) -> Void

  func makeAsyncIterator() -> Iterator {
    Iterator(base: self.base.makeAsyncIterator(), onEnd: self.onEnd)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let onEnd: @Sendable ((any Error)?) -> Void
    var ended = false

    mutating func next() async throws -> Element? {
      guard !self.ended else { return nil }
      do {
        if let element = try await self.base.next() { return element }
        self.ended = true
        self.onEnd(nil)
        return nil
      } catch {
        self.ended = true
        self.onEnd(error)
        throw error
      }
    }
  }
}
