/// The cost of scrypt: `N` (rounds, a power of two), `r` (block size), `p` (parallelism).
///
/// Stored with every hash, so the production cost can rise later: existing hashes still verify
/// with the parameters they were made with.
public struct ScryptParameters: Sendable, Hashable {
  public var rounds: Int
  public var blockSize: Int
  public var parallelism: Int

  public init(rounds: Int, blockSize: Int, parallelism: Int) {
    self.rounds = rounds
    self.blockSize = blockSize
    self.parallelism = parallelism
  }

  /// N = 2^15, r = 8, p = 1: 32 MiB and about 100 ms per hash in a release build on this
  /// project's 2-core machines (3-6× that in a debug build).
  public static let production = ScryptParameters(rounds: 1 << 15, blockSize: 8, parallelism: 1)

  /// N = 2^4, r = 1, p = 1: microseconds, for tests only.
  public static let cheapForTests = ScryptParameters(rounds: 1 << 4, blockSize: 1, parallelism: 1)

  /// Whether scrypt accepts them (N a power of two above 1, r and p positive, within sane bounds).
  public var isValid: Bool {
    rounds > 1 && rounds & (rounds - 1) == 0 && rounds <= 1 << 22
      && (1 ... 64).contains(blockSize) && (1 ... 16).contains(parallelism)
  }
}
