import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import SwiftProtobuf

// Domain values as proto messages, and back. Instants are Timestamps; dates `YYYY-MM-DD`.

extension Binario_Ticketing_V1_TripRun {
  init(_ run: RunReference) {
    self.init()
    self.tripID = run.tripID
    self.serviceDate = run.serviceDate
  }

  var reference: RunReference { RunReference(tripID: tripID, serviceDate: serviceDate) }
}

extension Ticket.TravelClass {
  init(_ proto: Binario_Ticketing_V1_TravelClass) {
    self = proto == .first ? .first : .second
  }

  var proto: Binario_Ticketing_V1_TravelClass { self == .first ? .first : .second }
}

extension Ticket.PassPeriod {
  init?(_ proto: Binario_Ticketing_V1_PassPeriod) {
    switch proto {
    case .monthly: self = .monthly
    case .yearly: self = .yearly
    default: return nil
    }
  }

  var proto: Binario_Ticketing_V1_PassPeriod { self == .monthly ? .monthly : .yearly }
}

extension Ticket.Kind {
  var proto: Binario_Ticketing_V1_TicketKind {
    switch self {
    case .station: return .station
    case .zone: return .zone
    case .carnet: return .carnet
    case .pass: return .pass
    }
  }

  init?(_ proto: Binario_Ticketing_V1_TicketKind) {
    switch proto {
    case .station: self = .station
    case .zone: self = .zone
    case .carnet: self = .carnet
    case .pass: self = .pass
    default: return nil
    }
  }
}

extension Binario_Ticketing_V1_Quote {
  init(_ quote: TicketQuote) {
    self.init()
    self.quoteID = quote.id
    self.kind = quote.ticket.kind.proto
    self.lines = quote.lines.map { line in
      .with {
        $0.description_p = line.descriptionWords.text(in: RequestLanguage.current)
        $0.unitPrice = .init(line.unitPrice)
        $0.quantity = UInt32(line.quantity)
        $0.amount = .init(line.amount)
      }
    }
    self.total = .init(quote.total)
    self.expiresAt = Google_Protobuf_Timestamp(date: quote.expiresAt)
    self.passengers = UInt32(quote.passengers)
    if let applied = quote.routeOffer {
      self.routeOffer = .with {
        $0.offerID = applied.offer.offerID
        $0.title = applied.offer.title
        $0.discountPercent = Int32(applied.offer.discountPercent)
        $0.fullUnitPrice = .init(applied.fullUnitPrice)
      }
    }
  }
}

extension Binario_Ticketing_V1_TicketJourney {
  init(_ journey: Ticket.Journey, live: TimetableRun.Stop?) {
    self.init()
    self.run = .init(journey.run)
    self.trainNumber = journey.trainNumber
    self.fromStationID = journey.fromStationID
    self.fromStationName = journey.fromStationName
    self.toStationID = journey.toStationID
    self.toStationName = journey.toStationName
    self.scheduledDeparture = Google_Protobuf_Timestamp(date: journey.departure)
    self.scheduledArrival = Google_Protobuf_Timestamp(date: journey.arrival)
    if let live {
      self.live = .with {
        if let expected = live.expectedDeparture { $0.expectedDeparture = Google_Protobuf_Timestamp(date: expected) }
        $0.platform = live.platform
        $0.platformChanged = live.platformChanged
        $0.delayMinutes = Int32(live.delayMinutes)
        $0.cancelled = live.cancelled
      }
    }
  }
}

extension Binario_Ticketing_V1_Ticket {
  init(_ ticket: Ticket, now: Date) {
    self.init(TicketWithLiveState(ticket: ticket, outboundLive: nil, returnLive: nil, refundable: false), now: now)
  }

