import BinarioDomain
import Foundation

/// A station of scheduling's timetable, as geo-offers keeps a copy of it.
public struct GeoStation: Sendable, Hashable {
  public var id: String
  public var name: String
  public var position: GeoPoint

  public init(id: String, name: String, position: GeoPoint) {
    self.id = id
    self.name = name
    self.position = position
  }
}

/// A shop whose deals are offered to people nearby.
public struct Shop: Sendable, Hashable {
  public var id: String
  public var name: String
  public var description: String
  public var position: GeoPoint
  /// The station the shop is at or near; empty when none.
  public var stationID: String

  public init(id: String, name: String, description: String, position: GeoPoint, stationID: String) {
    self.id = id
    self.name = name
    self.description = description
    self.position = position
    self.stationID = stationID
  }
}

/// A shop's discount, offered while it is valid. Its position and station are its shop's.
public struct Deal: Sendable, Hashable {
  public var id: String
  public var shopID: String
  public var shopName: String
  public var description: String
  public var discountPercent: Int
  public var position: GeoPoint
  public var stationID: String
  public var validFrom: Date
  public var validUntil: Date

  public init(
    id: String,
    shopID: String,
    shopName: String,
    description: String,
    discountPercent: Int,
    position: GeoPoint,
    stationID: String,
    validFrom: Date,
    validUntil: Date
  ) {
    self.id = id
    self.shopID = shopID
    self.shopName = shopName
    self.description = description
    self.discountPercent = discountPercent
    self.position = position
    self.stationID = stationID
    self.validFrom = validFrom
    self.validUntil = validUntil
  }

  public func isActive(at instant: Date) -> Bool { validFrom <= instant && instant < validUntil }
}

/// What an admin writes of a deal: the rest comes from its shop.
public struct DealDraft: Sendable, Hashable {
  public var shopID: String
  public var description: String
  public var discountPercent: Int
  public var validFrom: Date?
  public var validUntil: Date?

  public init(shopID: String, description: String, discountPercent: Int, validFrom: Date?, validUntil: Date?) {
    self.shopID = shopID
    self.description = description
    self.discountPercent = discountPercent
    self.validFrom = validFrom
    self.validUntil = validUntil
  }
}

/// A place to visit.
public struct Place: Sendable, Hashable {
  public enum Category: String, Sendable, Hashable, CaseIterable {
    case monument, museum, church, park, theatre, viewpoint, neighbourhood, other
  }

  public var id: String
  public var name: String
  public var description: String
  public var category: Category
  public var position: GeoPoint

  public init(id: String, name: String, description: String, category: Category, position: GeoPoint) {
    self.id = id
    self.name = name
    self.description = description
    self.category = category
    self.position = position
  }
}

/// Trenord's offer on routes from a station: to one destination, on one line, or (both empty)
/// on every route from its origin.
public struct RouteOffer: Sendable, Hashable {
  public var id: String
  public var originStationID: String
  public var originStationName: String
  public var destinationStationID: String
  public var destinationStationName: String
  public var line: String
  public var title: String
  public var discountPercent: Int
  public var conditions: String
  public var validFrom: Date
  public var validUntil: Date

  public init(
    id: String,
    originStationID: String,
    originStationName: String = "",
    destinationStationID: String,
    destinationStationName: String = "",
    line: String,
    title: String,
    discountPercent: Int,
    conditions: String,
    validFrom: Date,
    validUntil: Date
  ) {
    self.id = id
    self.originStationID = originStationID
    self.originStationName = originStationName
    self.destinationStationID = destinationStationID
    self.destinationStationName = destinationStationName
    self.line = line
    self.title = title
    self.discountPercent = discountPercent
    self.conditions = conditions
    self.validFrom = validFrom
    self.validUntil = validUntil
  }

  public func isActive(at instant: Date) -> Bool { validFrom <= instant && instant < validUntil }

  /// Whether a journey from `from` to `to` on `line` is one this offer covers.
  public func covers(from: String, to: String, line journeyLine: String) -> Bool {
    originStationID == from && (destinationStationID.isEmpty || destinationStationID == to)
      && (line.isEmpty || line.caseInsensitiveCompare(journeyLine) == .orderedSame)
  }
}

/// Something found near a point, with how far it is.
public struct Nearby<Item: Sendable & Hashable>: Sendable, Hashable {
  public var item: Item
  public var distanceMetres: Double

  public init(_ item: Item, distanceMetres: Double) {
    self.item = item
    self.distanceMetres = distanceMetres
  }
}

/// A user's last known position.
public struct UserLocation: Sendable, Hashable {
  public var position: GeoPoint
  public var accuracyMetres: Double
  public var reportedAt: Date

  public init(position: GeoPoint, accuracyMetres: Double, reportedAt: Date) {
    self.position = position
    self.accuracyMetres = accuracyMetres
    self.reportedAt = reportedAt
  }
}
