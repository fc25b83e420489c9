import Foundation
import GRPCCore
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
    var context: ServerContext
  }

  /// Wires `call` up; runs on the call's event loop, inside `acceptCall`.
  static func accept(
    _ call: BinarioServerCall,
    configuration: BinarioConnectionConfiguration
  ) -> Accepted {
    let descriptor =
      MethodDescriptor(wirePath: call.method)
      ?? MethodDescriptor(fullyQualifiedService: "", method: call.method)
    let produced = NIOThrowingAsyncSequenceProducer.makeSequence(
      elementType: RPCRequestPart<BinarioBytes>.self,
      backPressureStrategy: NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark(
        lowWatermark: configuration.inboundBufferLowWatermark,
        highWatermark: configuration.inboundBufferHighWatermark
      ),
      finishOnDeinit: false,
      delegate: ReadPausingDelegate(setPaused: call.setReadPaused, eventLoop: call.eventLoop)
    )
    let source = produced.source
    var metadata = Metadata(wire: call.metadata)
    if let timeout = call.timeout {
      metadata.addString("\(timeout.roundedUpMilliseconds)m", forKey: Metadata.grpcTimeoutKey)
    }
    _ = source.yield(.metadata(metadata))

    let cancellation = ServerContext.RPCCancellationHandle()
    let writer = ServerResponseWriter(call: call)
    call.onEvent { event in
      switch event {
      case .message(let payload):
        if source.yield(.message(BinarioBytes(payload))) == .stopProducing {
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
        source.finish(error)
      }
    }

    var context = ServerContext(
      descriptor: descriptor,
      remotePeer: call.peer.remoteAddress,
      localPeer: call.peer.localAddress,
      cancellation: cancellation
    )
    context.transportSpecific = BinarioServerContext(peerIdentity: call.peer.identity)
    let stream = RPCStream(
      descriptor: descriptor,
      inbound: RPCAsyncSequence(wrapping: produced.sequence),
      outbound: RPCWriter.Closable(wrapping: writer)
    )
    return Accepted(stream: stream, context: context)
  }
}

/// Resumes reading the connection when a slow reader has caught up.
struct ReadPausingDelegate: NIOAsyncSequenceProducerDelegate {
  let setPaused: @Sendable (Bool) -> Void
  let eventLoop: any EventLoop

  func produceMore() {
    self.eventLoop.execute { self.setPaused(false) }
  }

  func didTerminate() {
    self.eventLoop.execute { self.setPaused(false) }
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