  init(_ shown: TicketWithLiveState, now: Date) {
    self.init()
    let ticket = shown.ticket
    self.ticketID = ticket.id
    self.purchaseID = ticket.purchaseID
    self.kind = ticket.kind.proto
    self.description_p = ticket.descriptionWords.text(in: RequestLanguage.current)
    self.status = {
      switch ticket.status(at: now) {
      case .valid: return .valid
      case .used: return .used
      case .expired: return .expired
      case .refunded: return .refunded
      }
    }()
    self.price = .init(ticket.price)
    if let travelClass = ticket.travelClass { self.travelClass = travelClass.proto }
    if let outbound = ticket.outbound { self.outbound = .init(outbound, live: shown.outboundLive) }
    if let back = ticket.returnJourney { self.returnJourney = .init(back, live: shown.returnLive) }
    self.outboundConnections = Self.connections(ticket.outboundConnections, live: shown.outboundConnectionsLive)
    self.returnConnections = Self.connections(ticket.returnConnections, live: shown.returnConnectionsLive)
    self.zones = ticket.zones ?? ""
    self.ridesTotal = UInt32(ticket.ridesTotal)
    self.ridesUsed = UInt32(ticket.ridesUsed)
    self.validFrom = Google_Protobuf_Timestamp(date: ticket.validFrom)
    self.validUntil = Google_Protobuf_Timestamp(date: ticket.validUntil)
    if let activeUntil = ticket.activeUntil { self.activeUntil = Google_Protobuf_Timestamp(date: activeUntil) }
    self.validationCode = ticket.validationCode
    self.refundable = shown.refundable
    if let period = ticket.passPeriod { self.passPeriod = period.proto }
    self.validations = shown.validations.map(Binario_Ticketing_V1_Validation.init)
  }
}

extension Binario_Ticketing_V1_Ticket {
  /// A journey's trains after its first, each with its live state when it is known.
  fileprivate static func connections(_ legs: [Ticket.Journey]?, live: [TimetableRun.Stop?]) -> [Binario_Ticketing_V1_TicketJourney] {
    (legs ?? []).enumerated().map { index, leg in .init(leg, live: live.indices.contains(index) ? live[index] : nil) }
  }
}

extension Binario_Ticketing_V1_Validation {
  init(_ validation: TicketValidation) {
    self.init()
    self.validatedAt = Google_Protobuf_Timestamp(date: validation.validatedAt)
    self.ride = UInt32(validation.ride)
    if let activeUntil = validation.activeUntil { self.activeUntil = Google_Protobuf_Timestamp(date: activeUntil) }
  }
}

extension Binario_Ticketing_V1_Purchase {
  /// - Parameter shown: The tickets with what is known of their state beyond the purchase
  ///   (default: the tickets alone).
  init(_ purchase: PurchaseRecord, shown: [TicketWithLiveState]? = nil, now: Date) {
    self.init()
    self.purchaseID = purchase.id
    self.purchasedAt = Google_Protobuf_Timestamp(date: purchase.createdAt)
    self.total = .init(purchase.total)
    self.cardLast4 = purchase.cardLast4
    self.tickets =
      shown?.map { Binario_Ticketing_V1_Ticket($0, now: now) } ?? purchase.tickets.map { Binario_Ticketing_V1_Ticket($0, now: now) }
    self.refunded = .init(purchase.refunded)
  }
}

extension Binario_Ticketing_V1_GetFareTableResponse {
  init(_ table: FareTable) {
    self.init()
    func money(_ amount: Int64) -> Binario_Type_V1_Money { .init(Money(amountMinor: amount, currency: table.currency)) }
    self.distanceBands = table.distanceBands.map { band in
      .with {
        $0.upToKm = UInt32(band.upToKm)
        $0.secondClass = money(band.secondClass)
        $0.firstClass = money(band.firstClass)
        $0.monthlyPass = money(band.monthlyPass)
        $0.yearlyPass = money(band.yearlyPass)
      }
    }
    self.zoneFares = table.zoneFares.map { fare in
      .with {
        $0.zones = fare.zones ?? "\(fare.zoneCount ?? 0) zone\(fare.zoneCount == 1 ? "" : "s")"
        $0.single = money(fare.single)
        $0.monthlyPass = money(fare.monthlyPass)
        $0.yearlyPass = money(fare.yearlyPass)
      }
    }
    self.carnets = table.carnets.map { carnet in
      .with {
        $0.zones = carnet.zones
        $0.rides = UInt32(carnet.rides)
        $0.price = money(carnet.price)
      }
    }
    self.zones = table.zones
    self.zoneRideMinutes = UInt32(table.zoneRideMinutes)
    self.stationRideMinutes = UInt32(table.stationRideMinutes)
  }
}

