import BinarioProto
import Foundation

typealias Scheduling = Binario_Scheduling_V1_Scheduling.Method
typealias Tickets = Binario_Ticketing_V1_Tickets.Method

extension LoadOperation {
  /// Travellers on the regional trains, and the operator's control room delaying a run.
  static let trenord: [LoadOperation] = [
    LoadOperation("departures board", app: "Trenord") { context in
      let traveller = context.anyTraveller
      _ = try await context.call(
        Scheduling.GetDeparturesBoard.self,
        .with {
          $0.stationID = Cast.stations.randomElement()!
          $0.limit = 10
        },
        as: traveller.person
      )
    },
    LoadOperation("journey search", app: "Trenord") { context in
      let stations = Cast.stations.shuffled()
      _ = try await context.call(
        Scheduling.SearchJourneys.self,
        .with {
          $0.fromStationID = stations[0]
          $0.toStationID = stations[1]
        },
        as: context.anyTraveller.person
      )
    },
    LoadOperation("followed trains", app: "Trenord") { context in
      _ = try await context.call(Scheduling.ListFollowedRuns.self, .init(), as: context.anyTraveller.person)
    },
    LoadOperation("follow a train", app: "Trenord") { context in
      _ = try await context.call(Scheduling.FollowRun.self, .with { $0.run = context.cast.runs.randomElement()! }, as: context.anyTraveller.person)
    },
    LoadOperation("wallet", app: "Trenord") { context in
      _ = try await context.call(Tickets.ListWallet.self, .init(), as: context.anyTraveller.person)
    },
    // A quote, then the purchase with its own idempotency key (the card on file charged).
    LoadOperation("ticket purchase", app: "Trenord") { context in
      let person = context.anyTraveller.person
      let quote = try await context.call(Tickets.QuoteTicket.self, .with { $0.zone = .with { $0.zones = "Mi1-Mi3" } }, as: person).quote
      _ = try await context.call(
        Tickets.PurchaseTickets.self,
        .with {
          $0.quoteID = quote.quoteID
          $0.idempotencyKey = newKey()
        },
        as: person
      )
    },
    // The control room delays a followed run: every follower's stream hears of it.
    LoadOperation("run delayed", app: "Trenord") { context in
      _ = try await context.call(
        Scheduling.DelayRun.self,
        .with {
          $0.run = context.cast.runs.randomElement()!
          $0.minutes = Int32.random(in: 1 ... 30)
          $0.reason = "Load generator: a signal fault"
          $0.idempotencyKey = newKey()
        },
        as: context.cast.admin
      )
    },
  ]
}
