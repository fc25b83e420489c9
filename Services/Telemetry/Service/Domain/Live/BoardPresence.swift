import Foundation

/// Whether a board is sending: online while its last upload is recent, offline since that upload
/// once ``BoardPresence/offlineAfter`` has passed without another.
public struct BoardPresence: Sendable, Hashable {
  /// How long a board may stay silent and still count as online: five minutes, two of an
  /// airRohr board's 145-second sends, so a board on its default interval never flickers.
  public static let offlineAfter: TimeInterval = 300

  public let deviceID: String
  /// When the server last heard from it; `nil`: never.
  public let lastSeen: Date?
  /// Whether it has sent within ``offlineAfter``. When not, and it has been seen, it is offline
  /// since ``lastSeen``.
  public let isOnline: Bool

  public init(deviceID: String, lastSeen: Date?, now: Date, offlineAfter: TimeInterval = Self.offlineAfter) {
    self.deviceID = deviceID
    self.lastSeen = lastSeen
    self.isOnline = lastSeen.map { now.timeIntervalSince($0) < offlineAfter } ?? false
  }

  /// When it goes offline if nothing more arrives; `nil` when it is not online.
  public func offlineAt(offlineAfter: TimeInterval = Self.offlineAfter) -> Date? {
    guard isOnline, let lastSeen else { return nil }
    return lastSeen.addingTimeInterval(offlineAfter)
  }
}