// MARK: - Subscriptions

extension SubscriptionPeriod {
  init?(_ proto: Binario_Ticketing_V1_SubscriptionPeriod) {
    switch proto {
    case .weekly: self = .weekly
    case .monthly: self = .monthly
    case .quarterly: self = .quarterly
    case .yearly: self = .yearly
    default: return nil
    }
  }

  var proto: Binario_Ticketing_V1_SubscriptionPeriod {
    switch self {
    case .weekly: return .weekly
    case .monthly: return .monthly
    case .quarterly: return .quarterly
    case .yearly: return .yearly
    }
  }
}

extension SubscriptionCategory {
  init?(_ proto: Binario_Ticketing_V1_SubscriptionCategory) {
    switch proto {
    case .moviesAndTv: self = .moviesAndTV
    case .music: self = .music
    case .shopping: self = .shopping
    case .tech: self = .tech
    case .other: self = .other
    case .transport: self = .transport
    default: return nil
    }
  }

  var proto: Binario_Ticketing_V1_SubscriptionCategory {
    switch self {
    case .moviesAndTV: return .moviesAndTv
    case .music: return .music
    case .shopping: return .shopping
    case .tech: return .tech
    case .other: return .other
    case .transport: return .transport
    }
  }
}

extension SubscriptionsDomain.Draft {
  init(_ details: Binario_Ticketing_V1_SubscriptionDetails, sharedWith: [String], sharedWithEmails: [String]) {
    self.init(
      serviceName: details.serviceName,
      customServiceName: details.customServiceName,
      planType: details.planType,
      customPlanType: details.customPlanType,
      startDate: details.startDate,
      period: SubscriptionPeriod(details.period),
      priceMinor: details.price.amountMinor,
      currency: details.price.currency,
      cardLast4: details.cardLast4,
      automaticRenewal: details.automaticRenewal,
      category: SubscriptionCategory(details.category),
      trialEndsOn: details.trialEndsOn,
      reminderDays: details.hasReminderDays ? Int(details.reminderDays) : nil,
      sharedWith: sharedWith,
      sharedWithEmails: sharedWithEmails
    )
  }
}

extension Binario_Ticketing_V1_Subscription {
  /// `people` by id (names and emails); `reminderDays` the lead time in force.
  init(_ subscription: Subscription, for userID: String, people: [String: PeerAccount], today: CalendarDate, reminderDays: Int) {
    self.init()
    self.subscriptionID = subscription.id
    let details = subscription.details
    self.details = .with {
      $0.serviceName = details.serviceName
      $0.customServiceName = details.customServiceName
      $0.planType = details.planType
      $0.customPlanType = details.customPlanType
      $0.startDate = details.startDate.description
      $0.period = details.period.proto
      $0.price = .init(details.price)
      $0.cardLast4 = details.cardLast4
      $0.automaticRenewal = details.automaticRenewal
      $0.category = details.category.proto
      $0.trialEndsOn = details.trialEndsOn?.description ?? ""
      if let days = details.reminderDays { $0.reminderDays = Int32(days) }
    }
    let shares = subscription.shares
    func member(_ entry: (userID: String, share: Money)) -> Binario_Ticketing_V1_SubscriptionMember {
      .with {
        $0.userID = entry.userID
        $0.name = people[entry.userID]?.displayName ?? ""
        $0.email = people[entry.userID]?.email ?? ""
        $0.share = .init(entry.share)
      }
    }
    self.owner = member(shares[0])
    self.members = shares.dropFirst().map(member)
    self.yourShare = .init(subscription.share(of: userID))
    self.nextRenewal = subscription.nextRenewal.description
    self.daysUntilRenewal = Int32(today.days(until: subscription.nextRenewal))
    self.owned = subscription.ownerID == userID
    self.ticketID = subscription.ticketID ?? ""
    self.createdAt = Google_Protobuf_Timestamp(date: subscription.createdAt)
    self.status = subscription.status(on: today).proto
    self.due = subscription.isDue(on: today)
    self.daysOverdue = Int32(subscription.daysOverdue(on: today))
    self.pausedOn = subscription.pausedOn?.description ?? ""
    self.endsOn = subscription.endsOn?.description ?? ""
    self.reminderDays = Int32(subscription.details.reminderDays ?? reminderDays)
  }
}

