import ArgumentParser
import BinarioProto
import Foundation
import SwiftProtobuf

/// An instant on the command line: `2026-12-31` (midnight in the timetable's zone) or a full
/// ISO 8601 time (`2026-12-31T18:00:00Z`).
func parseInstant(_ text: String, option: String) throws -> Google_Protobuf_Timestamp {
  if let date = try? Date(text, strategy: .iso8601) { return Google_Protobuf_Timestamp(date: date) }
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = Print.timetableZone
  let parts = text.split(separator: "-").compactMap { Int($0) }
  guard parts.count == 3, let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else {
    throw ValidationError("\(option): a date YYYY-MM-DD or a time such as 2026-12-31T18:00:00Z, not \(text)")
  }
  return Google_Protobuf_Timestamp(date: date)
}

/// Paging through a listing until its last page.
func everyPage<Item>(_ fetch: (String) async throws -> (items: [Item], next: String)) async throws -> [Item] {
  var items: [Item] = []
  var token = ""
  repeat {
    let page = try await fetch(token)
    items += page.items
    token = page.next
  } while !token.isEmpty
  return items
}

/// `binario admin shops create|update|delete|list`.
struct AdminShopsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "shops",
    abstract: "Shops whose deals are offered nearby.",
    subcommands: [Create.self, Update.self, Delete.self, List.self],
    defaultSubcommand: List.self
  )

  struct Fields: ParsableArguments {
    @Option var name: String
    @Option var description: String = ""
    @OptionGroup var position: PositionOptions
    @Option(help: "The station the shop is at or near (optional).") var station: String = ""

    func shop(id: String = "") -> Binario_GeoOffers_V1_Shop {
      .with {
        $0.shopID = id
        $0.name = name
        $0.description_p = description
        $0.latitude = position.latitude
        $0.longitude = position.longitude
        $0.stationID = station
      }
    }
  }

  static func show(_ shop: Binario_GeoOffers_V1_Shop) {
    let station = shop.stationID.isEmpty ? "" : " at \(shop.stationID)"
    print(String(format: "%@  %.5f, %.5f%@  [%@]", shop.name, shop.latitude, shop.longitude, station, shop.shopID))
  }

  struct Create: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a shop.",
      discussion: "binario admin shops create --name \"Caffè Centrale\" --latitude 45.4856 --longitude 9.2040 --station MI_CENTRALE"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var fields: Fields

    func call(_ gateway: GatewayConnection) async throws {
      let shop = try await gateway.geoOffers.createShop(
        .with { $0.shop = fields.shop() }
      ).shop
      AdminShopsCommand.show(shop)
    }
  }

  struct Update: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Replace a shop's fields (its deals move with it).")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var shopID: String
    @OptionGroup var fields: Fields

    func call(_ gateway: GatewayConnection) async throws {
      let shop = try await gateway.geoOffers.updateShop(
        .with { $0.shop = fields.shop(id: shopID) }
      ).shop
      AdminShopsCommand.show(shop)
    }
  }

  struct Delete: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a shop and its deals.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var shopID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.geoOffers.deleteShop(.with { $0.shopID = shopID })
      print("removed \(shopID)")
    }
  }

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Every shop, by name.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let shops = try await everyPage { token in
        let page = try await gateway.geoOffers.listShops(
          .with {
            $0.pageToken = token
            $0.pageSize = 500
          }
        )
        return (page.shops, page.nextPageToken)
      }
      if shops.isEmpty { print("no shops") }
      shops.forEach(AdminShopsCommand.show)
    }
  }
}

/// `binario admin deals create|update|delete|list`.
struct AdminDealsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "deals",
    abstract: "Shops' deals.",
    subcommands: [Create.self, Update.self, Delete.self, List.self],
    defaultSubcommand: List.self
  )

  struct Fields: ParsableArguments {
    @Option var description: String
    @Option(help: "1 to 100.") var discount: Int32
    @Option(help: "From (YYYY-MM-DD or ISO 8601; default now).") var from: String?
    @Option(help: "Until (default 30 days after the start).") var until: String?

    func deal(id: String = "", shopID: String = "") throws -> Binario_GeoOffers_V1_Deal {
      var deal = Binario_GeoOffers_V1_Deal()
      deal.dealID = id
      deal.shopID = shopID
      deal.description_p = description
      deal.discountPercent = discount
      if let from { deal.validFrom = try parseInstant(from, option: "--from") }
      if let until { deal.validUntil = try parseInstant(until, option: "--until") }
      return deal
    }
  }

  static func show(_ deal: Binario_GeoOffers_V1_Deal) {
    print(
      "\(deal.discountPercent)% off at \(deal.shopName): \(deal.description_p), \(Print.date(deal.validFrom)) to \(Print.date(deal.validUntil))  [\(deal.dealID)]"
    )
  }

  struct Create: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a deal to a shop.",
      discussion: "binario admin deals create --shop SHOP-ID --description \"Any travel guide\" --discount 15 --until 2027-01-31"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "The shop's id (see 'binario admin shops').") var shop: String
    @OptionGroup var fields: Fields

    func call(_ gateway: GatewayConnection) async throws {
      let deal = try fields.deal(shopID: shop)
      AdminDealsCommand.show(
        try await gateway.geoOffers.createDeal(.with { $0.deal = deal }).deal
      )
    }
  }

  struct Update: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Replace a deal's description, discount and dates.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var dealID: String
    @OptionGroup var fields: Fields

    func call(_ gateway: GatewayConnection) async throws {
      let deal = try fields.deal(id: dealID)
      AdminDealsCommand.show(
        try await gateway.geoOffers.updateDeal(.with { $0.deal = deal }).deal
      )
    }
  }

  struct Delete: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a deal.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var dealID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.geoOffers.deleteDeal(.with { $0.dealID = dealID })
      print("removed \(dealID)")
    }
  }

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Deals, active or not, newest first.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "Only this shop's.") var shop: String?
    @Option(help: "At most this many.") var limit: UInt32 = 50

    func call(_ gateway: GatewayConnection) async throws {
      let page = try await gateway.geoOffers.listDeals(
        .with {
          $0.shopID = shop ?? ""
          $0.pageSize = limit
        }
      )
      if page.deals.isEmpty { print("no deals") }
      page.deals.forEach(AdminDealsCommand.show)
    }
  }
}

