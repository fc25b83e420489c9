import Crypto
import Dispatch
import Foundation
import _CryptoExtras

/// Hashes and checks passwords with scrypt, a memory-hard KDF.
///
/// A hash is stored as text: `scrypt$<N>$<r>$<p>$<salt>$<key>` (salt: 16 random bytes per hash;
/// key: 32 bytes; both base64). Verification derives with the parameters in the hash, then
/// compares in constant time.
///
/// Deriving takes about 100 ms with ``ScryptParameters/production`` and blocks the calling thread
/// meanwhile: from a request's task, call it through ``inBackground(_:)``.
public struct PasswordHasher: Sendable {
  public let parameters: ScryptParameters
  /// A stored hash with ``parameters``, a random salt and a random key, which no password
  /// derives: ``verifyAgainstNothing(_:)`` checks against it so that an unknown email costs what a
  /// wrong password costs (the derivation is the cost; the key is only compared). Made without
  /// deriving, so a process starts without spending a derivation on it.
  private let dummyHash: String

  public init(parameters: ScryptParameters) {
    precondition(parameters.isValid, "invalid scrypt parameters \(parameters)")
    self.parameters = parameters
    self.dummyHash = Self.encode(parameters: parameters, salt: Self.randomBytes(16), key: Self.randomBytes(32))
  }

  /// A new salted hash of `password`.
  public func hash(_ password: String) -> String {
    Self.hash(password, parameters: self.parameters)
  }

  /// Whether `password` matches `storedHash`. A malformed stored hash matches nothing.
  public func verify(_ password: String, against storedHash: String) -> Bool {
    guard let stored = StoredHash(storedHash),
      let derived = Self.derive(password, salt: stored.salt, parameters: stored.parameters, length: stored.key.count)
    else { return false }
    return Self.constantTimeEqual(derived, stored.key)
  }

  /// Spends the time of one verification and answers `false`: for a sign-in with an unknown email.
  public func verifyAgainstNothing(_ password: String) -> Bool {
    _ = self.verify(password, against: self.dummyHash)
    return false
  }

  /// Whether `storedHash` was made with other parameters than ``parameters`` (rehash on the next
  /// successful sign-in).
  public func needsRehash(_ storedHash: String) -> Bool {
    StoredHash(storedHash)?.parameters != self.parameters
  }

  /// How many derivations run at once, process-wide: one per core, at most 4. Each holds
  /// 32 MiB with the production parameters (128 · N · r bytes), so this bounds identity's memory
  /// whatever the machine (a container sees every core of its node); further sign-ins wait.
  public static let maximumConcurrentDerivations = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4)

  private static let derivations: OperationQueue = {
    let queue = OperationQueue()
    queue.name = "binario.password-hashing"
    queue.maxConcurrentOperationCount = maximumConcurrentDerivations
    queue.qualityOfService = .userInitiated
    return queue
  }()

  /// Runs `work` with this hasher on a worker thread, at most
  /// ``maximumConcurrentDerivations`` at a time, and waits for it there.
  ///
  /// A request's task runs on its connection's event loop, which must not stop for the 100 ms of
  /// a derivation: every other call on the connection would wait.
  public func inBackground<T: Sendable>(_ work: @escaping @Sendable (PasswordHasher) -> T) async -> T {
    await withCheckedContinuation { continuation in
      Self.derivations.addOperation {
        continuation.resume(returning: work(self))
      }
    }
  }

  // MARK: -

  private static func hash(_ password: String, parameters: ScryptParameters) -> String {
    let salt = randomBytes(16)
    guard let key = derive(password, salt: salt, parameters: parameters, length: 32) else {
      preconditionFailure("scrypt refused valid parameters \(parameters)")
    }
    return encode(parameters: parameters, salt: salt, key: key)
  }

  private static func encode(parameters: ScryptParameters, salt: [UInt8], key: [UInt8]) -> String {
    [
      "scrypt", "\(parameters.rounds)", "\(parameters.blockSize)", "\(parameters.parallelism)",
      Data(salt).base64EncodedString(), Data(key).base64EncodedString(),
    ].joined(separator: "$")
  }

  private static func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0 ..< count).map { _ in generator.next() }
  }

  private static func derive(_ password: String, salt: [UInt8], parameters: ScryptParameters, length: Int) -> [UInt8]? {
    guard parameters.isValid else { return nil }
    guard
      let key = try? KDF.Scrypt.deriveKey(
        from: Array(password.utf8),
        salt: salt,
        outputByteCount: length,
        rounds: parameters.rounds,
        blockSize: parameters.blockSize,
        parallelism: parameters.parallelism
      )
    else { return nil }
    return key.withUnsafeBytes { Array($0) }
  }

  /// Compares without returning early, so the time taken does not tell how many bytes matched.
  static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
  }

  /// The parts of a stored hash.
  private struct StoredHash {
    var parameters: ScryptParameters
    var salt: [UInt8]
    var key: [UInt8]

    init?(_ text: String) {
      let parts = text.split(separator: "$", omittingEmptySubsequences: false)
      guard parts.count == 6, parts[0] == "scrypt",
        let rounds = Int(parts[1]), let blockSize = Int(parts[2]), let parallelism = Int(parts[3]),
        let salt = Data(base64Encoded: String(parts[4])), let key = Data(base64Encoded: String(parts[5])),
        !key.isEmpty
      else { return nil }
      self.parameters = ScryptParameters(rounds: rounds, blockSize: blockSize, parallelism: parallelism)
      self.salt = Array(salt)
      self.key = Array(key)
    }
  }
}
