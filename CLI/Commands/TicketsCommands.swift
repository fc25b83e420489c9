import ArgumentParser
import BinarioProto
import Foundation

/// `binario tickets quote|buy|wallet|history|show|refund|validate|inspect|fares`.
struct TicketsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tickets",
    abstract: "Train tickets, zone tickets, carnets and passes: quote, buy, the wallet, refunds, validation.",
    subcommands: [
      Quote.self, Buy.self, Wallet.self, History.self, Show.self, Refund.self, Validate.self, Inspect.self, Fares.self,
    ],
    defaultSubcommand: Wallet.self
  )

  struct Quote: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Price a ticket (held 15 minutes): a station ticket for a trip (--trip --date --from --to) or a journey with changes (--leg, once per train), a zone ticket (--zones), a carnet (--zones --rides) or a pass (--pass).",
      discussion: """
        binario tickets quote --trip R4_2301 --date 2026-11-25 --from MI_CENTRALE --to BERGAMO --passengers 2
        binario tickets quote --trip R4_2301 --date 2026-11-25 --from MI_CENTRALE --to BERGAMO --return-trip R4_2350 --return-date 2026-11-25 --first-class
        binario tickets quote --leg MXP2_201,2026-11-28,MALPENSA_T1,MI_CENTRALE --leg R4_2604,2026-11-28,MI_CENTRALE,BERGAMO
        binario tickets quote --zones Mi1-Mi3
        binario tickets quote --zones Mi1-Mi3 --rides 10
        binario tickets quote --pass monthly --zones Mi1-Mi4 --start 2026-12-01
        binario tickets quote --pass yearly --from MONZA --to MI_CENTRALE
        """
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "A trip id (see 'binario trips board' or 'trips search').") var trip: String?
    @Option(help: "The trip's service date, YYYY-MM-DD.") var date: String?
    @Option(help: "The station you board at.") var from: String?
    @Option(help: "The station you get off at.") var to: String?
    @Option(help: "A return ticket: the trip back.") var returnTrip: String?
    @Option(help: "One train of a journey with changes, in order: TRIP,DATE,FROM,TO (as 'trips search' shows them).")
    var leg: [String] = []
    @Option(help: "One train of the way back with changes, in order: TRIP,DATE,FROM,TO.") var returnLeg: [String] = []
    @Option(help: "The return trip's date, YYYY-MM-DD (default: --date).") var returnDate: String?
    @Flag(help: "First class (default second).") var firstClass = false
    @Option(help: "A zone range, e.g. Mi1-Mi3.") var zones: String?
    @Option(help: "A carnet of this many rides (with --zones).") var rides: UInt32?
    @Option(help: "A pass: monthly or yearly (with --zones, or --from and --to).") var pass: String?
    @Option(help: "The pass's first day, YYYY-MM-DD (default today).") var start: String?
    @Option(help: "1 to 10.") var passengers: UInt32 = 1

    func call(_ gateway: GatewayConnection) async throws {
      let travelClass: Binario_Ticketing_V1_TravelClass = firstClass ? .first : .second
      var request = Binario_Ticketing_V1_QuoteTicketRequest()
      request.passengers = passengers
      if let pass {
        let period: Binario_Ticketing_V1_PassPeriod
        switch pass.lowercased() {
        case "monthly": period = .monthly
        case "yearly": period = .yearly
        default: throw ValidationError("--pass is monthly or yearly")
        }
        request.pass = .with {
          $0.period = period
          $0.startDate = start ?? ""
          $0.zones = zones ?? ""
          $0.fromStationID = from ?? ""
          $0.toStationID = to ?? ""
          $0.travelClass = travelClass
        }
      } else if !leg.isEmpty {
        for text in leg + returnLeg where TicketsCommand.parseLeg(text).run.tripID.isEmpty {
          throw ValidationError("a leg is TRIP,DATE,FROM,TO (got \"\(text)\")")
        }
        request.station = .with {
          $0.legs = leg.map(TicketsCommand.parseLeg)
          $0.returnLegs = returnLeg.map(TicketsCommand.parseLeg)
          $0.travelClass = travelClass
        }
      } else if let trip {
        guard let date, let from, let to else { throw ValidationError("a station ticket needs --date, --from and --to") }
        request.station = .with {
          $0.run = .with {
            $0.tripID = trip
            $0.serviceDate = date
          }
          $0.fromStationID = from
          $0.toStationID = to
          if let returnTrip {
            $0.returnRun = .with {
              $0.tripID = returnTrip
              $0.serviceDate = returnDate ?? date
            }
          }
          $0.travelClass = travelClass
        }
      } else if let zones {
        if let rides {
          request.carnet = .with {
            $0.zones = zones
            $0.rides = rides
          }
        } else {
          request.zone = .with { $0.zones = zones }
        }
      } else {
        throw ValidationError("say what to price: --trip or --leg (a station ticket), --zones (a zone ticket or, with --rides, a carnet) or --pass")
      }
      let quote = try await gateway.tickets.quoteTicket(request).quote
      for line in quote.lines {
        print("\(line.quantity) × \(line.description_p)  \(Print.money(line.unitPrice))")
      }
      if quote.hasRouteOffer {
        let offer = quote.routeOffer
        print("route offer \"\(offer.title)\": −\(offer.discountPercent)% (full fare \(Print.money(offer.fullUnitPrice)) each)")
      }
      print("total \(Print.money(quote.total)), held until \(Print.clock(quote.expiresAt))")
      print("quote \(quote.quoteID)  (buy it: binario tickets buy \(quote.quoteID))")
    }
  }

  /// `TRIP,DATE,FROM,TO` as a leg (an empty trip when malformed).
  fileprivate static func parseLeg(_ text: String) -> Binario_Ticketing_V1_TicketLeg {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    guard parts.count == 4, !parts.contains(where: \.isEmpty) else { return .init() }
    return .with {
      $0.run = .with {
        $0.tripID = parts[0]
        $0.serviceDate = parts[1]
      }
      $0.fromStationID = parts[2]
      $0.toStationID = parts[3]
    }
  }

  struct Buy: ConnectedCommand {
    static let configuration = CommandConfiguration(
      abstract: "Pay for a quote with your default card (or --card) and get its tickets.",
      discussion: "Pass --key to retry safely: the same key never charges twice. Without it a new key is made and printed."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The quote id from 'binario tickets quote'.") var quoteID: String
    @Option(help: "The idempotency key (default: a new one, printed).") var key: String?
    @Option(help: "A payment method id of yours (see 'binario cards').") var card: String?

    func call(_ gateway: GatewayConnection) async throws {
      let key = self.key ?? UUID().uuidString.lowercased()
      if self.key == nil { print("idempotency key \(key) (retry with --key \(key))") }
      let purchase = try await gateway.tickets.purchaseTickets(
        .with {
          $0.quoteID = quoteID
          $0.idempotencyKey = key
          $0.paymentMethodID = card ?? ""
        }
      ).purchase
      print("paid \(Print.money(purchase.total)) with the card ending \(purchase.cardLast4)  [purchase \(purchase.purchaseID)]")
      for ticket in purchase.tickets { Print.ticket(ticket) }
    }
  }

  struct Wallet: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Your valid and upcoming tickets, with their trains' live state.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let wallet = try await gateway.tickets.listWallet(.init())
      if wallet.tickets.isEmpty { print("no tickets") }
      for ticket in wallet.tickets { Print.ticket(ticket) }
    }
  }

  struct History: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Your purchases, newest first.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "Purchases per page (default 20).") var pageSize: UInt32 = 0
    @Option(help: "The next page's token, as the last page printed it.") var pageToken: String?

    func call(_ gateway: GatewayConnection) async throws {
      let page = try await gateway.tickets.listPurchases(
        .with {
          $0.pageSize = pageSize
          $0.pageToken = pageToken ?? ""
        }
      )
      if page.purchases.isEmpty { print("no purchases") }
      for purchase in page.purchases {
        let refunded = purchase.refunded.amountMinor > 0 ? ", \(Print.money(purchase.refunded)) refunded" : ""
        print("\(Print.date(purchase.purchasedAt))  \(Print.money(purchase.total)) (card \(purchase.cardLast4)\(refunded))  [\(purchase.purchaseID)]")
        for ticket in purchase.tickets { print("    \(ticket.description_p)  [\(ticket.ticketID)]") }
      }
      if !page.nextPageToken.isEmpty { print("more: --page-token \(page.nextPageToken)") }
    }
  }

  struct Show: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "A ticket with its validation code and rides.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var ticketID: String

    func call(_ gateway: GatewayConnection) async throws {
      let ticket = try await gateway.tickets.getTicket(
        .with { $0.ticketID = ticketID }
      ).ticket
      Print.ticket(ticket)
      for validation in ticket.validations {
        print("  ride \(validation.ride) validated \(Print.date(validation.validatedAt))")
      }
      print("  code \(ticket.validationCode)")
    }
  }

  struct Refund: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Refund an unused ticket before its train leaves (or when it is cancelled).")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument var ticketID: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.tickets.refundTicket(
        .with { $0.ticketID = ticketID }
      )
      print("refunded \(Print.money(response.refunded)) to your card")
    }
  }

  struct Validate: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Inspectors: use a ride of the ticket whose code is shown.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ticket's validation code.") var code: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.tickets.validateTicket(
        .with { $0.code = code }
      )
      let until = response.hasActiveUntil ? " until \(Print.clock(response.activeUntil))" : ""
      print("valid: ride \(response.ride)\(until)")
      Print.ticket(response.ticket)
    }
  }

  struct Inspect: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Inspectors: whether the ticket whose code is shown may travel now (no ride used).")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The ticket's validation code.") var code: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.tickets.inspectTicket(
        .with { $0.code = code }
      )
      print(response.mayTravel ? "may travel" : "may not travel: \(response.reason)")
      Print.ticket(response.ticket)
    }
  }

  struct Fares: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "The fare table.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let table = try await gateway.tickets.getFareTable(.init())
      print("Station tickets by distance (2nd / 1st class, monthly / yearly pass):")
      for band in table.distanceBands {
        print(
          "  up to \(band.upToKm) km  \(Print.money(band.secondClass)) / \(Print.money(band.firstClass))  \(Print.money(band.monthlyPass)) / \(Print.money(band.yearlyPass))"
        )
      }
      print("Zones \(table.zones.joined(separator: " ")): a ride lasts \(table.zoneRideMinutes) minutes")
      for fare in table.zoneFares {
        print("  \(fare.zones)  \(Print.money(fare.single))  monthly \(Print.money(fare.monthlyPass))  yearly \(Print.money(fare.yearlyPass))")
      }
      for carnet in table.carnets { print("  carnet \(carnet.rides) rides \(carnet.zones)  \(Print.money(carnet.price))") }
    }
  }
}

