import BinarioProto
import GRPCCore
import Synchronization

/// The admin keeps delaying the two followed trains, each delay with a reason of its own. A
/// delay has no idempotency key, so after a failed attempt the admin first reads the run's
/// changes and tries again only if the delay is not among them. Afterwards each acknowledged
/// delay is in its run's changes exactly once. (Every delay notifies the followers:
/// ``NotificationFollowers`` checks their streams.)
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
      switch try await delay(run, minutes: number % 30 + 1, reason: reason) {
      case .acknowledged(let retried):
        findings.count("acknowledged")
        if retried { findings.count("acknowledged after a failed attempt") }
        acknowledged.withLock { $0[run.tripID, default: []].append(reason) }
      case .unanswered:
        return findings.unanswered("the delay \"\(reason)\"")
      case .refused(let error):
        findings.broken("the delay \"\(reason)\" refused: \(error.code): \(error.message)")
      }
      try await Task.sleep(for: Self.pace)
    }
  }

  private enum Outcome {
    case acknowledged(retried: Bool)
    case unanswered
    case refused(RPCError)
  }

  private func delay(_ run: Binario_Scheduling_V1_RunRef, minutes: Int, reason: String) async throws -> Outcome {
    var retried = false
    var attempt = 0
    while ContinuousClock.now < acknowledgement.settleBy {
      attempt += 1
      do {
        _ = try await clients.scheduling.delayRun(
          .with {
            $0.run = run
            $0.minutes = Int32(minutes)
            $0.reason = reason
          }, metadata: await admin.metadata(), options: acknowledgement.options(attempt: attempt))
        return .acknowledged(retried: retried)
      } catch let error as RPCError where Acknowledgement.retried.contains(error.code) || error.code == .unauthenticated {
        retried = true
        acknowledgement.failures.add(error)
        if error.code == .unauthenticated { try? await admin.signIn() }
      } catch let error as RPCError {
        return .refused(error)
      }
      // Was it recorded before the answer was lost?
      guard
        let changes = try await acknowledgement.untilAnswered(as: admin, { metadata, options in
          try await clients.scheduling.listRunChanges(.with { $0.run = run }, metadata: metadata, options: options).changes
        })
      else { return .unanswered }
      if changes.contains(where: { $0.reason == reason }) { return .acknowledged(retried: true) }
    }
    return .unanswered
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
      violations: findings.violations)
  }
}
