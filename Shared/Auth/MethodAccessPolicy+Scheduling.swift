import BinarioProto
import GRPCCore

extension MethodAccessPolicy {
  /// Scheduling's methods: the timetable (`binario.scheduling.v1.Scheduling`), the notification
  /// centre (`Notifications`) and shared itineraries (`Itineraries`).
  public static let scheduling: MethodAccessPolicy = {
    typealias S = Binario_Scheduling_V1_Scheduling.Method
    typealias N = Binario_Scheduling_V1_Notifications.Method
    typealias I = Binario_Scheduling_V1_Itineraries.Method
    let publicMethods: [MethodDescriptor] = [
      S.ListStations.descriptor,
      S.SearchJourneys.descriptor,
      S.GetRun.descriptor,
      S.GetDeparturesBoard.descriptor,
      S.WatchDeparturesBoard.descriptor,
      S.GetRealtimeFeed.descriptor,
    ]
    let signedInMethods: [MethodDescriptor] = [
      S.FollowRun.descriptor,
      S.UnfollowRun.descriptor,
      S.ListFollowedRuns.descriptor,
      N.ListNotifications.descriptor,
      N.WatchNotifications.descriptor,
      N.MarkNotificationsRead.descriptor,
      N.GetNotificationPreferences.descriptor,
      N.SetNotificationPreferences.descriptor,
      N.RegisterPushDevice.descriptor,
      N.ListPushDevices.descriptor,
      N.RemovePushDevice.descriptor,
      I.CreateItinerary.descriptor,
      I.ListItineraries.descriptor,
      I.GetItinerary.descriptor,
      I.DeleteItinerary.descriptor,
      I.InviteToItinerary.descriptor,
      I.ListItineraryInvites.descriptor,
      I.RespondToItineraryInvite.descriptor,
      I.LeaveItinerary.descriptor,
      I.AddItineraryEvent.descriptor,
      I.UpdateItineraryEvent.descriptor,
      I.DeleteItineraryEvent.descriptor,
    ]
    let adminMethods: [MethodDescriptor] = [
      S.DelayRun.descriptor,
      S.ChangePlatform.descriptor,
      S.CancelRun.descriptor,
      S.ListRunChanges.descriptor,
      S.CreateRun.descriptor,
      S.UpdateRun.descriptor,
      S.RemoveRun.descriptor,
      S.ListLines.descriptor,
      S.ImportTimetable.descriptor,
      N.ListDeliveries.descriptor,
    ]
    var rules: [MethodDescriptor: MethodAccess] = [:]
    for method in publicMethods { rules[method] = .level(.public) }
    for method in signedInMethods { rules[method] = .level(.signedIn) }
    for method in adminMethods { rules[method] = .level(.admin) }
    // Every service that tells people something sends through the notification centre.
    rules[N.Notify.descriptor] = .internal(
      allowedPeers: [
        WorkloadIdentity.identity, WorkloadIdentity.ticketing, WorkloadIdentity.geoOffers,
        WorkloadIdentity.dispatch, WorkloadIdentity.telemetry,
      ])
    // A ticket's holder follows the runs it is for.
    rules[S.FollowRunFor.descriptor] = .internal(allowedPeers: [WorkloadIdentity.ticketing])
    rules[S.UnfollowRunFor.descriptor] = .internal(allowedPeers: [WorkloadIdentity.ticketing])
    // A wallet's runs, a station's welcome: many runs' live state in one call.
    rules[S.GetRuns.descriptor] = .internal(allowedPeers: [WorkloadIdentity.ticketing, WorkloadIdentity.geoOffers])
    rules[S.WatchStations.descriptor] = .internal(allowedPeers: [WorkloadIdentity.geoOffers])
    return MethodAccessPolicy(rules)
  }()
}
