import BinarioProto
import Foundation
import SwiftProtobuf

/// A traveller as the five apps know them: signed in with a verified phone and a card, following
/// a train, owning a sensor board, a subscription and a trip.
public struct Traveller: Sendable {
  let index: Int
  let person: Person
  let boardToken: String
  let boardID: String
  let subscriptionID: String
  let subscription: Binario_Ticketing_V1_SubscriptionDetails
  let itineraryID: String
}

/// A taxi driver signed in, their taxi in a queue of the centre.
public struct Driver: Sendable {
  let person: Person
  let taxiCode: String
}

/// Everyone the generator plays, made through the door before the load starts: new accounts each
/// run (their emails carry the run's tag), so a run never depends on what an earlier one left.
public struct Cast: Sendable {
  public let admin: Person
  public let travellers: [Traveller]
  public let drivers: [Driver]
  /// Runs leaving Milano Centrale at least 20 minutes after the cast was made and not cancelled,
  /// which travellers follow and the admin delays.
  let runs: [Binario_Scheduling_V1_RunRef]
  /// Who of the travellers has a taxi ride open: what dispatch knows of them, kept as long as they
  /// are (across runs and doors).
  let taxis: TaxiDesk

  static let password = "load-generator-password-1"
  /// Stations of the demo network whose boards and searches the travellers open.
  static let stations = ["MI_CENTRALE", "MI_GARIBALDI", "MI_CADORNA", "MI_ROGOREDO", "BERGAMO", "MONZA", "COMO_SG", "PAVIA"]
  /// Around the Duomo, where the demo's taxis wait, its deals are and boards measure.
  static let centre = (latitude: 45.46419, longitude: 9.18960)

  /// Makes `travellers` travellers and `drivers` drivers through `door`, `parallel` at a time;
  /// `progress` hears how many are ready.
  public static func make(
    through door: any Door,
    admin email: String,
    password adminPassword: String,
    travellers count: Int,
    drivers driverCount: Int,
    parallel: Int = 4,
    progress: @escaping @Sendable (String) -> Void = { _ in }
  ) async throws -> Cast {
    let tag = String((0 ..< 6).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
    let setup = Setup(door: door)
    let adminTokens = try await setup.login(email, adminPassword)
    let admin = Person(email: email, password: adminPassword, tokens: adminTokens)
    let runs = try await setup.runsLeavingLater(as: admin)

    let travellers = try await inParallel(count, width: parallel) { index in
      try await setup.traveller(index, tag: tag, admin: admin, follows: runs[index % runs.count])
    }
    progress("\(travellers.count) travellers ready")
    let drivers = try await inParallel(driverCount, width: parallel) { index in
      try await setup.driver(index, tag: tag, admin: admin)
    }
    progress("\(drivers.count) drivers ready")
    return Cast(admin: admin, travellers: travellers, drivers: drivers, runs: runs, taxis: TaxiDesk(travellers: travellers.count))
  }

  private static func inParallel<Made: Sendable>(
    _ count: Int,
    width: Int,
    _ make: @escaping @Sendable (Int) async throws -> Made
  ) async throws -> [Made] {
    try await withThrowingTaskGroup(of: (Int, Made).self) { group in
      var made: [Int: Made] = [:]
      var next = 0
      while next < min(width, count) {
        let index = next
        group.addTask { (index, try await make(index)) }
        next += 1
      }
      while let (index, one) = try await group.next() {
        made[index] = one
        if next < count {
          let index = next
          group.addTask { (index, try await make(index)) }
          next += 1
        }
      }
      return (0 ..< count).map { made[$0]! }
    }
  }
}

/// The calls that make the cast, each retried while the gateway asks to slow down (its per-address
/// rate limit meets every sign-up from one generator) or a process is briefly away.
private struct Setup: Sendable {
  let door: any Door

  func patiently<Answer: Sendable>(_ call: () async throws -> Answer) async throws -> Answer {
    var attempt = 0
    while true {
      do {
        return try await call()
      } catch let failure as CallFailure where ["RESOURCE_EXHAUSTED", "UNAVAILABLE"].contains(failure.code) && attempt < 60 {
        attempt += 1
        try await Task.sleep(for: .milliseconds(500))
      }
    }
  }

