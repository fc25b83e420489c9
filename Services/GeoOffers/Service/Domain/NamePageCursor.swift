import BinarioDomain
import BinarioStorage
import Foundation

/// Where a listing by name goes on: the last row's name and id.
public struct NamePageCursor: Sendable, Hashable {
  public var name: String
  public var id: String

  public init(name: String, id: String) {
    self.name = name
    self.id = id
  }
}
