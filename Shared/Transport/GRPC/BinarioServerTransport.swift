import GRPCCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// GRPCCore's `ServerTransport` over the Binario wire protocol: what a service's `GRPCServer`
/// listens with.
///
/// ```swift
/// let transport = BinarioServerTransport(host: "0.0.0.0", port: 7001, tls: .mutual(...))
/// let server = GRPCServer(transport: transport, services: [MyService()])
/// try await server.serve()
/// ```
public final class BinarioServerTransport: ServerTransport, Sendable {
  public typealias Bytes = BinarioBytes

  /// Tuning of the listener and its connections.
  public struct Configuration: Sendable {
    public var connection: BinarioConnectionConfiguration
    /// How long open calls may run on after a graceful shutdown begins before their connections
    /// are closed. `nil`: wait for them however long they take.
    public var gracefulShutdownGracePeriod: Duration?

    public init(
      connection: BinarioConnectionConfiguration = .defaults,
      gracefulShutdownGracePeriod: Duration? = .seconds(30)
    ) {
      self.connection = connection
      self.gracefulShutdownGracePeriod = gracefulShutdownGracePeriod
    }

    public static var defaults: Self { Self() }
  }

  private let host: String
  private let port: Int
  private let tls: BinarioTLSConfiguration
  private let configuration: Configuration
  private let group: any EventLoopGroup
  private let logger: Logger
  private let state = NIOLockedValueBox(State())

  private struct State {
    var listener: BinarioListener?
    var addressWaiters: [UInt64: CheckedContinuation<SocketAddress, any Error>] = [:]
    var bindError: (any Error)?
    var shutdownRequested = false
  }

  public init(
    host: String,
    port: Int,
    tls: BinarioTLSConfiguration,
    configuration: Configuration = .defaults,
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    logger: Logger = Logger(label: "binario.transport.server")
  ) {
    self.host = host
    self.port = port
    self.tls = tls
    self.configuration = configuration
    self.group = group
    self.logger = logger
  }

  /// The bound address, once ``listen(streamHandler:)`` has bound it (useful with port 0).
  ///
  /// Throws the bind error if binding failed, `UNAVAILABLE` if the transport was shut down
  /// before it listened, and `CancellationError` if the waiting task is cancelled.
  public func listeningAddress() async throws -> SocketAddress {
    let waiterID = UInt64.random(in: .min ... .max)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let result = self.state.withLockedValue { state -> Result<SocketAddress, any Error>? in
          if let address = state.listener?.localAddress { return .success(address) }
          if let error = state.bindError { return .failure(error) }
          if state.shutdownRequested { return .failure(Self.shutDownBeforeListening) }
          if Task.isCancelled { return .failure(CancellationError()) }
          state.addressWaiters[waiterID] = continuation
          return nil
        }
        if let result { continuation.resume(with: result) }
      }
    } onCancel: {
      let waiter = self.state.withLockedValue { $0.addressWaiters.removeValue(forKey: waiterID) }
      waiter?.resume(throwing: CancellationError())
    }
  }

  private static let shutDownBeforeListening = RPCError(
    code: .unavailable,
    message: "the transport was shut down before it was listening"
  )

  public func listen(
    streamHandler:
      @escaping @Sendable (
        _ stream: RPCStream<Inbound, Outbound>,
        _ context: ServerContext
      ) async -> Void
  ) async throws {
    // Not a task group: see `CallTasks`.
    let calls = CallTasks()
    let acceptor = GRPCCallAcceptor(calls: calls, streamHandler: streamHandler, configuration: self.configuration.connection)
    let listener: BinarioListener
    do {
      listener = try await BinarioListener.bind(
        host: self.host,
        port: self.port,
        tls: self.tls,
        configuration: self.configuration.connection,
        group: self.group,
        logger: self.logger,
        acceptor: acceptor
      )
    } catch {
      let waiters = self.state.withLockedValue { state in
        state.bindError = error
        defer { state.addressWaiters.removeAll() }
        return state.addressWaiters
      }
      for waiter in waiters.values { waiter.resume(throwing: error) }
      throw error
    }
    let (waiters, shutdownRequested) = self.state.withLockedValue { state in
      state.listener = listener
      defer { state.addressWaiters.removeAll() }
      return (state.addressWaiters, state.shutdownRequested)
    }
    if let address = listener.localAddress {
      for waiter in waiters.values { waiter.resume(returning: address) }
    }
    if shutdownRequested {
      listener.beginGracefulShutdown(gracePeriod: self.configuration.gracefulShutdownGracePeriod)
    }
    // Once every connection is closed no new call can arrive: `listen` returns after the handlers
    // of the last calls finish.
    await withTaskCancellationHandler {
      await listener.waitUntilClosed()
      await calls.waitUntilAllFinished()
    } onCancel: {
      listener.close()
      calls.cancelAll()
    }
  }

  public func beginGracefulShutdown() {
    let (listener, waiters) = self.state.withLockedValue {
      state -> (BinarioListener?, [UInt64: CheckedContinuation<SocketAddress, any Error>]) in
      state.shutdownRequested = true
      // Waiters for an address the transport will never have.
      guard state.listener == nil else { return (state.listener, [:]) }
      defer { state.addressWaiters = [:] }
      return (nil, state.addressWaiters)
    }
    for waiter in waiters.values { waiter.resume(throwing: Self.shutDownBeforeListening) }
    listener?.beginGracefulShutdown(gracePeriod: self.configuration.gracefulShutdownGracePeriod)
  }
}

/// Hands each call to the GRPCCore side of the transport: starts the call's handler task right
/// where the call arrives, on its connection's event loop.
///
/// Started here rather than from the listening task (as a task group's child would be): handing
/// each call to that task first cost every call a wake-up of a thread of Swift's global executor
/// and a second hop back to the loop. The handler tasks inherit no task-locals from `listen`
/// (GRPCCore sets none there; each call's interceptors set their own).
private struct GRPCCallAcceptor: BinarioCallAcceptor {
  typealias StreamHandler =
    @Sendable (
      RPCStream<ServerStreamAdapter.Inbound, ServerStreamAdapter.Outbound>,
      ServerContext
    ) async -> Void

  let calls: CallTasks
  let streamHandler: StreamHandler
  let configuration: BinarioConnectionConfiguration

  func acceptCall(_ call: BinarioServerCall) {
    let accepted = ServerStreamAdapter.accept(call, configuration: self.configuration)
    let streamHandler = self.streamHandler
    // On the call's own loop: see `EventLoopTaskExecutor`.
    self.calls.start(executorPreference: accepted.executor) {
      await accepted.run(streamHandler)
    }
  }
}