  func unary<Method: CallableMethod>(_ method: Method.Type, _ request: Method.Input, as caller: Caller) async throws -> Method.Output {
    try await patiently { try await door.call(method, request, as: caller) }
  }

  func unary<Method: CallableMethod>(_ method: Method.Type, _ request: Method.Input, as person: Person) async throws -> Method.Output {
    try await patiently { try await person.call(through: door) { try await door.call(method, request, as: $0) } }
  }

  func login(_ email: String, _ password: String) async throws -> Binario_Identity_V1_TokenPair {
    try await unary(
      Binario_Identity_V1_Identity.Method.Login.self,
      .with {
        $0.email = email
        $0.password = password
      },
      as: .anonymous
    ).tokens
  }

  func runsLeavingLater(as admin: Person) async throws -> [Binario_Scheduling_V1_RunRef] {
    let board = try await unary(
      Binario_Scheduling_V1_Scheduling.Method.GetDeparturesBoard.self,
      Binario_Scheduling_V1_GetDeparturesBoardRequest.with {
        $0.stationID = "MI_CENTRALE"
        $0.limit = 40
      },
      as: admin
    )
    let later = Date().addingTimeInterval(20 * 60)
    var runs: [Binario_Scheduling_V1_RunRef] = []
    // Not a cancelled run: the control room could not delay it.
    for departure in board.departures
    where !departure.run.cancelled && (departure.run.stops.first.map { $0.scheduledDeparture.date > later } ?? false) {
      if !runs.contains(where: { $0.tripID == departure.run.run.tripID }) { runs.append(departure.run.run) }
      if runs.count == 4 { break }
    }
    guard !runs.isEmpty else {
      throw CallFailure(code: "FAILED_PRECONDITION", message: "Milano Centrale's board has no run leaving 20 minutes from now that is not cancelled")
    }
    return runs
  }