extension Print {
  static func ticket(_ ticket: Binario_Ticketing_V1_Ticket) {
    let status = String(describing: ticket.status).uppercased()
    print("\(ticket.description_p)  \(Print.money(ticket.price))  \(status)  [\(ticket.ticketID)]")
    let trains = [ticket.outbound] + ticket.outboundConnections + [ticket.returnJourney] + ticket.returnConnections
    for journey in trains where !journey.run.tripID.isEmpty {
      var line = "  \(clock(journey.scheduledDeparture)) \(journey.fromStationName) → \(clock(journey.scheduledArrival)) \(journey.toStationName)"
      line += "  train \(journey.trainNumber) [\(journey.run.tripID) \(journey.run.serviceDate)]"
      if journey.hasLive {
        let live = journey.live
        if live.cancelled {
          line += "  CANCELLED"
        } else {
          if live.delayMinutes != 0 { line += "  +\(live.delayMinutes) min (\(clock(live.expectedDeparture)))" }
          if !live.platform.isEmpty { line += "  platform \(live.platform)\(live.platformChanged ? " (changed)" : "")" }
        }
      }
      print(line)
    }
    var facts: [String] = []
    if ticket.ridesTotal > 0 { facts.append("rides \(ticket.ridesUsed)/\(ticket.ridesTotal) used") }
    facts.append("valid \(date(ticket.validFrom)) to \(date(ticket.validUntil))")
    if ticket.hasActiveUntil { facts.append("active until \(clock(ticket.activeUntil))") }
    if ticket.refundable { facts.append("refundable") }
    print("  " + facts.joined(separator: ", "))
  }
}
