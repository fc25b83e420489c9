import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore
import Logging
import SwiftProtobuf

/// ``RouteOfferLookup`` on geo-offers' internal `FindRouteOffer`, over the Binario transport
/// with ticketing's certificate. Geo-offers being down or slow leaves quotes at the full fare
/// (logged), never refused.
public struct GeoOffersRouteOffers: RouteOfferLookup {
  let geoOffers: Binario_GeoOffers_V1_GeoOffers.Client<BinarioClientTransport>
  let timeout: Duration
  let logger: Logger

  public init(client: GRPCClient<BinarioClientTransport>, timeout: Duration = .seconds(1), logger: Logger) {
    self.geoOffers = Binario_GeoOffers_V1_GeoOffers.Client(wrapping: client)
    self.timeout = timeout
    self.logger = logger
  }

  public func bestOffer(from: String, to: String, line: String, at instant: Date) async -> RouteOfferMatch? {
    var options = CallOptions.defaults
    options.timeout = timeout
    do {
      let response = try await geoOffers.findRouteOffer(
        .with {
          $0.fromStationID = from
          $0.toStationID = to
          $0.line = line
          $0.at = Google_Protobuf_Timestamp(date: instant)
        },
        options: options
      )
      guard response.found else { return nil }
      return RouteOfferMatch(
        offerID: response.offer.offerID,
        title: response.offer.title,
        discountPercent: Int(response.offer.discountPercent)
      )
    } catch {
      logger.warning("no route offer asked for: geo-offers did not answer", metadata: ["error": "\(error)"])
      return nil
    }
  }
}