  /// The newest six-digit code sent to `recipient` on `channel`, read from the outbox by the admin.
  func code(sentTo recipient: String, on channel: Binario_Identity_V1_OutboxChannel, admin: Person) async throws -> String {
    for _ in 0 ..< 50 {
      let outbox = try await unary(
        Binario_Identity_V1_Identity.Method.ListOutboxMessages.self,
        Binario_Identity_V1_ListOutboxMessagesRequest.with {
          $0.recipient = recipient
          $0.limit = 10
        },
        as: admin
      )
      for message in outbox.messages where message.channel == channel {
        if let code = message.body.split(whereSeparator: { !$0.isNumber }).first(where: { $0.count == 6 }) { return String(code) }
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw CallFailure(code: "NOT_FOUND", message: "no code for \(recipient) in the outbox")
  }

  func traveller(_ index: Int, tag: String, admin: Person, follows run: Binario_Scheduling_V1_RunRef) async throws -> Traveller {
    let email = "load-\(tag)-\(index)@example.com"
    let phone = "+39333\(String(format: "%07d", index))"
    _ = try await unary(
      Binario_Identity_V1_Identity.Method.Register.self,
      Binario_Identity_V1_RegisterRequest.with {
        $0.email = email
        $0.password = Cast.password
        $0.firstName = "Traveller\(index)"
        $0.lastName = "Load"
        $0.phone = phone
        $0.birthDate = "1990-12-10"
      },
      as: .anonymous
    )
    let emailCode = try await code(sentTo: email, on: .email, admin: admin)
    _ = try await unary(
      Binario_Identity_V1_Identity.Method.ConfirmEmail.self,
      Binario_Identity_V1_ConfirmEmailRequest.with {
        $0.email = email
        $0.code = emailCode
      },
      as: .anonymous
    )
    let person = Person(email: email, password: Cast.password, tokens: try await login(email, Cast.password))
    let phoneCode = try await code(sentTo: phone, on: .sms, admin: admin)
    _ = try await unary(Binario_Identity_V1_Identity.Method.VerifyPhone.self, .with { $0.code = phoneCode }, as: person)
    _ = try await unary(
      Binario_Identity_V1_Identity.Method.AddPaymentMethod.self,
      Binario_Identity_V1_AddPaymentMethodRequest.with {
        $0.cardNumber = "4242424242424242"
        $0.expiryMonth = 12
        $0.expiryYear = 2035
        $0.securityCode = "123"
      },
      as: person
    )
    _ = try await unary(Binario_Scheduling_V1_Scheduling.Method.FollowRun.self, .with { $0.run = run }, as: person)
    let board = try await unary(
      Binario_Telemetry_V1_Telemetry.Method.RegisterDevice.self,
      Binario_Telemetry_V1_RegisterDeviceRequest.with { $0.name = "board \(index)" },
      as: person
    )
    let details = Binario_Ticketing_V1_SubscriptionDetails.with {
      $0.serviceName = ["Netflix", "Spotify", "Disney+", "iCloud+"][index % 4]
      $0.startDate = LoadDates.romeDay(daysFromToday: -10)
      $0.period = .monthly
      $0.price = .with {
        $0.amountMinor = 999
        $0.currency = "EUR"
      }
      $0.automaticRenewal = true
      $0.category = .moviesAndTv
    }
    let subscription = try await unary(
      Binario_Ticketing_V1_Subscriptions.Method.AddSubscription.self,
      Binario_Ticketing_V1_AddSubscriptionRequest.with { $0.details = details },
      as: person
    )
    let trip = try await unary(
      Binario_Scheduling_V1_Itineraries.Method.CreateItinerary.self,
      Binario_Scheduling_V1_CreateItineraryRequest.with {
        $0.name = "Weekend \(index)"
        $0.destination = "Como"
        $0.startDate = LoadDates.romeDay(daysFromToday: 7)
        $0.endDate = LoadDates.romeDay(daysFromToday: 9)
      },
      as: person
    )
    return Traveller(
      index: index,
      person: person,
      boardToken: board.token,
      boardID: board.device.id,
      subscriptionID: subscription.subscription.subscriptionID,
      subscription: details,
      itineraryID: trip.itinerary.itineraryID
    )
  }

  func driver(_ index: Int, tag: String, admin: Person) async throws -> Driver {
    let email = "load-\(tag)-driver-\(index)@drivers.test"
    let code = "L\(tag.prefix(3).uppercased())-\(index)"
    let profile = try await unary(
      Binario_Identity_V1_Identity.Method.CreateDriver.self,
      Binario_Identity_V1_CreateDriverRequest.with {
        $0.email = email
        $0.password = Cast.password
        $0.firstName = "Driver"
        $0.lastName = code
      },
      as: admin
    ).profile
    _ = try await unary(
      Binario_Dispatch_V1_Dispatch.Method.CreateTaxi.self,
      Binario_Dispatch_V1_CreateTaxiRequest.with {
        $0.taxi = .with {
          $0.code = code
          $0.plate = "P\(code)"
          $0.driverUserID = profile.userID
        }
      },
      as: admin
    )
    let person = Person(email: email, password: Cast.password, tokens: try await login(email, Cast.password))
    _ = try await unary(
      Binario_Dispatch_V1_Dispatch.Method.ReportPosition.self,
      Binario_Dispatch_V1_ReportPositionRequest.with {
        $0.position = .with {
          $0.latitude = Cast.centre.latitude + Double(index % 5) * 0.002
          $0.longitude = Cast.centre.longitude + Double(index % 3) * 0.002
        }
      },
      as: person
    )
    _ = try await unary(Binario_Dispatch_V1_Dispatch.Method.SetAvailability.self, .with { $0.available = true }, as: person)
    return Driver(person: person, taxiCode: code)
  }
}

/// Calendar days in Europe/Rome, as the apps' forms send them.
enum LoadDates {
  static func romeDay(daysFromToday days: Int) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Rome")!
    let day = calendar.date(byAdding: .day, value: days, to: Date())!
    let parts = calendar.dateComponents([.year, .month, .day], from: day)
    return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
  }
}
