import Foundation
import GRPCCore
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// Turns one frame-layer ``BinarioServerCall`` into the `RPCStream` and `ServerContext` a
/// GRPCCore server handles: inbound frames become a backpressured async sequence of request
/// parts, response parts become frames.
enum ServerStreamAdapter {
  typealias Inbound = RPCAsyncSequence<RPCRequestPart<BinarioBytes>, any Error>
  typealias Outbound = RPCWriter<RPCResponsePart<BinarioBytes>>.Closable

  struct Accepted: Sendable {
    var stream: RPCStream<Inbound, Outbound>
    /// The context, but for its cancellation handle: that one must be made (and bound to the
    /// handler's task) by ``run(_:)``.
    var context: ServerContext
    var cancellation: CancellationRelay
    /// Runs the handler's task on the call's event loop.
    var executor: EventLoopTaskExecutor

    /// Runs `handler` for this call in the calling task, with the call's cancellation handle
    /// bound the way GRPCCore expects (so `withRPCCancellationHandler` fires too).
    func run(
      _ handler: (RPCStream<Inbound, Outbound>, ServerContext) async -> Void
    ) async {
      await withServerContextRPCCancellationHandle { handle in
        var context = self.context
        context.cancellation = handle
        self.cancellation.attach(handle)
        await handler(self.stream, context)
      }
    }
  }

  /// Wires `call` up; runs on the call's event loop, inside `acceptCall`.
  static func accept(
    _ call: BinarioServerCall,
    configuration: BinarioConnectionConfiguration
  ) -> Accepted {
    let descriptor =
      MethodDescriptor(wirePath: call.method)
      ?? MethodDescriptor(fullyQualifiedService: "", method: call.method)
    let source = InboundPartBuffer<RPCRequestPart<BinarioBytes>>(
      highWatermark: configuration.inboundBufferHighWatermark,
      lowWatermark: configuration.inboundBufferLowWatermark,
      resumeReading: { call.eventLoop.execute { call.setReadPaused(false) } }
    )
    // The timeout goes to the context, not to the metadata: see `BinarioServerContext.timeout`.
    _ = source.yield(.metadata(Metadata(wire: call.metadata)))

    let cancellation = CancellationRelay()
    let writer = ServerResponseWriter(call: call)
    call.onEvent { event in
      switch event {
      case .message(let payload):
        if source.yield(.message(BinarioBytes(payload))) == .pauseReading {
          call.setReadPaused(true)
        }
      case .halfClose:
        source.finish()
      case .cancelled(let reason):
        writer.markCallOver()
        cancellation.cancel()
        let error: RPCError
        switch reason {
        case .cancelledByPeer: error = RPCError(code: .cancelled, message: "the caller cancelled the call")
        case .deadlineExceeded: error = RPCError(code: .deadlineExceeded, message: "deadline exceeded")
        case .connectionClosed: error = RPCError(code: .unavailable, message: "the caller's connection closed")
        }
        source.finish(throwing: error)
      }
    }

    var context = ServerContext(
      descriptor: descriptor,
      remotePeer: call.peer.remoteAddress,
      localPeer: call.peer.localAddress,
      cancellation: ServerContext.RPCCancellationHandle()
    )
    context.transportSpecific = BinarioServerContext(peerIdentity: call.peer.identity, timeout: call.timeout)
    let stream = RPCStream(
      descriptor: descriptor,
      inbound: RPCAsyncSequence(wrapping: InboundPartSequence(buffer: source)),
      outbound: RPCWriter.Closable(wrapping: writer)
    )
    return Accepted(
      stream: stream,
      context: context,
      cancellation: cancellation,
      executor: EventLoopTaskExecutor(call.eventLoop)
    )
  }
}

/// Passes the transport's "this call is cancelled" to the handle GRPCCore binds to the handler's
/// task, which only exists once that task runs: a cancellation that comes first is kept.
final class CancellationRelay: Sendable {
  private struct State {
    var handle: ServerContext.RPCCancellationHandle?
    var cancelled = false
  }

  private let state = NIOLockedValueBox(State())

  func attach(_ handle: ServerContext.RPCCancellationHandle) {
    let cancelled = self.state.withLockedValue { state in
      state.handle = handle
      return state.cancelled
    }
    if cancelled { handle.cancel() }
  }

  func cancel() {
    let handle = self.state.withLockedValue { state in
      state.cancelled = true
      return state.handle
    }
    handle?.cancel()
  }
}

/// Writes a GRPCCore handler's response parts as frames.
final class ServerResponseWriter: ClosableRPCWriterProtocol {
  typealias Element = RPCResponsePart<BinarioBytes>

  private let call: BinarioServerCall
  /// Set once the call is over (ended by us, or cancelled): later writes fail.
  private let isOver = Atomic<Bool>(false)

  init(call: BinarioServerCall) {
    self.call = call
  }

  func markCallOver() {
    self.isOver.store(true, ordering: .relaxed)
  }

  func write(_ element: Element) async throws {
    guard !self.isOver.load(ordering: .relaxed) else {
      throw RPCError(code: .cancelled, message: "the call is already over")
    }
    switch element {
    case .metadata(let metadata):
      self.call.sendHeaders(metadata.wireEntries())
    case .message(let bytes):
      guard self.call.sendMessage(bytes.data) else {
        let limit = self.call.maximumPayloadSize
        let end = WireEnd(
          code: WireStatusCode.resourceExhausted,
          message: "response message of \(bytes.count) bytes is larger than the limit of \(limit) bytes"
        )
        self.endOnce(end)
        throw RPCError(code: .resourceExhausted, message: end.statusMessage)
      }
    case .status(let status, let trailers):
      self.endOnce(WireEnd(status: status, trailers: trailers))
      return
    }
    await self.call.waitUntilWritable()
  }

  func write(contentsOf elements: some Sequence<Element>) async throws {
    for element in elements { try await self.write(element) }
  }

  func finish() async {
    self.endOnce(WireEnd(code: WireStatusCode.internalError, message: "the handler finished without a status"))
  }

  func finish(throwing error: any Error) async {
    let rpcError = error as? RPCError ?? RPCError(code: .unknown, message: "the handler failed")
    self.endOnce(WireEnd(status: Status(code: Status.Code(rpcError.code), message: rpcError.message), trailers: rpcError.metadata))
  }

  private func endOnce(_ end: WireEnd) {
    guard !self.isOver.exchange(true, ordering: .relaxed) else { return }
    self.call.end(end)
  }
}
