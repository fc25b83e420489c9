import BinarioDomain
import Foundation

/// A page of a listing and where the next one starts.
public struct Page<Item: Sendable>: Sendable {
  public var items: [Item]
  /// Empty on the last page.
  public var nextPageToken: String
}

extension GeoOffersDomain {
  static let defaultPageSize = 50
  static let maximumPageSize = 500

  // MARK: - Shops

  /// A new shop; with `key`, the same admin's same key again answers the shop it made.
  public func createShop(_ shop: Shop, key: IdempotencyKey? = nil) async throws -> Shop {
    var checked = try await checkShop(shop)
    checked.id = key.id(prefix: "sh") { Self.newID("sh") }
    try await store.insertShop(checked)
    return checked
  }

  public func updateShop(_ shop: Shop) async throws -> Shop {
    guard !shop.id.isEmpty else { throw ServiceError.invalid("shop.shop_id", "the shop's id is required") }
    let checked = try await checkShop(shop)
    guard try await store.updateShop(checked) else { throw ServiceError.notFound("there is no shop \(shop.id)") }
    return checked
  }

  public func deleteShop(id: String) async throws {
    guard try await store.deleteShop(id: id) else { throw ServiceError.notFound("there is no shop \(id)") }
  }

  public func shops(pageSize: Int, pageToken: String) async throws -> Page<Shop> {
    let (limit, cursor) = try namePage(pageSize: pageSize, pageToken: pageToken, listing: "ListShops")
    let shops = try await store.shops(after: cursor, limit: limit)
    return Page(items: shops, nextPageToken: shops.count < limit ? "" : Self.nameToken(shops.last!.name, shops.last!.id))
  }

  private func checkShop(_ shop: Shop) async throws -> Shop {
    var check = InputValidation()
    var checked = shop
    checked.name = check.requiredText(shop.name, field: "shop.name", what: "the shop's name")
    checked.description = check.optionalText(shop.description, field: "shop.description", what: "the description", maxLength: 500)
    checked.position = check.position(latitude: shop.position.latitude, longitude: shop.position.longitude, field: "shop")
    checked.stationID = shop.stationID.trimmingCharacters(in: .whitespaces)
    if !checked.stationID.isEmpty, try await store.station(id: checked.stationID) == nil {
      check.fail("shop.station_id", "the timetable has no station \(checked.stationID)")
    }
    try check.finish()
    return checked
  }

  // MARK: - Deals

  /// A new deal; with `key`, the same admin's same key again answers the deal it made.
  public func createDeal(_ draft: DealDraft, key: IdempotencyKey? = nil) async throws -> Deal {
    let (checked, from, until) = try checkDeal(draft, creating: true)
    let id = key.id(prefix: "dl") { Self.newID("dl") }
    guard let deal = try await store.insertDeal(id: id, checked, validFrom: from, validUntil: until) else {
      throw ServiceError.invalid("deal.shop_id", "there is no shop \(draft.shopID)")
    }
    return deal
  }

  public func updateDeal(id: String, _ draft: DealDraft) async throws -> Deal {
    guard !id.isEmpty else { throw ServiceError.invalid("deal.deal_id", "the deal's id is required") }
    let (checked, from, until) = try checkDeal(draft, creating: false)
    guard
      let deal = try await store.updateDeal(
        id: id,
        description: checked.description,
        discountPercent: checked.discountPercent,
        validFrom: from,
        validUntil: until
      )
    else { throw ServiceError.notFound("there is no deal \(id)") }
    return deal
  }

  public func deleteDeal(id: String) async throws {
    guard try await store.deleteDeal(id: id) else { throw ServiceError.notFound("there is no deal \(id)") }
  }

  /// Deals of one shop (or all), newest first.
  public func deals(shopID: String, pageSize: Int, pageToken: String) async throws -> Page<Deal> {
    let limit = try Paging.size(pageSize, default: Self.defaultPageSize, maximum: Self.maximumPageSize)
    var cursor: Int64?
    if let parts = try Paging.cursor(pageToken, parts: 1, listing: "ListDeals") {
      guard let seq = Int64(parts[0]) else { throw Paging.invalidToken("ListDeals") }
      cursor = seq
    }
    let rows = try await store.deals(shopID: shopID.isEmpty ? nil : shopID, afterSeq: cursor, limit: limit)
    return Page(items: rows.map(\.deal), nextPageToken: rows.count < limit ? "" : Paging.token(after: [String(rows.last!.seq)]))
  }

  /// The draft trimmed and checked; validity defaults to from now, for 30 days.
  private func checkDeal(_ draft: DealDraft, creating: Bool) throws -> (DealDraft, Date, Date) {
    var check = InputValidation()
    var checked = draft
    if creating, draft.shopID.isEmpty { check.fail("deal.shop_id", "the shop's id is required") }
    checked.description = check.requiredText(draft.description, field: "deal.description", what: "the description", maxLength: 500)
    if !(1 ... 100).contains(draft.discountPercent) {
      check.fail("deal.discount_percent", "\(draft.discountPercent)% is not a discount (1 to 100)")
    }
    let from = draft.validFrom ?? clock.now()
    let until = draft.validUntil ?? from.addingTimeInterval(30 * 86_400)
    if until <= from { check.fail("deal.valid_until", "the deal must end after it starts") }
    try check.finish()
    return (checked, from, until)
  }

