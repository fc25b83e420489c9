/// Where a consumer stands in one producer's event log: the event it is applying, or the last
/// one it applied.
///
/// A consumer's store moves its cursor to an event's position in the same transaction as the
/// event's effect (`Database.advanceEventCursor(to:at:)`, Shared/Events), so the effect happens
/// exactly once however often the event is delivered. Domains pass it through unread.
public struct EventPosition: Sendable, Hashable, CustomStringConvertible {
  /// The producing service (`identity`).
  public let producer: String
  /// The event's sequence in the producer's log.
  public let sequence: Int64

  public init(producer: String, sequence: Int64) {
    self.producer = producer
    self.sequence = sequence
  }

  public var description: String { "\(producer)#\(sequence)" }
}
