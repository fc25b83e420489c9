import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle
import SwiftProtobuf

/// The gateway's gRPC front door: standard gRPC over HTTP/2 with TLS, on its own port, for
/// clients such as grpcio, grpc-swift and grpcurl.
///
/// It runs grpc-swift-nio-transport's HTTP/2 server transport without a GRPCCore server: each
/// stream's metadata and raw message bytes go to ``GatewayCallForwarder`` as a
/// ``BridgedClientCall``, so the token check, role policy, rate limit, request id and caller
/// metadata are the Binario listener's, and messages reach the upstream as they came, never
/// decoded. `grpc-timeout` becomes the call's deadline; a reset stream cancels the upstream
/// call. Health is the gateway's own; server reflection (``ServerReflection``) is answered here.
public final class GRPCFrontDoor: Service, Sendable {
  public typealias Transport = HTTP2ServerTransport.Posix
  typealias Inbound = RPCAsyncSequence<RPCRequestPart<GRPCNIOTransportBytes>, any Error>
  typealias Outbound = RPCWriter<RPCResponsePart<GRPCNIOTransportBytes>>.Closable

  /// Request headers that belong to HTTP/2 and gRPC framing, not to the call.
  static let transportHeaders: Set<String> = ["content-type", "te", "grpc-encoding", "grpc-accept-encoding", "user-agent"]

  private let transport: Transport
  private let forwarder: GatewayCallForwarder
  /// Reflection's answers, and which methods take a single request message (read before the
  /// call is forwarded, in the stream's own task).
  private let reflection: ServerReflection
  private let group: MultiThreadedEventLoopGroup
  private let maximumMessageSize: Int
  private let logger: Logger

  /// - Parameters:
  ///   - certificateChain, privateKey: PEM files the listener presents (the gateway's own).
  ///   - maximumMessageSize: the largest message either way, as on the Binario listener.
  public init(
    host: String,
    port: Int,
    certificateChain: String,
    privateKey: String,
    maximumMessageSize: Int,
    limits: FrontDoorLimits = .defaults,
    gateway: Gateway,
    group: MultiThreadedEventLoopGroup = .singleton,
    logger: Logger
  ) throws {
    self.transport = Transport(
      address: .ipv4(host: host, port: port),
      transportSecurity: .tls(certificateChain: [.file(path: certificateChain, format: .pem)], privateKey: .file(path: privateKey, format: .pem)),
      config: .defaults { config in
        config.rpc.maxRequestPayloadSize = maximumMessageSize
        // A message over the limit is refused with a status before the transport's own check
        // resets the stream (MessageSizeLimitHandler).
        config.channelDebuggingCallbacks.onAcceptHTTP2Stream = { stream in
          stream.eventLoop.makeCompletedFuture {
            try stream.pipeline.syncOperations.addHandler(MessageSizeLimitHandler(limit: maximumMessageSize), position: .first)
          }
        }
        config.http2.maxConcurrentStreams = limits.callsPerConnection
        config.connection.maxIdleTime = limits.idleTimeout
        // An idle connection is closed gracefully: GOAWAY and a PING the client must answer. One
        // that never answers (or never even sent its preface) is closed by keepalive instead.
        config.connection.keepalive = .init(
          time: limits.idleTimeout,
          timeout: limits.slowClientTimeout,
          clientBehavior: .defaults
        )
        let connectionLimiter = ConnectionLimiter(limits: limits.connections)
        config.channelDebuggingCallbacks.onBindTCPListener = { listener in
          listener.eventLoop.makeCompletedFuture {
            try listener.pipeline.syncOperations.addHandler(connectionLimiter.handler(), position: .first)
          }
        }
        // The TLS handshake and the client's HTTP/2 preface (24 bytes) within the slow-client
        // timeout: until the preface, HTTP/2 can neither go idle nor ping.
        config.channelDebuggingCallbacks.onAcceptTCPConnection = { connection in
          connection.eventLoop.makeCompletedFuture {
            let pipeline = connection.pipeline.syncOperations
            try pipeline.addHandler(
              ConnectionStartTimeoutHandler(timeout: limits.slowClientTimeout, requiredBytes: 24),
              position: .after(try pipeline.handler(type: NIOSSLServerHandler.self))
            )
          }
        }
      },
      eventLoopGroup: group
    )
    self.forwarder = gateway.acceptor
    self.reflection = try gateway.serverReflection()
    self.group = group
    self.maximumMessageSize = maximumMessageSize
    self.logger = logger
  }

  /// The port the transport is bound to, once it is.
  public func listeningPort() async throws -> Int {
    try await self.transport.listeningAddress.ipv4?.port ?? 0
  }

  public func run() async throws {
    let transport = self.transport
    let logger = self.logger
    try await withThrowingDiscardingTaskGroup { tasks in
      tasks.addTask {
        if let address = try? await transport.listeningAddress, let ipv4 = address.ipv4 {
          logger.notice("listening", metadata: ["listener": "grpc", "address": "\(ipv4.host):\(ipv4.port)"])
        }
      }
      try await withGracefulShutdownHandler {
        try await transport.listen { stream, context in
          await self.serve(RPCStream(descriptor: stream.descriptor, inbound: stream.inbound, outbound: stream.outbound), context)
        }
      } onGracefulShutdown: {
        transport.beginGracefulShutdown()
      }
    }
  }

  // MARK: One stream