  // MARK: - Places

  /// A new place; with `key`, the same admin's same key again answers the place it made.
  public func createPlace(_ place: Place, key: IdempotencyKey? = nil) async throws -> Place {
    var checked = try checkPlace(place)
    checked.id = key.id(prefix: "pl") { Self.newID("pl") }
    try await store.insertPlace(checked)
    return checked
  }

  public func updatePlace(_ place: Place) async throws -> Place {
    guard !place.id.isEmpty else { throw ServiceError.invalid("place.place_id", "the place's id is required") }
    let checked = try checkPlace(place)
    guard try await store.updatePlace(checked) else { throw ServiceError.notFound("there is no place \(place.id)") }
    return checked
  }

  public func deletePlace(id: String) async throws {
    guard try await store.deletePlace(id: id) else { throw ServiceError.notFound("there is no place \(id)") }
  }

  public func places(pageSize: Int, pageToken: String) async throws -> Page<Place> {
    let (limit, cursor) = try namePage(pageSize: pageSize, pageToken: pageToken, listing: "ListPlaces")
    let places = try await store.places(after: cursor, limit: limit)
    return Page(items: places, nextPageToken: places.count < limit ? "" : Self.nameToken(places.last!.name, places.last!.id))
  }

  private func checkPlace(_ place: Place) throws -> Place {
    var check = InputValidation()
    var checked = place
    checked.name = check.requiredText(place.name, field: "place.name", what: "the place's name")
    checked.description = check.optionalText(place.description, field: "place.description", what: "the description", maxLength: 1000)
    checked.position = check.position(latitude: place.position.latitude, longitude: place.position.longitude, field: "place")
    try check.finish()
    return checked
  }

  // MARK: - Route offers

  /// A new route offer; with `key`, the same admin's same key again answers the offer it made.
  public func createRouteOffer(_ offer: RouteOffer, key: IdempotencyKey? = nil) async throws -> RouteOffer {
    var checked = try await checkRouteOffer(offer)
    checked.id = key.id(prefix: "ro") { Self.newID("ro") }
    try await store.insertRouteOffer(checked)
    return try await storedRouteOffer(checked)
  }

  public func updateRouteOffer(_ offer: RouteOffer) async throws -> RouteOffer {
    guard !offer.id.isEmpty else { throw ServiceError.invalid("offer.offer_id", "the offer's id is required") }
    let checked = try await checkRouteOffer(offer)
    guard try await store.updateRouteOffer(checked) else { throw ServiceError.notFound("there is no route offer \(offer.id)") }
    return try await storedRouteOffer(checked)
  }

  public func deleteRouteOffer(id: String) async throws {
    guard try await store.deleteRouteOffer(id: id) else { throw ServiceError.notFound("there is no route offer \(id)") }
  }

  /// The offer as listed (with its stations' names).
  private func storedRouteOffer(_ offer: RouteOffer) async throws -> RouteOffer {
    try await store.routeOffers(from: offer.originStationID, activeAt: nil).first { $0.id == offer.id } ?? offer
  }

  private func checkRouteOffer(_ offer: RouteOffer) async throws -> RouteOffer {
    var check = InputValidation()
    var checked = offer
    checked.originStationID = check.requiredText(offer.originStationID, field: "offer.origin_station_id", what: "the origin station")
    checked.destinationStationID = offer.destinationStationID.trimmingCharacters(in: .whitespaces)
    checked.line = check.optionalText(offer.line, field: "offer.line", what: "the line", maxLength: 20)
    checked.title = check.requiredText(offer.title, field: "offer.title", what: "the title", maxLength: 200)
    checked.conditions = check.optionalText(offer.conditions, field: "offer.conditions", what: "the conditions", maxLength: 1000)
    if !(1 ... 100).contains(offer.discountPercent) {
      check.fail("offer.discount_percent", "\(offer.discountPercent)% is not a discount (1 to 100)")
    }
    if offer.validUntil <= offer.validFrom { check.fail("offer.valid_until", "the offer must end after it starts") }
    for (field, id) in [("offer.origin_station_id", checked.originStationID), ("offer.destination_station_id", checked.destinationStationID)]
    where !id.isEmpty {
      if try await store.station(id: id) == nil { check.fail(field, "the timetable has no station \(id)") }
    }
    if !checked.destinationStationID.isEmpty, checked.destinationStationID == checked.originStationID {
      check.fail("offer.destination_station_id", "the destination is the origin")
    }
    try check.finish()
    return checked
  }

  // MARK: - Paging

  /// A listing by name: its page size, and the name and id the previous page ended at.
  private func namePage(pageSize: Int, pageToken: String, listing: String) throws -> (Int, NamePageCursor?) {
    let limit = try Paging.size(pageSize, default: Self.defaultPageSize, maximum: Self.maximumPageSize)
    let cursor = try Paging.cursor(pageToken, parts: 2, listing: listing)
    return (limit, cursor.map { NamePageCursor(name: $0[0], id: $0[1]) })
  }

  static func nameToken(_ name: String, _ id: String) -> String {
    Paging.token(after: [name, id])
  }
}
