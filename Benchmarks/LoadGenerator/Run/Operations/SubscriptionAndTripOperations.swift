import BinarioProto
import Foundation
import SwiftProtobuf

typealias Subscriptions = Binario_Ticketing_V1_Subscriptions.Method
typealias Itineraries = Binario_Scheduling_V1_Itineraries.Method

extension LoadOperation {
  /// People keeping an eye on what they pay for.
  static let subscribeME: [LoadOperation] = [
    LoadOperation("subscriptions home", app: "SubscribeME") { context in
      _ = try await context.call(Subscriptions.GetSubscriptionsHome.self, .init(), as: context.anyTraveller.person)
    },
    // A new price (the whole details, as the app's form sends them).
    LoadOperation("subscription edited", app: "SubscribeME") { context in
      let traveller = context.anyTraveller
      var details = traveller.subscription
      details.price.amountMinor = Int64.random(in: 499 ... 1999)
      _ = try await context.call(
        Subscriptions.UpdateSubscription.self,
        .with {
          $0.subscriptionID = traveller.subscriptionID
          $0.details = details
        },
        as: traveller.person
      )
    },
  ]

  /// Friends planning a trip.
  static let tripItinerary: [LoadOperation] = [
    LoadOperation("trip opened", app: "Trip Itinerary") { context in
      let traveller = context.anyTraveller
      _ = try await context.call(Itineraries.GetItinerary.self, .with { $0.itineraryID = traveller.itineraryID }, as: traveller.person)
    },
    LoadOperation("trip event added", app: "Trip Itinerary") { context in
      let traveller = context.anyTraveller
      let start = Date().addingTimeInterval(7 * 86_400 + Double.random(in: 0 ..< 86_400)).timeIntervalSince1970.rounded()
      _ = try await context.call(
        Itineraries.AddItineraryEvent.self,
        .with {
          $0.itineraryID = traveller.itineraryID
          $0.event = .with {
            $0.title = "Lunch by the lake"
            $0.place = "Como"
            $0.latitude = 45.8081
            $0.longitude = 9.0852
            $0.startsAt = Google_Protobuf_Timestamp(timeIntervalSince1970: start)
            $0.endsAt = Google_Protobuf_Timestamp(timeIntervalSince1970: start + 3600)
          }
        },
        as: traveller.person
      )
    },
  ]

  /// What every app's people do: open their profile, tell where they are and see the deals there.
  static let everyApp: [LoadOperation] = [
    LoadOperation("profile", app: "every app") { context in
      _ = try await context.call(Binario_Identity_V1_Identity.Method.GetMe.self, .init(), as: context.anyTraveller.person)
    },
    LoadOperation("location report", app: "every app") { context in
      _ = try await context.call(
        Binario_GeoOffers_V1_GeoOffers.Method.ReportLocation.self,
        .with {
          $0.latitude = Cast.centre.latitude + Double.random(in: -0.02 ... 0.02)
          $0.longitude = Cast.centre.longitude + Double.random(in: -0.02 ... 0.02)
          $0.accuracyMetres = 15
        },
        as: context.anyTraveller.person
      )
    },
    LoadOperation("deals nearby", app: "every app") { context in
      _ = try await context.call(
        Binario_GeoOffers_V1_GeoOffers.Method.ListNearbyDeals.self,
        .with {
          $0.latitude = Cast.centre.latitude + Double.random(in: -0.02 ... 0.02)
          $0.longitude = Cast.centre.longitude + Double.random(in: -0.02 ... 0.02)
        },
        as: context.anyTraveller.person
      )
    },
  ]
}
