import Foundation

/// A station's platform, as a key.
public struct PlatformKey: Sendable, Hashable {
  public var stationID: String
  public var platform: String

  public init(stationID: String, platform: String) {
    self.stationID = stationID
    self.platform = platform
  }
}