/// `binario admin places create|update|delete|list`.
struct AdminPlacesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "places",
    abstract: "Places to visit.",
    subcommands: [Create.self, Update.self, Delete.self, List.self],
    defaultSubcommand: List.self
  )

  struct Fields: ParsableArguments {
    @Option var name: String
    @Option var description: String = ""
    @Option(help: "monument, museum, church, park, theatre, viewpoint, neighbourhood or other.") var category: String = "other"
    @OptionGroup var position: PositionOptions

    func place(id: String = "") throws -> Binario_GeoOffers_V1_Place {
      guard let category = Binario_GeoOffers_V1_PlaceCategory(name: category) else {
        throw ValidationError("--category: monument, museum, church, park, theatre, viewpoint, neighbourhood or other")
      }
      return .with {
        $0.placeID = id
        $0.name = name
        $0.description_p = description
        $0.category = category
        $0.latitude = position.latitude
        $0.longitude = position.longitude
      }
    }
  }

  static func show(_ place: Binario_GeoOffers_V1_Place) {
    print(String(format: "%@ (%@)  %.5f, %.5f  [%@]", place.name, Print.category(place.category), place.latitude, place.longitude, place.placeID))
  }

  struct Create: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a place to visit.",
      discussion: "binario admin places create --name \"Pinacoteca di Brera\" --category museum --latitude 45.4719 --longitude 9.1879"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var fields: Fields

    func call(_ gateway: GatewayConnection) async throws {
      let place = try fields.place()
      AdminPlacesCommand.show(
        try await gateway.geoOffers.createPlace(.with { $0.place = place }).place
      )
    }
  }

  struct Update: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Replace a place's fields.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var placeID: String
    @OptionGroup var fields: Fields

    func call(_ gateway: GatewayConnection) async throws {
      let place = try fields.place(id: placeID)
      AdminPlacesCommand.show(
        try await gateway.geoOffers.updatePlace(.with { $0.place = place }).place
      )
    }
  }

  struct Delete: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a place.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var placeID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.geoOffers.deletePlace(.with { $0.placeID = placeID })
      print("removed \(placeID)")
    }
  }

  struct List: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Every place, by name.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let places = try await everyPage { token in
        let page = try await gateway.geoOffers.listPlaces(
          .with {
            $0.pageToken = token
            $0.pageSize = 500
          }
        )
        return (page.places, page.nextPageToken)
      }
      if places.isEmpty { print("no places") }
      places.forEach(AdminPlacesCommand.show)
    }
  }
}

/// `binario admin route-offers create|update|delete` (listing is public: `binario route-offers`).
struct AdminRouteOffersCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "route-offers",
    abstract: "Trenord's offers on routes from a station.",
    subcommands: [Create.self, Update.self, Delete.self]
  )

  struct Fields: ParsableArguments {
    @Option(help: "The origin station's id.") var from: String
    @Option(help: "A destination station's id (default: any).") var to: String = ""
    @Option(help: "A line's short name, e.g. RE80 (default: any).") var line: String = ""
    @Option var title: String
    @Option(help: "1 to 100.") var discount: Int32
    @Option var conditions: String = ""
    @Option(help: "Valid from (YYYY-MM-DD or ISO 8601; default now).") var validFrom: String?
    @Option(help: "Valid until (default 30 days after the start).") var validUntil: String?

    func offer(id: String = "") throws -> Binario_GeoOffers_V1_RouteOffer {
      var offer = Binario_GeoOffers_V1_RouteOffer()
      offer.offerID = id
      offer.originStationID = from
      offer.destinationStationID = to
      offer.line = line
      offer.title = title
      offer.discountPercent = discount
      offer.conditions = conditions
      if let validFrom { offer.validFrom = try parseInstant(validFrom, option: "--valid-from") }
      if let validUntil { offer.validUntil = try parseInstant(validUntil, option: "--valid-until") }
      return offer
    }
  }

  struct Create: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a route offer.",
      discussion: "binario admin route-offers create --from MI_GARIBALDI --line RE80 --title \"Lake Como\" --discount 15"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var fields: Fields

    func call(_ gateway: GatewayConnection) async throws {
      let offer = try fields.offer()
      Print.routeOffer(
        try await gateway.geoOffers.createRouteOffer(.with { $0.offer = offer })
          .offer
      )
    }
  }

  struct Update: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Replace a route offer's fields.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var offerID: String
    @OptionGroup var fields: Fields

    func call(_ gateway: GatewayConnection) async throws {
      let offer = try fields.offer(id: offerID)
      Print.routeOffer(
        try await gateway.geoOffers.updateRouteOffer(.with { $0.offer = offer })
          .offer
      )
    }
  }

  struct Delete: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a route offer.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var offerID: String

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.geoOffers.deleteRouteOffer(
        .with { $0.offerID = offerID }
      )
      print("removed \(offerID)")
    }
  }
}
