import Foundation
import Synchronization

/// Sessions whose access tokens the gateway refuses although they have not expired: fed by
/// identity's `WatchRevocations` stream and by the gateway's own view of `Logout`. Each is kept
/// until its tokens have all expired, then forgotten.
public final class RevokedSessions: Sendable {
  private struct State {
    var until: [String: Date] = [:]
    var insertsSincePrune = 0
    var waiters: [(sessionID: String, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Mutex(State())
  private let clock: any GatewayClock

  public init(clock: any GatewayClock) {
    self.clock = clock
  }

  /// Refuses `sessionIDs`' tokens until `until`.
  public func revoke(_ sessionIDs: some Sequence<String>, until: Date) {
    let now = self.clock.now
    let woken = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
      for id in sessionIDs where !id.isEmpty {
        if let known = state.until[id], known >= until { continue }
        state.until[id] = until
        state.insertsSincePrune += 1
      }
      if state.insertsSincePrune >= 1024 {
        state.insertsSincePrune = 0
        state.until = state.until.filter { $0.value > now }
      }
      guard !state.waiters.isEmpty else { return [] }
      let (done, waiting) = state.waiters.partitioned { state.until[$0.sessionID] != nil }
      state.waiters = waiting
      return done.map(\.continuation)
    }
    for continuation in woken { continuation.resume() }
  }

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
