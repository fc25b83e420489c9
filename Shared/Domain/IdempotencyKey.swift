import Crypto
import Foundation

/// A client's idempotency key on a creating write, with whose it is: the same caller's same key
/// always names the same new thing. A write that takes one makes the id of what it creates with
/// ``id(prefix:)`` instead of a random one, so the table's primary key itself makes the write
/// happen once: a retry finds the row its first attempt committed (whatever was killed when)
/// and answers it as it is now, in the same transaction as it would have inserted it.
///
/// The id is a hash of the caller and the key, so neither shows in it, and one caller's key
/// never names another caller's thing.
public struct IdempotencyKey: Sendable, Hashable {
  /// Who made the write (a user id; an admin's for admin writes).
  public let caller: String
  public let key: String

  /// At most this many characters, as every keyed write in the suite takes.
  public static let maximumLength = 100

  /// `nil` for an empty key (the write is then made with a random id, as before keys); refuses a
  /// key longer than ``maximumLength``, naming `field`.
  public init?(caller: String, key: String, field: String = "idempotency_key") throws(ServiceError) {
    let trimmed = key.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return nil }
    guard trimmed.count <= Self.maximumLength else {
      throw ServiceError.invalid(field, "an idempotency key has at most 100 characters")
    }
    self.caller = caller
    self.key = trimmed
  }

  /// The id of what this key's write creates: `prefix`, an underscore and 20 hex digits.
  public func id(prefix: String) -> String {
    let digest = SHA256.hash(data: Data("\(prefix)\u{0}\(self.caller)\u{0}\(self.key)".utf8))
    return prefix + "_" + digest.prefix(10).map { String(format: "%02x", $0) }.joined()
  }
}

extension Optional where Wrapped == IdempotencyKey {
  /// The id of what the write creates: the key's, or a random one without a key.
  public func id(prefix: String, random: () -> String) -> String {
    self?.id(prefix: prefix) ?? random()
  }
}
