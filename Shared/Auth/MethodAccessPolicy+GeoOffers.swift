import BinarioProto
import GRPCCore

extension MethodAccessPolicy {
  /// Geo-offers' methods (`binario.geo_offers.v1.GeoOffers`).
  public static let geoOffers: MethodAccessPolicy = {
    typealias G = Binario_GeoOffers_V1_GeoOffers.Method
    let publicMethods: [MethodDescriptor] = [
      G.ListNearestStations.descriptor,
      G.ListNearbyDeals.descriptor,
      G.ListNearbyPlaces.descriptor,
      G.ListRouteOffers.descriptor,
    ]
    let signedInMethods: [MethodDescriptor] = [
      G.ReportLocation.descriptor,
      G.GetMyLocation.descriptor,
      G.ForgetMyLocation.descriptor,
    ]
    let adminMethods: [MethodDescriptor] = [
      G.CreateShop.descriptor, G.UpdateShop.descriptor, G.DeleteShop.descriptor, G.ListShops.descriptor,
      G.CreateDeal.descriptor, G.UpdateDeal.descriptor, G.DeleteDeal.descriptor, G.ListDeals.descriptor,
      G.CreatePlace.descriptor, G.UpdatePlace.descriptor, G.DeletePlace.descriptor, G.ListPlaces.descriptor,
      G.CreateRouteOffer.descriptor, G.UpdateRouteOffer.descriptor, G.DeleteRouteOffer.descriptor,
    ]
    var rules: [MethodDescriptor: MethodAccess] = [:]
    for method in publicMethods { rules[method] = .level(.public) }
    for method in signedInMethods { rules[method] = .level(.signedIn) }
    for method in adminMethods { rules[method] = .level(.admin) }
    // A quote's route offer: ticketing only.
    rules[G.FindRouteOffer.descriptor] = .internal(allowedPeers: [WorkloadIdentity.ticketing])
    return MethodAccessPolicy(rules)
  }()
}
