import BinarioProto

// The generated methods the generator calls: each namespace already has `Input`, `Output` and
// `descriptor`.

extension Binario_Identity_V1_Identity.Method.Login: CallableMethod {}
extension Binario_Identity_V1_Identity.Method.Register: CallableMethod {}
extension Binario_Identity_V1_Identity.Method.ConfirmEmail: CallableMethod {}
extension Binario_Identity_V1_Identity.Method.VerifyPhone: CallableMethod {}
extension Binario_Identity_V1_Identity.Method.AddPaymentMethod: CallableMethod {}
extension Binario_Identity_V1_Identity.Method.ListOutboxMessages: CallableMethod {}
extension Binario_Identity_V1_Identity.Method.CreateDriver: CallableMethod {}
extension Binario_Identity_V1_Identity.Method.GetMe: CallableMethod {}

extension Binario_Scheduling_V1_Scheduling.Method.GetDeparturesBoard: CallableMethod {}
extension Binario_Scheduling_V1_Scheduling.Method.SearchJourneys: CallableMethod {}
extension Binario_Scheduling_V1_Scheduling.Method.FollowRun: CallableMethod {}
extension Binario_Scheduling_V1_Scheduling.Method.ListFollowedRuns: CallableMethod {}
extension Binario_Scheduling_V1_Scheduling.Method.DelayRun: CallableMethod {}
extension Binario_Scheduling_V1_Notifications.Method.WatchNotifications: CallableMethod {}
extension Binario_Scheduling_V1_Itineraries.Method.CreateItinerary: CallableMethod {}
extension Binario_Scheduling_V1_Itineraries.Method.GetItinerary: CallableMethod {}
extension Binario_Scheduling_V1_Itineraries.Method.AddItineraryEvent: CallableMethod {}

extension Binario_Ticketing_V1_Tickets.Method.QuoteTicket: CallableMethod {}
extension Binario_Ticketing_V1_Tickets.Method.PurchaseTickets: CallableMethod {}
extension Binario_Ticketing_V1_Tickets.Method.ListWallet: CallableMethod {}
extension Binario_Ticketing_V1_Subscriptions.Method.AddSubscription: CallableMethod {}
extension Binario_Ticketing_V1_Subscriptions.Method.GetSubscriptionsHome: CallableMethod {}
extension Binario_Ticketing_V1_Subscriptions.Method.UpdateSubscription: CallableMethod {}

extension Binario_GeoOffers_V1_GeoOffers.Method.ReportLocation: CallableMethod {}
extension Binario_GeoOffers_V1_GeoOffers.Method.ListNearbyDeals: CallableMethod {}

extension Binario_Dispatch_V1_Dispatch.Method.CreateTaxi: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.ReportPosition: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.SetAvailability: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.EstimateRide: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.RequestRide: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.GetRide: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.CancelRide: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.GetMyTaxi: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.AcceptOffer: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.ReportArrived: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.StartRide: CallableMethod {}
extension Binario_Dispatch_V1_Dispatch.Method.CompleteRide: CallableMethod {}

extension Binario_Telemetry_V1_Telemetry.Method.RegisterDevice: CallableMethod {}
extension Binario_Telemetry_V1_Telemetry.Method.UploadReadings: CallableMethod {}
extension Binario_Telemetry_V1_Telemetry.Method.GetPublicMap: CallableMethod {}
extension Binario_Telemetry_V1_Telemetry.Method.GetSeries: CallableMethod {}
extension Binario_Telemetry_V1_Telemetry.Method.GetAirQualityIndex: CallableMethod {}
