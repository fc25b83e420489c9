import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore

/// The gateway's generated clients, over one connection.
struct Clients: Sendable {
  let identity: IdentityClient
  let tickets: Binario_Ticketing_V1_Tickets.Client<BinarioClientTransport>
  let subscriptions: Binario_Ticketing_V1_Subscriptions.Client<BinarioClientTransport>
  let scheduling: Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>
  let notifications: Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>
  let geoOffers: Binario_GeoOffers_V1_GeoOffers.Client<BinarioClientTransport>
  let dispatch: Binario_Dispatch_V1_Dispatch.Client<BinarioClientTransport>
  let telemetry: Binario_Telemetry_V1_Telemetry.Client<BinarioClientTransport>

  init(_ connection: GRPCClient<BinarioClientTransport>) {
    identity = IdentityClient(wrapping: connection)
    tickets = .init(wrapping: connection)
    subscriptions = .init(wrapping: connection)
    scheduling = .init(wrapping: connection)
    notifications = .init(wrapping: connection)
    geoOffers = .init(wrapping: connection)
    dispatch = .init(wrapping: connection)
    telemetry = .init(wrapping: connection)
  }
}

/// A passenger and what they own before the chaos starts: a board registered with telemetry
/// and a subscription to edit.
struct Passenger: Sendable {
  let index: Int
  let person: Person
  let deviceID: String
  let deviceToken: String
  let subscriptionID: String
  let subscription: Binario_Ticketing_V1_SubscriptionDetails
}

/// Everyone taking part, made through the gateway before any process is killed: the admin,
/// passengers ready to buy and ride (phone verified, card on file) who follow two trains, and
/// drivers whose taxis wait in the centre's queue.
struct Cast: Sendable {
  static let password = "a-good-password-1"
  static let duomo = (latitude: 45.46419, longitude: 9.18960)
  static let driverPlaces = [(45.46419, 9.18960), (45.47190, 9.18790), (45.46050, 9.19430), (45.46680, 9.18120)]

  let admin: Person
  let passengers: [Passenger]
  let drivers: [Person]
  /// Two runs from Milano Centrale leaving at least 20 minutes from now, which every passenger follows.
  let runs: [Binario_Scheduling_V1_RunRef]

  static func make(_ clients: Clients, passengers count: Int, drivers driverCount: Int) async throws -> Cast {
    let identity = clients.identity
    let adminTokens = try await identity.signInAdmin()
    let admin = Person(email: RunningSuite.adminEmail, password: RunningSuite.adminPassword, tokens: adminTokens, identity: identity)

    let board = try await clients.scheduling.getDeparturesBoard(
      .with {
        $0.stationID = "MI_CENTRALE"
        $0.limit = 40
      }
    )
    var runs: [Binario_Scheduling_V1_RunRef] = []
    for departure in board.departures where departure.run.stops[0].scheduledDeparture.date > Date().addingTimeInterval(20 * 60) {
      if !runs.contains(where: { $0.tripID == departure.run.run.tripID }) { runs.append(departure.run.run) }
      if runs.count == 2 { break }
    }
    guard runs.count == 2 else { throw RPCError(code: .failedPrecondition, message: "the demo board has no two runs leaving 20 minutes from now") }

    var passengers: [Passenger] = []
    for index in 0 ..< count {
      let email = "chaos-passenger-\(index)@example.com"
      let tokens = try await identity.signUp(email: email, password: password, firstName: "Passenger\(index)", admin: adminTokens)
      let code = try await identity.phoneCode(for: "+393331234567", admin: adminTokens)
      _ = try await identity.verifyPhone(.with { $0.code = code }, metadata: bearer(tokens))
      try await identity.addCard(to: tokens)
      for run in runs { _ = try await clients.scheduling.followRun(.with { $0.run = run }, metadata: bearer(tokens)) }
      let device = try await clients.telemetry.registerDevice(.with { $0.name = "board \(index)" }, metadata: bearer(tokens))
      let details = Binario_Ticketing_V1_SubscriptionDetails.with {
        $0.serviceName = "Netflix"
        $0.planType = "family"
        $0.startDate = romeDate(daysFromToday: -10)
        $0.period = .monthly
        $0.price = .with {
          $0.amountMinor = 1000
          $0.currency = "EUR"
        }
        $0.automaticRenewal = true
        $0.category = .moviesAndTv
      }
      let subscription = try await clients.subscriptions.addSubscription(.with { $0.details = details }, metadata: bearer(tokens))
      passengers.append(
        Passenger(
          index: index,
          person: Person(email: email, password: password, tokens: tokens, identity: identity),
          deviceID: device.device.id,
          deviceToken: device.token,
          subscriptionID: subscription.subscription.subscriptionID,
          subscription: details
        )
      )
    }

    var drivers: [Person] = []
    for index in 0 ..< driverCount {
      let code = "CH-\(index)"
      let email = "ch-\(index)@drivers.test"
      let profile = try await identity.createDriver(
        .with {
          $0.email = email
          $0.password = password
          $0.firstName = "Driver"
          $0.lastName = code
        },
        metadata: bearer(adminTokens)
      ).profile
      _ = try await clients.dispatch.createTaxi(
        .with {
          $0.taxi = .with {
            $0.code = code
            $0.plate = "P\(code)"
            $0.driverUserID = profile.userID
          }
        },
        metadata: bearer(adminTokens)
      )
      let tokens = try await identity.login(
        .with {
          $0.email = email
          $0.password = password
        }
      ).tokens
      let place = driverPlaces[index % driverPlaces.count]
      _ = try await clients.dispatch.reportPosition(
        .with {
          $0.position = .with {
            $0.latitude = place.0
            $0.longitude = place.1
          }
        },
        metadata: bearer(tokens)
      )
      _ = try await clients.dispatch.setAvailability(.with { $0.available = true }, metadata: bearer(tokens))
      drivers.append(Person(email: email, password: password, tokens: tokens, identity: identity))
    }
    return Cast(admin: admin, passengers: passengers, drivers: drivers, runs: runs)
  }

  /// Signs everyone in again.
  func signInAgain() async throws {
    try await admin.signIn()
    for passenger in passengers { try await passenger.person.signIn() }
    for driver in drivers { try await driver.signIn() }
  }
}
