import BinarioDomain
import Foundation

/// A passenger's named place ("home"): what a request's address may name.
public struct SavedPlace: Sendable, Hashable {
  public var name: String
  public var position: GeoPoint

  public init(name: String, position: GeoPoint) {
    self.name = name
    self.position = position
  }
}
