import Foundation
import Synchronization

/// Sessions whose access tokens the gateway refuses although they have not expired: fed by
/// identity's `WatchRevocations` stream and by the gateway's own view of `Logout`. Each is kept
/// until its tokens have all expired, then forgotten.
///
/// Calls still open when their session is revoked (a notification stream, a ride being watched)
/// are told through ``watch(_:onRevoked:)``, so a signed-out or disabled account's streams end
/// at once instead of at their next call.
public final class RevokedSessions: Sendable {
  private struct State {
    var until: [String: Date] = [:]
    var insertsSincePrune = 0
    var waiters: [(sessionID: String, continuation: CheckedContinuation<Void, Never>)] = []
    /// Open calls by session, each under the number ``watch(_:onRevoked:)`` gave it.
    var watchers: [String: [Int: @Sendable () -> Void]] = [:]
    var nextWatch = 0
  }

  /// An open call's registration with ``watch(_:onRevoked:)``; ``RevokedSessions/unwatch(_:)``
  /// ends it.
  public struct Watch: Sendable {
    let sessionID: String
    let number: Int
  }

  private let state = Mutex(State())
  private let clock: any GatewayClock

  public init(clock: any GatewayClock) {
    self.clock = clock
  }

  /// Refuses `sessionIDs`' tokens until `until`.
  public func revoke(_ sessionIDs: some Sequence<String>, until: Date) {
    let now = self.clock.now
    let (woken, ended) = self.state.withLock { state -> ([CheckedContinuation<Void, Never>], [@Sendable () -> Void]) in
      var ended: [@Sendable () -> Void] = []
      for id in sessionIDs where !id.isEmpty {
        if until > now, let calls = state.watchers.removeValue(forKey: id) { ended += calls.values }
        if let known = state.until[id], known >= until { continue }
        state.until[id] = until
        state.insertsSincePrune += 1
      }
      if state.insertsSincePrune >= 1024 {
        state.insertsSincePrune = 0
        state.until = state.until.filter { $0.value > now }
      }
      guard !state.waiters.isEmpty else { return ([], ended) }
      let (done, waiting) = state.waiters.partitioned { state.until[$0.sessionID] != nil }
      state.waiters = waiting
      return (done.map(\.continuation), ended)
    }
    for continuation in woken { continuation.resume() }
    for end in ended { end() }
  }

  /// Calls `onRevoked` (once, from the revoking thread) if `sessionID` is revoked while the
  /// call that asks is open; the call ends its watch with ``unwatch(_:)`` when it ends.
  public func watch(_ sessionID: String, onRevoked: @escaping @Sendable () -> Void) -> Watch {
    self.state.withLock { state in
      state.nextWatch += 1
      state.watchers[sessionID, default: [:]][state.nextWatch] = onRevoked
      return Watch(sessionID: sessionID, number: state.nextWatch)
    }
  }

  public func unwatch(_ watch: Watch) {
    self.state.withLock { state in
      guard var calls = state.watchers[watch.sessionID] else { return }
      calls[watch.number] = nil
      state.watchers[watch.sessionID] = calls.isEmpty ? nil : calls
    }
  }

  /// How many open calls are watched (for tests).
  public var watchedCalls: Int { self.state.withLock { $0.watchers.values.reduce(0) { $0 + $1.count } } }

  /// Returns once `sessionID` is among the revoked (for tests and diagnostics).
  public func waitUntilRevoked(_ sessionID: String) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let known = self.state.withLock { state -> Bool in
        if state.until[sessionID] != nil { return true }
        state.waiters.append((sessionID, continuation))
        return false
      }
      if known { continuation.resume() }
    }
  }

  public func isRevoked(_ sessionID: String) -> Bool {
    guard let until = self.state.withLock({ $0.until[sessionID] }) else { return false }
    return until > self.clock.now
  }

  /// How many sessions are remembered (expired ones included until the next prune).
  public var count: Int { self.state.withLock { $0.until.count } }
}

extension Array {
  /// The elements that satisfy `isIncluded`, and the others, each in order.
  fileprivate func partitioned(_ isIncluded: (Element) -> Bool) -> (included: [Element], excluded: [Element]) {
    var included: [Element] = []
    var excluded: [Element] = []
    for element in self {
      if isIncluded(element) { included.append(element) } else { excluded.append(element) }
    }
    return (included, excluded)
  }
}
