import BinarioDomain
import Foundation

extension TicketingDomain {
  /// Prices `request` for `passengers` people and keeps the quote for ``quoteLifetime``.
  public func quote(userID: String, _ request: QuoteRequest, passengers rawPassengers: Int) async throws -> TicketQuote {
    let passengers = rawPassengers == 0 ? 1 : rawPassengers
    guard (1 ... 10).contains(passengers) else { throw ServiceError.invalid("passengers", "1 to 10 passengers") }
    let table = try await fareTable()
    let now = clock.now()
    let priced: (description: PersonText, price: Int64, ticket: Ticket)
    switch request {
    case .station(let legs, let returnLegs, let travelClass):
      priced = try await stationTicket(legs: legs, returnLegs: returnLegs, travelClass: travelClass, table: table, now: now)
    case .zone(let zones):
      let range = try zoneRange(zones, table: table)
      let fare = try table.zoneFare(range)
      priced = (
        "Zone ticket \(range.name(in: table)), one ride of \(table.zoneRideMinutes) minutes" as PersonText, fare.single,
        zoneTicket(kind: .zone, zones: range.name(in: table), rides: 1, table: table, now: now)
      )
    case .carnet(let zones, let rides):
      let range = try zoneRange(zones, table: table)
      guard let carnet = table.carnets.first(where: { ZoneRange(parsing: $0.zones, in: table) == range && $0.rides == rides })
      else {
        let offered = table.carnets.map { "\($0.rides) rides \($0.zones)" }.joined(separator: ", ")
        throw ServiceError.invalid("carnet", "no carnet of \(rides) rides for \(range.name(in: table)); the fare table has \(offered)")
      }
      priced = (
        "Carnet of \(rides) rides, \(range.name(in: table))" as PersonText, carnet.price,
        zoneTicket(kind: .carnet, zones: range.name(in: table), rides: rides, table: table, now: now)
      )
    case .pass(let period, let startDate, let zones, let from, let to, let travelClass):
      guard passengers == 1 else { throw ServiceError.invalid("passengers", "a pass is personal: one passenger") }
      priced = try await pass(
        period: period,
        startDate: startDate,
        zones: zones,
        from: from,
        to: to,
        travelClass: travelClass,
        table: table,
        now: now
      )
    }
    var ticket = priced.ticket
    var price = priced.price
    var description = priced.description
    var routeOffer: AppliedRouteOffer?
    // A route offer is for a direct train on its route.
    if let journey = ticket.outbound, ticket.outboundConnections == nil,
      let offer = await routeOffers.bestOffer(
        from: journey.fromStationID,
        to: journey.toStationID,
        line: journey.line ?? "",
        at: journey.departure
      )
    {
      routeOffer = AppliedRouteOffer(offer: offer, fullUnitPrice: Money(amountMinor: price, currency: table.currency))
      price = AppliedRouteOffer.discounted(price, percent: offer.discountPercent)
      description = "\(description), \(offer.title) −\(offer.discountPercent)%" as PersonText
    }
    ticket.price = Money(amountMinor: price, currency: table.currency)
    // Kept in every language: the holder reads it in theirs, wherever they read it later.
    let words = TranslatedText(description)
    ticket.description = words.english
    ticket.descriptionTranslations = words.translations
    let quote = TicketQuote(
      id: Self.newID("qt"),
      userID: userID,
      lines: [
        TicketQuote.Line(description: words.english, unitPrice: ticket.price, quantity: passengers, translations: words.translations)
      ],
      passengers: passengers,
      expiresAt: now.addingTimeInterval(Self.quoteLifetime),
      createdAt: now,
      ticket: ticket,
      routeOffer: routeOffer
    )
    try await store.insertQuote(quote)
    return quote
  }

