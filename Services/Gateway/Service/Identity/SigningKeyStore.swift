import BinarioAuth
import Foundation
import Synchronization

/// Identity's public keys as the gateway last fetched them, ready to verify tokens on the event
/// loop: one locked read per call. A token naming a key the store lacks asks the
/// ``SigningKeysFetcher`` to fetch again (it rate-limits those refreshes).
public final class SigningKeyStore: Sendable {
  private struct State {
    var verifier: AccessTokenVerifier?
    /// Counts key installs: tokens verified under an older generation are verified again.
    var generation: UInt64 = 0
    /// Each waits for a key id (`nil`: any keys).
    var waiters: [(keyID: String?, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Mutex(State())
  private let clock: any GatewayClock
  /// Signals of a token signed with an unknown key; only the newest matters.
  let refreshRequests: AsyncStream<String>
  private let refreshContinuation: AsyncStream<String>.Continuation

  public init(clock: any GatewayClock) {
    self.clock = clock
    (self.refreshRequests, self.refreshContinuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
  }

  /// The verifier with the current keys; `nil` until the first fetch succeeded.
  public var verifier: AccessTokenVerifier? {
    self.state.withLock { $0.verifier }
  }

  /// The verifier with the current keys and their generation (which changes with every install).
  var current: (verifier: AccessTokenVerifier, generation: UInt64)? {
    self.state.withLock { state in state.verifier.map { ($0, state.generation) } }
  }

  /// Replaces the keys (raw 32-byte Ed25519 public keys by key id, as `GetSigningKeys` gives them).
  /// - Throws: ``AccessTokenError`` naming a key that is not an Ed25519 key (the old keys stay).
  public func install(rawKeys: [String: Data]) throws(AccessTokenError) {
    let clock = self.clock
    let verifier = try AccessTokenVerifier(rawKeys: rawKeys, now: { clock.now })
    let woken = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.verifier = verifier
      state.generation += 1
      var woken: [CheckedContinuation<Void, Never>] = []
      state.waiters.removeAll { waiter in
        guard waiter.keyID.map({ verifier.keys[$0] != nil }) ?? true else { return false }
        woken.append(waiter.continuation)
        return true
      }
      return woken
    }
    for continuation in woken { continuation.resume() }
  }

  /// A token named a key the store lacks: ask for a fetch.
  func unknownKeySeen(_ keyID: String) {
    self.refreshContinuation.yield(keyID)
  }

  /// Returns once keys are loaded, including `keyID` if given (for tests and diagnostics).
  public func waitUntilLoaded(keyID: String? = nil) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let loaded = self.state.withLock { state -> Bool in
        if let verifier = state.verifier, keyID.map({ verifier.keys[$0] != nil }) ?? true { return true }
        state.waiters.append((keyID, continuation))
        return false
      }
      if loaded { continuation.resume() }
    }
  }
}
