import BinarioProto
import Synchronization

/// The health statuses the `grpc.health.v1.Health` service reports, and the handle to change them.
///
/// Statuses are keyed by fully qualified service name (`binario.identity.v1.Identity`); `""` is
/// the whole server. A name never set is unknown. ``enterShutdown()`` marks every status
/// `NOT_SERVING`, ends every watch, and ignores later changes: the server is going away.
public final class HealthStatusProvider: Sendable {
  typealias ServingStatus = Grpc_Health_V1_HealthCheckResponse.ServingStatus

  private struct Watcher {
    var service: String
    var continuation: AsyncStream<ServingStatus>.Continuation
  }

  private struct State {
    var statuses: [String: HealthStatus] = [:]
    var watchers: [UInt64: Watcher] = [:]
    var nextWatcherID: UInt64 = 0
    var isShutDown = false
  }

  private let state = Mutex(State())

  public init() {}

  /// Sets the status of `service` (`""`: the whole server) and tells its watchers if it changed.
  /// Ignored after ``enterShutdown()``.
  public func setStatus(_ status: HealthStatus, forService service: String = "") {
    self.update(service, to: status)
  }

  /// Forgets `service`: checks get `NOT_FOUND`, watchers `SERVICE_UNKNOWN`.
  public func clearStatus(forService service: String) {
    self.update(service, to: nil)
  }

  /// The status of `service`, or `nil` if unknown.
  public func status(forService service: String = "") -> HealthStatus? {
    self.state.withLock { $0.statuses[service] }
  }

  /// Whether ``enterShutdown()`` has been called.
  public var isShutDown: Bool {
    self.state.withLock { $0.isShutDown }
  }

  /// Marks every known service `NOT_SERVING`, sends that to every watcher, then ends the watches
  /// so they do not hold the server's graceful shutdown open. Later changes are ignored.
  public func enterShutdown() {
    let ended: [AsyncStream<ServingStatus>.Continuation] = self.state.withLock { state in
      guard !state.isShutDown else { return [] }
      state.isShutDown = true
      for service in state.statuses.keys {
        state.statuses[service] = .notServing
      }
      for watcher in state.watchers.values {
        watcher.continuation.yield(Self.servingStatus(state.statuses[watcher.service]))
      }
      defer { state.watchers.removeAll() }
      return state.watchers.values.map(\.continuation)
    }
    // Outside the lock: `finish()` runs `onTermination`, which takes the lock.
    for continuation in ended { continuation.finish() }
  }

  /// The statuses of `service`: the current one first, then each change. Ends after
  /// ``enterShutdown()`` (at once if already shut down), or when the consumer stops iterating.
  func watch(service: String) -> AsyncStream<ServingStatus> {
    // Only the newest status matters to a slow watcher.
    let (stream, continuation) = AsyncStream.makeStream(of: ServingStatus.self, bufferingPolicy: .bufferingNewest(1))
    let registered: UInt64? = self.state.withLock { state in
      continuation.yield(Self.servingStatus(state.statuses[service]))
      guard !state.isShutDown else { return nil }
      let id = state.nextWatcherID
      state.nextWatcherID += 1
      state.watchers[id] = Watcher(service: service, continuation: continuation)
      return id
    }
    if let id = registered {
      continuation.onTermination = { [weak self] _ in
        self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) }
      }
    } else {
      continuation.finish()
    }
    return stream
  }

  private func update(_ service: String, to status: HealthStatus?) {
    self.state.withLock { state in
      guard !state.isShutDown, state.statuses[service] != status else { return }
      state.statuses[service] = status
      // Yielding under the lock keeps every watcher's sequence in the order of the changes.
      for watcher in state.watchers.values where watcher.service == service {
        watcher.continuation.yield(Self.servingStatus(status))
      }
    }
  }

  static func servingStatus(_ status: HealthStatus?) -> ServingStatus {
    switch status {
    case .serving: return .serving
    case .notServing: return .notServing
    case nil: return .serviceUnknown
    }
  }
}
