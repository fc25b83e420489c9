import BinarioProto
import GRPCCore

/// The admin keeps delaying the two followed trains, each delay with a reason and an
/// idempotency key of its own, retried with the key until acknowledged. Afterwards each
/// acknowledged delay is in its run's changes exactly once. (Every delay notifies the
/// followers: ``NotificationFollowers`` checks their streams.)
struct TrainDelays: ChaosLoad {
  let name = "train delays"
  let clients: Clients
  let admin: Person
  let runs: [Binario_Scheduling_V1_RunRef]
  let acknowledgement: Acknowledgement
  let findings = Findings()
  /// Acknowledged reasons by trip id.
  private let acknowledged = Locked<[String: [String]]>([:])

  func run(until stop: ContinuousClock.Instant) async throws {
    var number = 0
    while ContinuousClock.now < stop {
      number += 1
      let run = runs[number % runs.count]
      let reason = "chaos delay \(number)"
      var retried = false
      do {
        guard
          try await acknowledgement.untilAnswered(
            as: admin,
            retried: &retried,
            { metadata, options in
              try await clients.scheduling.delayRun(
                .with {
                  $0.run = run
                  $0.minutes = Int32(number % 30 + 1)
                  $0.reason = reason
                  $0.idempotencyKey = "delay-\(number)"
                },
                metadata: metadata,
                options: options
              )
            }
          ) != nil
        else { return findings.unanswered("the delay \"\(reason)\"") }
        findings.count("acknowledged")
        if retried { findings.count("acknowledged after a failed attempt") }
        acknowledged.withLock { $0[run.tripID, default: []].append(reason) }
      } catch let error as RPCError {
        findings.broken("the delay \"\(reason)\" refused: \(error.code): \(error.message)")
      }
      try await Task.sleep(for: Self.pace)
    }
  }

  func check() async throws -> ChaosReport.Section {
    let acknowledged = self.acknowledged.withLock { $0 }
    var recorded = 0
    for run in runs {
      let changes = try await clients.scheduling.listRunChanges(.with { $0.run = run }, metadata: await admin.metadata()).changes
      let times = Dictionary(changes.map { ($0.reason, 1) }.filter { $0.0.hasPrefix("chaos delay ") }, uniquingKeysWith: +)
      recorded += times.values.reduce(0, +)
      let told = acknowledged[run.tripID] ?? []
      for reason in told where times[reason] != 1 {
        findings.broken("the acknowledged \"\(reason)\" of \(run.tripID) is recorded \(times[reason] ?? 0) times")
      }
      for reason in Set(times.keys).subtracting(told) {
        findings.broken("\"\(reason)\" of \(run.tripID) is recorded, but the admin was never told")
      }
    }
    return ChaosReport.Section(
      name: name,
      counts: [
        ("acknowledged", findings.value("acknowledged")),
        ("of them after a failed attempt", findings.value("acknowledged after a failed attempt")),
        ("recorded", recorded),
      ],
      violations: findings.violations
    )
  }
}
