import AsyncHTTPClient
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import Synchronization
import Testing

/// Every service restarted in turn under load, first with SIGTERM, then with `kill -9`, while
/// clients read from all six through the gateway and add subscriptions with idempotency keys:
/// no client sees an error (the gateway holds calls while a service is away and sends again the
/// ones that are safe), a notification stream open throughout never ends (the gateway resumes it
/// after its last cursor), and every subscription acknowledged is there once, afterwards. A suite
/// start of its own: it restarts every service, which no shared suite could go on with.
@Suite("Services restarted under load", .serialized, .timeLimit(.minutes(4)))
struct RestartTests {
  typealias Scheduling = Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>

  /// What the clients saw in one round of restarts.
  final class Outcomes: Sendable {
    private let state = Mutex<(completed: Int, failures: [String], slowest: Duration, stopped: Bool)>((0, [], .zero, false))

    func record(_ name: String, took: Duration, _ error: (any Error)?) {
      self.state.withLock { state in
        state.completed += 1
        state.slowest = max(state.slowest, took)
        if let error { state.failures.append("\(name): \(error)") }
      }
    }

    var completed: Int { self.state.withLock { $0.completed } }
    var failures: [String] { self.state.withLock { $0.failures } }
    var slowest: Duration { self.state.withLock { $0.slowest } }
    /// The clients finish the call they are making and make no more (not cancelled: a write
    /// cancelled part way may still be done without its answer being seen).
    func stop() { self.state.withLock { $0.stopped = true } }
    var stopped: Bool { self.state.withLock { $0.stopped } }
  }

  /// The subscriptions whose adding was acknowledged.
  final class Acknowledged: Sendable {
    private let ids = Mutex<[String]>([])
    func append(_ id: String) { self.ids.withLock { $0.append(id) } }
    var all: [String] { self.ids.withLock { $0 } }
  }

  static let services = RunningSuite.processNames.filter { $0 != "gateway" }

  @Test func restartsOfEveryServiceAreInvisibleToClients() async throws {
    try await RunningSuite.with { suite in
      for service in Self.services { try await suite.waitUntilTheGatewaySeesServing(service) }
      try await suite.withGatewayConnection { client in
        let identity = Binario_Identity_V1_Identity.Client(wrapping: client)
        let ada = try await identity.signUp(email: "ada@example.com", admin: try await identity.signInAdmin())
        let subscriptions = Binario_Ticketing_V1_Subscriptions.Client(wrapping: client)
        // A read that crosses services: scheduling asks identity for the members' names.
        let trip = try await Binario_Scheduling_V1_Itineraries.Client(wrapping: client).createItinerary(
          .with {
            $0.name = "Lake Como"
            $0.destination = "Bellagio"
            $0.startDate = romeDate(daysFromToday: 30)
            $0.endDate = romeDate(daysFromToday: 31)
            $0.idempotencyKey = UUID().uuidString
          },
          metadata: bearer(ada)
        ).itinerary.itineraryID
        let acknowledged = Acknowledged()

        // Ada's notification stream stays open through every restart: the gateway resumes it
        // after its last cursor when scheduling goes.
        let notifications = Binario_Scheduling_V1_Notifications.Client(wrapping: client)
        let stream = Task {
          try await notifications.watchNotifications(.init(), metadata: bearer(ada)) { response in
            for try await _ in response.messages {}
          }
        }

        for stop in RunningSuite.Stop.allCases {
          let outcomes = Outcomes()
          let load = Task {
            await withTaskGroup(of: Void.self) { group in
              for reader in 0 ..< 2 {
                group.addTask { await Self.read(through: client, as: ada, trip: trip, from: reader * 3, until: outcomes) }
              }
              group.addTask {
                await Self.addSubscriptions(subscriptions, as: ada, acknowledged: acknowledged, outcomes: outcomes)
              }
            }
          }
          var times: [String] = []
          for service in Self.services {
            // Some calls between two restarts, so each one meets calls in flight.
            let before = outcomes.completed
            _ = try await eventually("calls answered before \(service)'s restart") { outcomes.completed >= before + 12 ? true : nil }
            let took = try await suite.restart(service, stop: stop)
            times.append(
              "\(service) \(took.stopping.formatted(.units(allowed: [.milliseconds]))) + \(took.starting.formatted(.units(allowed: [.milliseconds])))"
            )
          }
          let before = outcomes.completed
          _ = try await eventually("calls answered after the last restart") { outcomes.completed >= before + 12 ? true : nil }
          outcomes.stop()
          await load.value
          print(
            "restarts (\(stop.rawValue)): \(outcomes.completed) calls, \(outcomes.failures.count) failed, slowest \(outcomes.slowest); stopping + starting: \(times.joined(separator: ", "))"
          )
          print("gateway, so far: \(try await Self.retries(suite))")
          #expect(outcomes.failures.isEmpty, "\(stop.rawValue): \(outcomes.failures)")
        }

        stream.cancel()
        let streamEnd = await stream.result
        if case .failure(let error) = streamEnd {
          #expect(error is CancellationError || (error as? RPCError)?.code == .cancelled, "the notification stream ended: \(error)")
        } else {
          Issue.record("the notification stream ended while scheduling restarted")
        }

        // Every subscription acknowledged is there, once: a write sent again by the gateway
        // after its service was killed under it was done once.
        let mine = try await subscriptions.listSubscriptions(.init(), metadata: bearer(ada)).mine.map(\.subscriptionID)
        let added = acknowledged.all
        #expect(mine.count == added.count, "listed \(mine.count), acknowledged \(added.count)")
        #expect(Set(added).subtracting(mine).isEmpty, "acknowledged, not listed: \(Set(added).subtracting(mine))")
        #expect(Set(mine).subtracting(added).isEmpty, "listed, never acknowledged: \(Set(mine).subtracting(added))")
      }
    }
  }

