import BinarioAuth
import Foundation
import Synchronization

/// Tokens already verified, so a client's next calls with the same token cost a dictionary
/// lookup instead of a JWT parse and an Ed25519 verification (~100 µs): the gateway's most
/// expensive step per call.
///
/// Keyed by the exact token text (whose signature was checked); an entry is used only under the
/// same key generation it was verified with and before the token expires. Revocation is not
/// cached: the caller checks the session every time. When full, the cache starts over.
final class VerifiedTokenCache: Sendable {
  private struct Entry {
    var token: VerifiedAccessToken
    var generation: UInt64
  }

  private let entries = Mutex<[String: Entry]>([:])
  private let capacity: Int

  init(capacity: Int = 10_000) {
    self.capacity = capacity
  }

  /// The verified token for `text`, if it was verified under `generation` and is still valid at `now`.
  func lookup(_ text: String, generation: UInt64, now: Date) -> VerifiedAccessToken? {
    guard let entry = self.entries.withLock({ $0[text] }), entry.generation == generation, now < entry.token.expiresAt else {
      return nil
    }
    return entry.token
  }

  func store(_ token: VerifiedAccessToken, for text: String, generation: UInt64) {
    self.entries.withLock { entries in
      if entries.count >= self.capacity { entries.removeAll(keepingCapacity: true) }
      entries[text] = Entry(token: token, generation: generation)
    }
  }
}
