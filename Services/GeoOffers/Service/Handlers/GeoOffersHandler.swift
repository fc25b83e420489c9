import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

/// The gRPC face of geo-offers: translates `binario.geo_offers.v1.GeoOffers` messages to
/// ``GeoOffersDomain`` calls and its errors to statuses. Register it behind
/// ``BinarioAuth/AuthorizationServerInterceptor`` with ``BinarioAuth/MethodAccessPolicy/geoOffers``.
public struct GeoOffersHandler: Binario_GeoOffers_V1_GeoOffers.SimpleServiceProtocol {
  let domain: GeoOffersDomain

  public init(domain: GeoOffersDomain) {
    self.domain = domain
  }
}
