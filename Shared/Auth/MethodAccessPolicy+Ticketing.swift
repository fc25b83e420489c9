import BinarioProto
import GRPCCore

extension MethodAccessPolicy {
  /// Ticketing's methods: tickets and the wallet (`binario.ticketing.v1.Tickets`) and
  /// subscriptions (`Subscriptions`).
  public static let ticketing: MethodAccessPolicy = {
    typealias T = Binario_Ticketing_V1_Tickets.Method
    typealias S = Binario_Ticketing_V1_Subscriptions.Method
    let publicMethods: [MethodDescriptor] = [
      T.GetFareTable.descriptor,
      T.GetValidationKeys.descriptor,
      S.GetSubscriptionOptions.descriptor,
    ]
    let signedInMethods: [MethodDescriptor] = [
      T.QuoteTicket.descriptor,
      T.PurchaseTickets.descriptor,
      T.ListWallet.descriptor,
      T.ListPurchases.descriptor,
      T.GetTicket.descriptor,
      T.RefundTicket.descriptor,
      S.AddSubscription.descriptor,
      S.ListSubscriptions.descriptor,
      S.GetSubscription.descriptor,
      S.UpdateSubscription.descriptor,
      S.DeleteSubscription.descriptor,
      S.WithdrawFromSubscription.descriptor,
      S.GetSubscriptionsHome.descriptor,
      S.GetSubscriptionStatistics.descriptor,
    ]
    let inspectorMethods: [MethodDescriptor] = [
      T.ValidateTicket.descriptor,
      T.InspectTicket.descriptor,
    ]
    var rules: [MethodDescriptor: MethodAccess] = [:]
    for method in publicMethods { rules[method] = .level(.public) }
    for method in signedInMethods { rules[method] = .level(.signedIn) }
    for method in inspectorMethods { rules[method] = .level(.inspector) }
    // A station's welcome: geo-offers only.
    rules[T.ListDepartingTickets.descriptor] = .internal(allowedPeers: [WorkloadIdentity.geoOffers])
    return MethodAccessPolicy(rules)
  }()
}
