import BinarioDomain
import BinarioProto
import BinarioTransport
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// Follows identity's `WatchRevocations` stream (an internal method: identity serves it to the
/// gateway's certificate identity only) into ``RevokedSessions``, so a logout takes effect at the
/// gateway at once. When the stream fails or ends it subscribes again, with backoff; on each new
/// subscription identity first replays the sessions revoked within the token lifetime. Runs until
/// graceful shutdown or cancellation.
public struct RevocationFeed: Service {
  static let method = "/" + Binario_Identity_V1_Identity.Method.WatchRevocations.descriptor.fullyQualifiedMethod
  /// How long to remember a revocation that does not say (tokens live far less).
  static let fallbackMemory: TimeInterval = 24 * 3600

  let identity: UpstreamConnections
  let revokedSessions: RevokedSessions
  let clock: any GatewayClock
  let loop: any EventLoop
  let backoff: Backoff
  let logger: Logger

  public func run() async throws {
    try await cancelWhenGracefulShutdown {
      var failures = 0
      while !Task.isCancelled {
        let received = ManagedCounter()
        do {
          let end = try await self.identity.serverStream(
            method: Self.method,
            request: Binario_Identity_V1_WatchRevocationsRequest(),
            on: self.loop,
            as: Binario_Identity_V1_WatchRevocationsResponse.self
          ) { message in
            received.increment()
            let until =
              message.hasRememberUntil
              ? message.rememberUntil.date
              : self.clock.now.addingTimeInterval(Self.fallbackMemory)
            self.revokedSessions.revoke(message.sessionIds, until: until)
          }
          if Task.isCancelled { return }
          self.logger.warning(
            "identity's revocation feed ended; subscribing again",
            metadata: ["code": "\(end.statusCode)", "message": "\(end.statusMessage)"]
          )
        } catch {
          self.logger.log(
            level: PeerFailureLog.level(attempt: failures + 1, peerAnsweredBefore: received.value > 0),
            "cannot follow identity's revocation feed; retrying",
            metadata: ["error": "\(error)"]
          )
        }
        failures = received.value > 0 ? 1 : failures + 1
        // Cancelled while waiting (the gateway is stopping): the loop ends, not an error.
        try? await Task.sleep(for: self.backoff.delay(afterFailures: failures))
      }
    }
  }
}

/// A count updated from the event loop and read from the feed's task.
final class ManagedCounter: Sendable {
  private let count = Mutex<Int>(0)
  func increment() { self.count.withLock { $0 += 1 } }
  var value: Int { self.count.withLock { $0 } }
}