  private func zoneRange(_ text: String, table: FareTable) throws(ServiceError) -> ZoneRange {
    guard let range = ZoneRange(parsing: text, in: table) else {
      throw .invalid(
        "zones",
        "\"\(text)\" is not a zone range (e.g. \(table.zones[0])-\(table.zones[min(2, table.zones.count - 1)]))"
      )
    }
    return range
  }

  private func zoneTicket(kind: Ticket.Kind, zones: String, rides: Int, table: FareTable, now: Date) -> Ticket {
    Self.draft(
      kind: kind,
      zones: zones,
      rides: rides,
      rideMinutes: table.zoneRideMinutes,
      validFrom: now,
      validUntil: now.addingTimeInterval(TimeInterval(table.zoneTicketValidDays) * 86_400),
      now: now
    )
  }

  /// The shortest change between two trains a ticket sells.
  static let minimumChangeMinutes = 5
  /// The most trains one way of a ticket may take.
  static let maximumLegs = 4

  /// A station ticket for a way out and maybe a way back, each one train or several with
  /// changes between them, priced per way on the distance its trains travel.
  private func stationTicket(
    legs: [TicketLeg],
    returnLegs: [TicketLeg],
    travelClass: Ticket.TravelClass,
    table: FareTable,
    now: Date
  ) async throws -> (PersonText, Int64, Ticket) {
    let out = try await way(legs, list: "legs", now: now)
    var back: TicketWay?
    if !returnLegs.isEmpty {
      let way = try await way(returnLegs, list: "return_legs", now: now)
      let field = returnLegs[0].fields.run
      guard way.from.fromStationID == out.to.toStationID, way.to.toStationID == out.from.fromStationID else {
        throw ServiceError.invalid(field, "the way back must go from \(out.to.toStationName) to \(out.from.fromStationName)")
      }
      if way.from.departure < out.to.arrival {
        throw ServiceError.invalid(field, "the return run leaves before the outbound run arrives")
      }
      back = way
    }
    var price: Int64 = 0
    for way in [out, back].compactMap({ $0 }) {
      guard let band = table.band(forMetres: way.metres) else {
        throw ServiceError.invalid("station", "\((way.metres + 999) / 1000) km is beyond the fare table's distance bands")
      }
      price += travelClass == .first ? band.firstClass : band.secondClass
    }
    let km = (out.metres + 999) / 1000
    let via = out.legs.dropFirst().map(\.fromStationName).joined(separator: ", ")
    let route: PersonText =
      if via.isEmpty { "\(out.from.fromStationName) → \(out.to.toStationName)" } else {
        "\(out.from.fromStationName) → \(out.to.toStationName) via \(via)"
      }
    let way: PersonText = if back == nil { "one way" } else { "return" }
    let description: PersonText = "\(route), \(way), \(Self.classWords(travelClass)), \(km) km"
    let lastArrival = (back ?? out).to.arrival
    var ticket = Self.draft(
      kind: .station,
      zones: nil,
      rides: back == nil ? 1 : 2,
      rideMinutes: table.stationRideMinutes,
      validFrom: start(of: CalendarDate(iso: out.from.run.serviceDate)!),
      validUntil: lastArrival.addingTimeInterval(TimeInterval(table.stationRideMinutes * 60)),
      now: now
    )
    ticket.travelClass = travelClass
    ticket.outbound = out.from
    ticket.outboundConnections = out.legs.count > 1 ? Array(out.legs.dropFirst()) : nil
    ticket.returnJourney = back?.from
    ticket.returnConnections = back.flatMap { $0.legs.count > 1 ? Array($0.legs.dropFirst()) : nil }
    return (description, price, ticket)
  }

  /// One way of a station ticket: its trains in order and the distance they travel.
  private struct TicketWay {
    var legs: [Ticket.Journey]
    var metres: Int
    var from: Ticket.Journey { legs[0] }
    var to: Ticket.Journey { legs[legs.count - 1] }
  }