  /// The gateway's `gateway_call_retries_total` lines: what it sent again, by upstream and why.
  static func retries(_ suite: RunningSuite) async throws -> String {
    let port = try #require(suite.metricsPorts["gateway"])
    let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics"), timeout: .seconds(5))
    let text = String(buffer: try await response.body.collect(upTo: 16 * 1024 * 1024))
    let lines = text.split(separator: "\n").filter { $0.hasPrefix("gateway_call_retries_total{") }
    return lines.isEmpty ? "no call sent again" : lines.joined(separator: "; ")
  }

  static var options: CallOptions {
    var options = CallOptions.defaults
    options.timeout = .seconds(20)
    return options
  }

  /// One read from each service in turn, until cancelled.
  static func read(
    through client: GRPCClient<BinarioClientTransport>,
    as person: Binario_Identity_V1_TokenPair,
    trip: String,
    from start: Int,
    until outcomes: Outcomes
  ) async {
    let reads: [(String, @Sendable () async throws -> Void)] = [
      (
        "identity GetMe",
        { _ = try await Binario_Identity_V1_Identity.Client(wrapping: client).getMe(.init(), metadata: bearer(person), options: options) }
      ),
      ("scheduling ListStations", { _ = try await Scheduling(wrapping: client).listStations(.init(), options: options) }),
      (
        "scheduling GetItinerary",
        {
          _ = try await Binario_Scheduling_V1_Itineraries.Client(wrapping: client).getItinerary(
            .with { $0.itineraryID = trip },
            metadata: bearer(person),
            options: options
          )
        }
      ),
      ("ticketing GetFareTable", { _ = try await Binario_Ticketing_V1_Tickets.Client(wrapping: client).getFareTable(.init(), options: options) }),
      (
        "geo-offers ListNearestStations",
        {
          _ = try await Binario_GeoOffers_V1_GeoOffers.Client(wrapping: client).listNearestStations(
            .with {
              $0.latitude = 45.4862
              $0.longitude = 9.2050
            },
            options: options
          )
        }
      ),
      ("dispatch ListZones", { _ = try await Binario_Dispatch_V1_Dispatch.Client(wrapping: client).listZones(.init(), options: options) }),
      (
        "telemetry ListReferenceSensors",
        {
          _ = try await Binario_Telemetry_V1_Telemetry.Client(wrapping: client).listReferenceSensors(
            .with {
              $0.latitude = 45.4642
              $0.longitude = 9.19
            },
            options: options
          )
        }
      ),
    ]
    var next = start
    while !outcomes.stopped {
      let (name, read) = reads[next % reads.count]
      next += 1
      let began = ContinuousClock.now
      do {
        try await read()
        outcomes.record(name, took: ContinuousClock.now - began, nil)
      } catch {
        outcomes.record(name, took: ContinuousClock.now - began, error)
      }
    }
  }

  /// Subscriptions added one after another, each with its own idempotency key.
  static func addSubscriptions(
    _ subscriptions: Binario_Ticketing_V1_Subscriptions.Client<BinarioClientTransport>,
    as person: Binario_Identity_V1_TokenPair,
    acknowledged: Acknowledged,
    outcomes: Outcomes
  ) async {
    while !outcomes.stopped {
      let began = ContinuousClock.now
      do {
        let added = try await subscriptions.addSubscription(
          .with {
            $0.details = .with {
              $0.serviceName = "Spotify"
              $0.planType = "individual"
              $0.startDate = romeDate(daysFromToday: -3)
              $0.period = .monthly
              $0.price = .with {
                $0.amountMinor = 1099
                $0.currency = "EUR"
              }
              $0.category = .music
            }
            $0.idempotencyKey = UUID().uuidString
          },
          metadata: bearer(person),
          options: options
        )
        acknowledged.append(added.subscription.subscriptionID)
        outcomes.record("ticketing AddSubscription", took: ContinuousClock.now - began, nil)
      } catch {
        outcomes.record("ticketing AddSubscription", took: ContinuousClock.now - began, error)
      }
    }
  }
}