  private func serve(_ stream: RPCStream<Inbound, Outbound>, _ context: ServerContext) async {
    var inbound = stream.inbound.makeAsyncIterator()
    let requestMetadata: Metadata
    do {
      guard case .metadata(let metadata)? = try await inbound.next() else {
        try? await stream.outbound.write(.status(Status(code: .internalError, message: "the stream began without headers"), [:]))
        await stream.outbound.finish()
        return
      }
      requestMetadata = metadata
    } catch {
      await stream.outbound.finish(throwing: error)
      return
    }
    let method = "/" + context.descriptor.fullyQualifiedMethod
    if ServerReflection.methods.contains(method) {
      await self.reflect(inbound: inbound, outbound: stream.outbound)
      return
    }

    var wire = WireMetadata()
    for entry in requestMetadata.wireEntries() where !entry.key.hasPrefix(":") && !Self.transportHeaders.contains(entry.key) {
      wire.append(entry)
    }
    let call = BridgedClientCall(
      door: .grpc,
      method: method,
      metadata: wire,
      timeout: requestMetadata.grpcTimeout,
      peer: BinarioCallPeer(identity: nil, remoteAddress: context.remotePeer, localAddress: context.localPeer),
      eventLoop: MultiThreadedEventLoopGroup.currentEventLoop ?? self.group.next(),
      maximumPayloadSize: self.maximumMessageSize
    )
    let forwarder = self.forwarder
    if self.reflection.singleRequestMethods.contains(method) {
      // The request is one message: read it (and the half-close) here, then hand the call over
      // with it in one hop, so it goes upstream in one frame; then answer from this same task.
      var messages: [Data] = []
      do {
        while let part = try await inbound.next() {
          if case .message(let bytes) = part { messages.append(bytes.withUnsafeBytes { Data($0) }) }
        }
      } catch {
        await stream.outbound.finish(throwing: error)
        return
      }
      call.eventLoop.execute {
        forwarder.accept(call)
        for message in messages { call.deliver(.message(message)) }
        call.deliver(.halfClose)
      }
      await withRPCCancellationHandler {
        await Self.writeResponses(of: call, to: stream.outbound)
      } onCancelRPC: {
        call.clientCancelled()
      }
      return
    }

    call.eventLoop.execute { forwarder.accept(call) }
    let requests = TaskHandOff(inbound)
    await withRPCCancellationHandler {
      await withDiscardingTaskGroup { tasks in
        tasks.addTask { await Self.readRequests(from: requests, into: call) }
        await Self.writeResponses(of: call, to: stream.outbound)
        tasks.cancelAll()
      }
    } onCancelRPC: {
      call.clientCancelled()
    }
  }

  /// The client's messages and half-close, into the call, pausing while the gateway asks.
  private static func readRequests(from reader: TaskHandOff<Inbound.AsyncIterator>, into call: BridgedClientCall) async {
    var inbound = reader.value
    do {
      while true {
        await call.waitWhileReadsPaused()
        guard let part = try await inbound.next() else { break }
        if case .message(let bytes) = part {
          call.deliver(.message(bytes.withUnsafeBytes { Data($0) }))
        }
      }
      call.deliver(.halfClose)
    } catch {
      call.clientCancelled()
    }
  }

  /// The gateway's answer, onto the HTTP/2 stream.
  private static func writeResponses(of call: BridgedClientCall, to outbound: Outbound) async {
    var sentHeaders = false
    do {
      // Each batch in one write: a unary answer costs one hop to the stream's event loop.
      while case let batch = await call.nextResponses(), !batch.isEmpty {
        var parts: [RPCResponsePart<GRPCNIOTransportBytes>] = []
        var bytes = 0
        for response in batch {
          switch response {
          case .headers(let headers):
            sentHeaders = true
            parts.append(.metadata(Metadata(wire: headers)))
          case .message(let payload):
            if !sentHeaders {
              sentHeaders = true
              parts.append(.metadata([:]))
            }
            parts.append(.message(GRPCNIOTransportBytes(payload)))
            bytes += payload.count
          case .end(let end):
            parts.append(.status(Status(wire: end), Metadata(wire: end.trailers)))
          }
        }
        try await outbound.write(contentsOf: parts)
        if bytes > 0 { call.responseWritten(bytes: bytes) }
      }
      await outbound.finish()
    } catch {
      call.clientCancelled()
      await outbound.finish(throwing: error)
    }
  }

  // MARK: Reflection

  private func reflect(inbound: Inbound.AsyncIterator, outbound: Outbound) async {
    var inbound = inbound
    var sent: Set<String> = []
    do {
      try await outbound.write(.metadata([:]))
      while let part = try await inbound.next() {
        guard case .message(let bytes) = part else { continue }
        let request: ServerReflection.Request
        do {
          request = try ServerReflection.Request(serializedBytes: bytes.withUnsafeBytes { Data($0) })
        } catch {
          try await outbound.write(.status(Status(code: .invalidArgument, message: "the request is not a ServerReflectionRequest"), [:]))
          await outbound.finish()
          return
        }
        let response = self.reflection.answer(request, sent: &sent)
        try await outbound.write(.message(GRPCNIOTransportBytes(try response.serializedData())))
      }
      try await outbound.write(.status(Status(code: .ok, message: ""), [:]))
      await outbound.finish()
    } catch {
      await outbound.finish(throwing: error)
    }
  }
}