  /// The trains of one way, each leaving from where the one before arrives, with time to change.
  private func way(_ legs: [TicketLeg], list: String, now: Date) async throws -> TicketWay {
    if legs.isEmpty { throw ServiceError.invalid("station.\(list)", "a train is required") }
    if legs.count > Self.maximumLegs {
      throw ServiceError.invalid("station.\(list)", "at most \(Self.maximumLegs) trains one way")
    }
    var way = TicketWay(legs: [], metres: 0)
    for leg in legs {
      let (journey, metres) = try await journey(leg, now: now)
      if let before = way.legs.last {
        guard before.toStationID == journey.fromStationID else {
          throw ServiceError.invalid(
            leg.fields.from,
            "this train must leave from \(before.toStationName), where the train before it arrives"
          )
        }
        let change = journey.departure.timeIntervalSince(before.arrival)
        if change < 0 {
          throw ServiceError.invalid(leg.fields.run, "this train leaves \(journey.fromStationName) before the train before it arrives there")
        }
        if change < TimeInterval(Self.minimumChangeMinutes * 60) {
          throw ServiceError.invalid(
            leg.fields.run,
            "at least \(Self.minimumChangeMinutes) minutes are needed to change trains at \(journey.fromStationName)"
          )
        }
      }
      way.legs.append(journey)
      way.metres += metres
    }
    return way
  }

  /// A run's part from one station to a later one, with its length along the stops between.
  private func journey(_ leg: TicketLeg, now: Date) async throws -> (journey: Ticket.Journey, metres: Int) {
    let (reference, from, to, fields) = (leg.run, leg.fromStationID, leg.toStationID, leg.fields)
    var check = InputValidation()
    if reference.tripID.isEmpty { check.fail("\(fields.run).trip_id", "a trip id is required") }
    if CalendarDate(iso: reference.serviceDate) == nil { check.fail("\(fields.run).service_date", "a date YYYY-MM-DD is required") }
    if from.isEmpty { check.fail(fields.from, "a station id is required") }
    if to.isEmpty { check.fail(fields.to, "a station id is required") }
    if !from.isEmpty && from == to { check.fail(fields.to, "the destination is the departure station") }
    try check.finish()
    let run = try await timetable.run(reference)
    guard let board = run.stops.firstIndex(where: { $0.stationID == from }) else {
      throw ServiceError.invalid(fields.from, "\(reference) does not call at \(from)")
    }
    guard let alight = run.stops[(board + 1)...].firstIndex(where: { $0.stationID == to }) else {
      throw ServiceError.invalid(fields.to, "\(reference) does not call at \(to) after \(from)")
    }
    let boarding = run.stops[board]
    let alighting = run.stops[alight]
    if run.cancelled || boarding.cancelled || alighting.cancelled {
      throw ServiceError.failedPrecondition("\(reference) is cancelled between \(boarding.stationName) and \(alighting.stationName)")
    }
    guard let departure = boarding.scheduledDeparture, let arrival = alighting.scheduledArrival ?? alighting.scheduledDeparture
    else { throw ServiceError.invalid(fields.run, "\(reference) has no times at these stops") }
    if (boarding.expectedDeparture ?? departure) <= now {
      throw ServiceError.failedPrecondition("\(reference) has already left \(boarding.stationName)")
    }
    var metres = 0.0
    for index in board ..< alight {
      metres += Self.metres(run.stops[index], run.stops[index + 1])
    }
    let journey = Ticket.Journey(
      run: reference,
      trainNumber: run.trainNumber,
      fromStationID: from,
      fromStationName: boarding.stationName,
      toStationID: to,
      toStationName: alighting.stationName,
      departure: departure,
      arrival: arrival,
      line: run.line
    )
    return (journey, Int(metres.rounded(.up)))
  }

