import BinarioProto
import BinarioTransport
import Foundation
import NIOCore
import Synchronization

/// Asks upstreams for their health (`grpc.health.v1.Health/Check` on the frame layer) and keeps
/// each answer for a short while, so health checks at the gateway do not multiply into a check
/// of every upstream each time.
final class UpstreamHealthChecker: Sendable {
  typealias ServingStatus = Grpc_Health_V1_HealthCheckResponse.ServingStatus

  static let checkMethod = "/grpc.health.v1.Health/Check"

  private struct Key: Hashable {
    var upstream: String
    var service: String
  }

  private struct Entry {
    var serving: Bool
    var checkedAt: Duration
  }

  private let upstreams: [String: UpstreamConnections]
  private let cacheDuration: Duration
  private let checkTimeout: Duration
  private let clock: any GatewayClock
  private let cache = Mutex<[Key: Entry]>([:])

  init(upstreams: [String: UpstreamConnections], cacheDuration: Duration, checkTimeout: Duration, clock: any GatewayClock) {
    self.upstreams = upstreams
    self.cacheDuration = cacheDuration
    self.checkTimeout = checkTimeout
    self.clock = clock
  }

  /// Whether `upstream` reports `service` (`""`: the whole server) SERVING; `completion` runs on
  /// `loop`. An upstream that cannot be reached, or answers anything else, is not serving.
  /// Must be called on `loop`.
  func isServing(
    upstream name: String,
    service: String,
    on loop: any EventLoop,
    completion: @escaping @Sendable (Bool) -> Void
  ) {
    let key = Key(upstream: name, service: service)
    let now = self.clock.uptime
    if let entry = self.cache.withLock({ $0[key] }), now - entry.checkedAt < self.cacheDuration {
      completion(entry.serving)
      return
    }
    guard let upstream = self.upstreams[name] else {
      completion(false)
      return
    }
    let request = Grpc_Health_V1_HealthCheckRequest.with { $0.service = service }
    guard let payload = try? request.serializedData() else {
      completion(false)
      return
    }
    let timeout = self.checkTimeout
    let record: @Sendable (Bool) -> Void = { serving in
      self.cache.withLock { $0[key] = Entry(serving: serving, checkedAt: self.clock.uptime) }
      if loop.inEventLoop { completion(serving) } else { loop.execute { completion(serving) } }
    }
    upstream.withConnection(on: loop) { result in
      guard case .success(let connection) = result else {
        record(false)
        return
      }
      let answer = NIOLoopBoundBox<Bool>.makeBoxSendingValue(false, eventLoop: connection.eventLoop)
      _ = connection.openCall(
        BinarioCallRequest(method: Self.checkMethod, timeout: timeout, firstMessage: payload, halfClose: true)
      ) { event in
        switch event {
        case .headers: ()
        case .message(let data):
          answer.value = (try? Grpc_Health_V1_HealthCheckResponse(serializedBytes: data))?.status == .serving
        case .end(let end):
          record(end.statusCode == WireStatusCode.ok && answer.value)
        }
      }
    }
  }

  /// Whether every one of `targets` is serving; `completion` runs on `loop`, once.
  /// Must be called on `loop`.
  func areServing(
    _ targets: [(upstream: String, service: String)],
    on loop: any EventLoop,
    completion: @escaping @Sendable (Bool) -> Void
  ) {
    guard !targets.isEmpty else {
      completion(true)
      return
    }
    let remaining = NIOLoopBoundBox<(count: Int, allServing: Bool)>.makeBoxSendingValue(
      (targets.count, true),
      eventLoop: loop
    )
    for target in targets {
      self.isServing(upstream: target.upstream, service: target.service, on: loop) { serving in
        remaining.value.count -= 1
        remaining.value.allServing = remaining.value.allServing && serving
        if remaining.value.count == 0 { completion(remaining.value.allServing) }
      }
    }
  }
}
