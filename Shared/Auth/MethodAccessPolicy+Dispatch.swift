import BinarioProto
import GRPCCore

extension MethodAccessPolicy {
  /// Dispatch's methods (`binario.dispatch.v1.Dispatch`).
  public static let dispatch: MethodAccessPolicy = {
    typealias D = Binario_Dispatch_V1_Dispatch.Method
    let publicMethods: [MethodDescriptor] = [D.ListZones.descriptor]
    let passengerMethods: [MethodDescriptor] = [
      D.RequestRide.descriptor, D.GetRide.descriptor, D.WatchRide.descriptor, D.CancelRide.descriptor,
      D.ListMyRides.descriptor, D.ListRecentAddresses.descriptor, D.SavePlace.descriptor, D.ListSavedPlaces.descriptor,
      D.DeleteSavedPlace.descriptor, D.CreateReservation.descriptor, D.UpdateReservation.descriptor,
      D.DeleteReservation.descriptor, D.ListReservations.descriptor,
    ]
    let driverMethods: [MethodDescriptor] = [
      D.GetMyTaxi.descriptor, D.SetAvailability.descriptor, D.ReportPosition.descriptor, D.WatchJobs.descriptor,
      D.AcceptOffer.descriptor, D.RejectOffer.descriptor, D.ReportDelay.descriptor, D.ReportArrived.descriptor,
      D.StartRide.descriptor, D.CompleteRide.descriptor,
    ]
    let adminMethods: [MethodDescriptor] = [
      D.CreateTaxi.descriptor, D.UpdateTaxi.descriptor, D.DeleteTaxi.descriptor, D.ListTaxis.descriptor,
      D.GetMonitorSnapshot.descriptor, D.WatchMonitor.descriptor,
    ]
    var rules: [MethodDescriptor: MethodAccess] = [:]
    for method in publicMethods { rules[method] = .level(.public) }
    for method in passengerMethods { rules[method] = .level(.signedIn) }
    for method in driverMethods { rules[method] = .level(.driver) }
    for method in adminMethods { rules[method] = .level(.admin) }
    return MethodAccessPolicy(rules)
  }()
}
