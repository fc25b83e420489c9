import BinarioDomain
import Foundation

/// A taxi of the fleet, its driver and where it stands.
public struct Taxi: Sendable, Hashable {
  /// The company's code ("MI-007"): the taxi's id.
  public var code: String
  public var plate: String
  public var capacity: Int
  public var driverUserID: String?
  public var available: Bool
  /// Why not available (empty when available).
  public var unavailableReason: String
  public var position: GeoPoint?
  public var positionAt: Date?
  /// The zone its position is in; `nil` outside every zone or before the first report.
  public var zoneID: String?
  /// Its place among every queue's entries (smaller is nearer the head); `nil` when not queued.
  var queueSeq: Int64?
  /// Offers it let expire in a row.
  public var missedOffers: Int
  /// 1 for the head of its zone's queue; 0 when not queued (filled by queries that rank).
  public var queuePosition = 0
  /// Whether it holds a pending offer, or an active ride (filled by queries that say so).
  public var hasPendingOffer = false
  public var onRide = false

  public init(code: String, plate: String, capacity: Int, driverUserID: String?) {
    self.code = code
    self.plate = plate
    self.capacity = capacity
    self.driverUserID = driverUserID
    self.available = false
    self.unavailableReason = "not signed on yet"
    self.missedOffers = 0
  }

  public var isQueued: Bool { queueSeq != nil }

  public enum State: Sendable, Hashable {
    case unavailable, waiting, offered, busy
  }

  public var state: State {
    if onRide { return .busy }
    if hasPendingOffer { return .offered }
    return available && isQueued ? .waiting : .unavailable
  }
}
