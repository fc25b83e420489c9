import BinarioProto
import GRPCCore

/// Passengers walk through the centre reporting where they are, each report retried until
/// acknowledged. Afterwards geo-offers knows each passenger at their last acknowledged place.
struct LocationReports: ChaosLoad {
  let name = "location reports"
  let clients: Clients
  let passengers: [Passenger]
  let acknowledgement: Acknowledgement
  let findings = Findings()
  /// The last acknowledged position by user id.
  private let lastPlace = Locked<[String: (latitude: Double, longitude: Double)]>([:])

  func run(until stop: ContinuousClock.Instant) async throws {
    try await eachAtOnce(passengers) { passenger in try await self.walk(as: passenger, until: stop) }
  }

  private func walk(as passenger: Passenger, until stop: ContinuousClock.Instant) async throws {
    var step = 0
    while ContinuousClock.now < stop {
      step += 1
      // A few metres north each step, a lane of its own per passenger.
      let place = (latitude: Cast.duomo.latitude + Double(step) * 0.00002, longitude: Cast.duomo.longitude + Double(passenger.index) * 0.001)
      var retried = false
      do {
        guard
          try await acknowledgement.untilAnswered(
            as: passenger.person,
            retried: &retried,
            { metadata, options in
              try await clients.geoOffers.reportLocation(
                .with {
                  $0.latitude = place.latitude
                  $0.longitude = place.longitude
                  $0.accuracyMetres = 10
                },
                metadata: metadata,
                options: options
              )
            }
          ) != nil
        else {
          findings.unanswered("passenger \(passenger.index)'s report \(step)")
          return
        }
        findings.count("acknowledged")
        if retried { findings.count("acknowledged after a failed attempt") }
        lastPlace.withLock { $0[passenger.person.userID] = place }
      } catch let error as RPCError {
        findings.broken("passenger \(passenger.index)'s report \(step) refused: \(error.code): \(error.message)")
      }
      try await Task.sleep(for: Self.pace)
    }
  }

  func check() async throws -> ChaosReport.Section {
    let lastPlace = self.lastPlace.withLock { $0 }
    var found = 0
    for passenger in passengers {
      guard let expected = lastPlace[passenger.person.userID] else { continue }
      let location = try await clients.geoOffers.getMyLocation(.init(), metadata: await passenger.person.metadata()).location
      if abs(location.latitude - expected.latitude) > 1e-9 || abs(location.longitude - expected.longitude) > 1e-9 {
        findings.broken(
          "passenger \(passenger.index) is at \(location.latitude), \(location.longitude), not the last acknowledged \(expected.latitude), \(expected.longitude)"
        )
      } else {
        found += 1
      }
    }
    return ChaosReport.Section(
      name: name,
      counts: [
        ("acknowledged", findings.value("acknowledged")),
        ("of them after a failed attempt", findings.value("acknowledged after a failed attempt")),
        ("passengers at their last acknowledged place", found),
      ],
      violations: findings.violations
    )
  }
}
