import Foundation

/// A live change as recorded: what, to which run, why, by whom and when.
public struct RecordedRunChange: Sendable, Hashable {
  public var id: String
  public var tripID: String
  public var serviceDate: ServiceDate
  public var kind: RunChangeKind
  public var reason: String
  /// The admin's user id.
  public var changedBy: String
  public var changedAt: Date
}
