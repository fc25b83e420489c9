import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle
import Synchronization

/// The process's HTTP endpoint for operators, as a lifecycle `Service`: `GET /metrics` for
/// Prometheus, `GET /livez` (200 while the process answers) and `GET /readyz` (200 while every
/// ``Readiness`` check passes, else 503 naming the failing ones) for probes.
///
/// `run()` binds, serves until graceful shutdown or cancellation, then closes the listener and any
/// open connection. Each connection gets one response and is closed (`connection: close`).
/// ``ServiceRunner`` starts it first and stops it last, so `/readyz` answers 503 while the
/// process drains.
public final class MetricsHTTPServer: Service, Sendable {
  private let host: String
  private let port: Int
  private let registry: PrometheusCollectorRegistry
  private let readiness: Readiness
  private let gauges: ScrapeTimeGauges
  private let group: any EventLoopGroup
  private let logger: Logger
  private let boundAddress = OnceValue<SocketAddress>()
  private let connections = Mutex<[ObjectIdentifier: any Channel]>([:])

  public init(
    host: String,
    port: Int,
    registry: PrometheusCollectorRegistry,
    readiness: Readiness = Readiness(),
    dataDirectory: String? = nil,
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    logger: Logger
  ) {
    self.host = host
    self.port = port
    self.registry = registry
    self.readiness = readiness
    self.gauges = ScrapeTimeGauges(registry: registry, readiness: readiness, dataDirectory: dataDirectory)
    self.group = group
    self.logger = logger
  }

  /// The bound address, once `run()` has bound it (useful with port 0). Throws if binding failed.
  public func listeningAddress() async throws -> SocketAddress {
    try await self.boundAddress.value
  }

  public func run() async throws {
    let channel: any Channel
    do {
      channel = try await ServerBootstrap(group: self.group)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { [registry, readiness, gauges, weak self] child in
          self?.track(child)
          return child.eventLoop.makeCompletedFuture {
            try child.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
            try child.pipeline.syncOperations.addHandler(MetricsHTTPHandler(registry: registry, readiness: readiness, gauges: gauges))
          }
        }
        .bind(host: self.host, port: self.port)
        .get()
    } catch {
      let failure = MetricsServerError(host: self.host, port: self.port, underlying: error)
      self.boundAddress.resolve(.failure(failure))
      throw failure
    }
    if let address = channel.localAddress {
      self.boundAddress.resolve(.success(address))
      self.logger.info("metrics endpoint listening", metadata: ["address": "\(address)", "paths": "/metrics /livez /readyz"])
    }

    await withTaskCancellationOrGracefulShutdownHandler {
      try? await channel.closeFuture.get()
    } onCancelOrGracefulShutdown: {
      channel.close(promise: nil)
    }
    let open = self.connections.withLock { connections in
      defer { connections.removeAll() }
      return Array(connections.values)
    }
    for connection in open {
      try? await connection.close()
    }
    self.logger.debug("metrics endpoint closed")
  }

  private func track(_ child: any Channel) {
    let id = ObjectIdentifier(child)
    self.connections.withLock { $0[id] = child }
    child.closeFuture.whenComplete { [weak self] _ in
      self?.connections.withLock { _ = $0.removeValue(forKey: id) }
    }
  }
}

/// The metrics endpoint could not bind its address.
public struct MetricsServerError: Error, CustomStringConvertible {
  public var host: String
  public var port: Int
  public var underlying: any Error

  public var description: String {
    "cannot serve metrics on \(self.host):\(self.port) (settings metricsHost/metricsPort): \(self.underlying)"
  }
}
