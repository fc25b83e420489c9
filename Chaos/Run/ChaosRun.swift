import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore

/// A chaos run: the whole suite under a steady mixed load through the gateway (ticket
/// purchases, train delays followed on notification streams, location reports, taxi requests
/// and accepts, sensor readings, subscription changes, accounts deleted, friendships ended and a
/// run renamed, which travel as integration events) while ``ProcessKiller`` kills a random
/// process every few seconds and restarts it. Then, with every process up, each load checks
/// that what the suite acknowledged is there exactly once; the report gives the counts and
/// every broken promise.
public struct ChaosRun: Sendable {
  public var configuration: ChaosConfiguration

  public init(_ configuration: ChaosConfiguration) {
    self.configuration = configuration
  }

  /// Starts the suite in a temporary folder, runs, checks, and stops it. `log` hears of each
  /// kill and phase as it happens.
  public func run(log: @escaping @Sendable (String) -> Void = { _ in }) async throws -> ChaosReport {
    // Offers expire in 3 seconds, so a ride offered to a taxi whose driver's call was lost
    // moves on quickly.
    try await RunningSuite.with(extraFlags: .init(dispatch: ["--offer-timeout", "3"])) { suite in
      try await self.run(on: suite, log: log)
    }
  }

  private func run(on suite: RunningSuite, log: @escaping @Sendable (String) -> Void) async throws -> ChaosReport {
    try await waitUntilEveryServiceIsServing(suite)
    log(
      "listening: gateway \(suite.gatewayPort), identity \(suite.identityPort), scheduling \(suite.schedulingPort), "
        + "ticketing \(suite.ticketingPort), geo-offers \(suite.geoOffersPort), dispatch \(suite.dispatchPort), telemetry \(suite.telemetryPort)"
    )
    return try await suite.withGatewayConnection { connection in
      let clients = Clients(connection)
      log("making \(configuration.passengers) passengers and \(configuration.drivers) drivers")
      let cast = try await Cast.make(clients, passengers: configuration.passengers, drivers: configuration.drivers)
      let started = ContinuousClock.now
      let stop = started + configuration.duration
      let acknowledgement = Acknowledgement(
        settleBy: stop + configuration.settleLimit,
        failures: FailureTally(),
        impatience: configuration.impatience
      )
      let data = { (service: String, file: String) in suite.folder.appendingPathComponent("data/\(service)/\(file)") }
      let steadyLoads: [any ChaosLoad] = [
        TicketPurchases(
          clients: clients,
          passengers: cast.passengers,
          acknowledgement: acknowledgement,
          database: data("ticketing", "ticketing.sqlite")
        ),
        TrainDelays(clients: clients, admin: cast.admin, runs: cast.runs, acknowledgement: acknowledgement),
        LocationReports(clients: clients, passengers: cast.passengers, acknowledgement: acknowledgement),
        TaxiRides(
          clients: clients,
          passengers: cast.passengers,
          drivers: cast.drivers,
          acknowledgement: acknowledgement,
          database: data("dispatch", "dispatch.sqlite")
        ),
        SensorReadings(clients: clients, passengers: cast.passengers, acknowledgement: acknowledgement),
        SubscriptionChanges(clients: clients, passengers: cast.passengers, acknowledgement: acknowledgement),
      ]
      // People who leave, friends who part and a run renamed: integration events under kills.
      log("preparing \(configuration.passengers) leavers and partings")
      let accountEvents = try await AccountEvents.prepare(
        clients,
        cast: cast,
        people: configuration.passengers,
        acknowledgement: acknowledgement,
        folder: suite.folder
      )
      let loads = steadyLoads + [accountEvents]
      let followers = NotificationFollowers(clients: clients, passengers: cast.passengers)

      log("load and kills for \(configuration.duration)")
      return try await withThrowingTaskGroup(of: Void.self) { following in
        following.addTask { await followers.follow() }
        let kills = try await withThrowingTaskGroup(of: [String: Int].self) { group in
          for load in loads {
            group.addTask {
              try await load.run(until: stop)
              log("\(load.name): settled")
              return [:]
            }
          }
          group.addTask { try await ProcessKiller(suite: suite, configuration: configuration, log: log).run(until: stop) }
          return try await group.reduce(into: [:]) { $0.merge($1, uniquingKeysWith: +) }
        }
        log("checking")
        try await waitUntilEveryServiceIsServing(suite)
        // Fresh tokens: a long run's last ones may expire while the checks read.
        try await cast.signInAgain()
        var sections: [ChaosReport.Section] = []
        for load in loads { sections.append(try await load.check()) }
        sections.append(try await followers.check(settleBy: acknowledgement.settleBy))
        following.cancelAll()
        return ChaosReport(
          duration: configuration.duration,
          gatewayAddress: "127.0.0.1:\(suite.gatewayPort)",
          kills: kills,
          retriedFailures: acknowledgement.failures.snapshot,
          sections: sections
        )
      }
    }
  }

  private func waitUntilEveryServiceIsServing(_ suite: RunningSuite) async throws {
    for service in RunningSuite.processNames where service != "gateway" {
      try await suite.waitUntilTheGatewaySeesServing(service)
    }
  }
}
