import BinarioDomain
import Foundation

/// The state of a source's fetches: where the next incremental fetch starts, and how the last
/// ones went.
public struct FetchState: Sendable, Hashable {
  public var newest: Date?
  public var lastSuccess: Date?
  public var lastFailure: Date?
  public var lastError: String?
  /// Failed fetches since the last that succeeded.
  public var consecutiveFailures = 0
}