extension Subscription.Status {
  var proto: Binario_Ticketing_V1_SubscriptionStatus {
    switch self {
    case .active: return .active
    case .trial: return .trial
    case .paused: return .paused
    case .cancelled: return .cancelled
    case .ended: return .ended
    }
  }
}

extension Binario_Ticketing_V1_SubscriptionPayment {
  init(_ payment: SubscriptionPayment, people: [String: PeerAccount]) {
    self.init()
    self.dueDate = payment.dueDate.description
    self.paidOn = payment.paidOn.description
    self.amount = .init(payment.amount)
    self.automatic = payment.automatic
    self.paidByUserID = payment.paidBy ?? ""
    self.paidByName = payment.paidBy.flatMap { people[$0]?.displayName } ?? ""
  }
}

extension Binario_Ticketing_V1_SubscriptionSettings {
  init(_ settings: SubscriptionSettings) {
    self.init()
    self.reminderDays = Int32(settings.reminderDays)
    self.homeRenewals = UInt32(settings.homeRenewals)
    self.mainCurrency = settings.mainCurrency
    self.monthlyBudgetMinor = settings.monthlyBudgetMinor
    self.categoryBudgets = SubscriptionCategory.allCases.compactMap { category in
      settings.categoryBudgets[category].map { amount in
        .with {
          $0.category = category.proto
          $0.amountMinor = amount
        }
      }
    }
  }
}

extension Binario_Ticketing_V1_SpendTotal {
  init(_ total: SpendingSummary.Total) {
    self.init()
    self.monthly = .init(total.monthly)
    self.yearly = .init(total.yearly)
  }
}

extension Binario_Ticketing_V1_UpcomingRenewal {
  init(_ renewal: SpendingSummary.Renewal) {
    self.init()
    self.subscriptionID = renewal.subscription.id
    self.serviceName = renewal.subscription.details.serviceName
    self.date = renewal.date.description
    self.daysLeft = Int32(renewal.daysLeft)
    self.yourShare = .init(renewal.yourShare)
  }
}

extension Binario_Ticketing_V1_CategoryStatistics {
  init(_ figure: SpendingSummary.CategoryFigures) {
    self.init()
    self.category = figure.category.proto
    self.subscriptions = UInt32(figure.subscriptions)
    self.monthly = .init(figure.monthly)
    self.shareBasisPoints = UInt32(figure.shareBasisPoints)
    self.subscriptionsShareBasisPoints = UInt32(figure.subscriptionsShareBasisPoints)
  }
}

extension SubscriptionFile.Format {
  init?(_ proto: Binario_Ticketing_V1_SubscriptionFileFormat) {
    switch proto {
    case .binarioCsv: self = .binarioCSV
    case .wallosJson: self = .wallosJSON
    case .wallosCsv: self = .wallosCSV
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }

  var proto: Binario_Ticketing_V1_SubscriptionFileFormat {
    switch self {
    case .binarioCSV: return .binarioCsv
    case .wallosJSON: return .wallosJson
    case .wallosCSV: return .wallosCsv
    }
  }
}