  private func pass(
    period: Ticket.PassPeriod,
    startDate rawStart: String,
    zones: String,
    from: String,
    to: String,
    travelClass: Ticket.TravelClass,
    table: FareTable,
    now: Date
  ) async throws -> (PersonText, Int64, Ticket) {
    let today = CalendarDate(now, in: zone)
    let startDate: CalendarDate
    if rawStart.isEmpty {
      startDate = today
    } else if let parsed = CalendarDate(iso: rawStart), parsed >= today, today.days(until: parsed) <= 60 {
      startDate = parsed
    } else {
      throw ServiceError.invalid("pass.start_date", "a date YYYY-MM-DD from today to 60 days ahead")
    }
    let end = startDate.adding(months: period == .monthly ? 1 : 12)
    let price: Int64
    let description: PersonText
    var zoneName: String?
    if !zones.isEmpty {
      let range = try zoneRange(zones, table: table)
      let fare = try table.zoneFare(range)
      price = period == .monthly ? fare.monthlyPass : fare.yearlyPass
      zoneName = range.name(in: table)
      description = Self.passWords(period, PersonText(verbatim: range.name(in: table)), from: startDate)
    } else {
      guard !from.isEmpty, !to.isEmpty, from != to else {
        throw ServiceError.invalid("pass", "either zones or two different stations (from_station_id, to_station_id)")
      }
      let a = try await timetable.station(id: from)
      let b = try await timetable.station(id: to)
      let metres = Int(
        GeoPoint(latitude: a.latitude, longitude: a.longitude).distance(to: GeoPoint(latitude: b.latitude, longitude: b.longitude))
          .rounded(.up)
      )
      guard let band = table.band(forMetres: metres) else {
        throw ServiceError.invalid("pass", "\((metres + 999) / 1000) km is beyond the fare table's distance bands")
      }
      let basePrice = period == .monthly ? band.monthlyPass : band.yearlyPass
      // First class costs what the band's single fares say it costs more.
      price = travelClass == .first ? basePrice * band.firstClass / max(1, band.secondClass) : basePrice
      let stations: PersonText = "\(a.name) ↔ \(b.name), \(Self.classWords(travelClass)),"
      description = Self.passWords(period, stations, from: startDate)
    }
    var ticket = Self.draft(
      kind: .pass,
      zones: zoneName,
      rides: 0,
      rideMinutes: 0,
      validFrom: start(of: startDate),
      validUntil: start(of: end),
      now: now
    )
    ticket.passPeriod = period
    if zoneName == nil { ticket.travelClass = travelClass }
    return (description, price, ticket)
  }

  static func draft(
    kind: Ticket.Kind,
    zones: String?,
    rides: Int,
    rideMinutes: Int,
    validFrom: Date,
    validUntil: Date,
    now: Date
  ) -> Ticket {
    Ticket(
      id: "",
      purchaseID: "",
      holderID: "",
      kind: kind,
      description: "",
      price: Money(amountMinor: 0, currency: "EUR"),
      travelClass: nil,
      outbound: nil,
      returnJourney: nil,
      zones: zones,
      ridesTotal: rides,
      ridesUsed: 0,
      rideMinutes: rideMinutes,
      validFrom: validFrom,
      validUntil: validUntil,
      activeUntil: nil,
      passPeriod: nil,
      refundedAt: nil,
      createdAt: now,
      validationCode: ""
    )
  }

  static func passWords(_ period: Ticket.PassPeriod, _ what: PersonText, from start: CalendarDate) -> PersonText {
    switch period {
    case .monthly: return "Monthly pass \(what) from \(start)"
    case .yearly: return "Yearly pass \(what) from \(start)"
    }
  }

  static func classWords(_ travelClass: Ticket.TravelClass) -> PersonText {
    switch travelClass {
    case .first: "1st class"
    case .second: "2nd class"
    }
  }

  /// The great-circle distance between two stops.
  static func metres(_ a: TimetableRun.Stop, _ b: TimetableRun.Stop) -> Double {
    GeoPoint(latitude: a.latitude, longitude: a.longitude).distance(to: GeoPoint(latitude: b.latitude, longitude: b.longitude))
  }
}
