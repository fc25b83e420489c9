import Foundation
import GRPCCore
import Synchronization

/// Makes a call again until the suite answers it, as a patient client does while a process is
/// down: only failures a restart cures (`UNAVAILABLE`, `DEADLINE_EXCEEDED`, ...) are retried,
/// each counted; any other answer is the caller's to judge.
///
/// Some attempts are impatient: made with a deadline of a few milliseconds, so that the suite
/// may well do the write while the client hears `DEADLINE_EXCEEDED` and tries again. A kill
/// rarely lands between a commit and its answer; an impatient client makes that case common,
/// and the retry must then find the write done, not do it twice.
struct Acknowledgement: Sendable {
  /// Past this instant an unanswered write is given up (and reported as unsettled).
  let settleBy: ContinuousClock.Instant
  let failures: FailureTally
  /// The share of attempts made impatiently (the first three of a call at most).
  let impatience: Double

  /// A call's deadline: a call to a process that died waits no longer than this.
  static let options: CallOptions = {
    var options = CallOptions.defaults
    options.timeout = .seconds(10)
    return options
  }()

  /// The codes a restart cures. `UNAUTHENTICATED` is cured by signing in again.
  static let retried: Set<RPCError.Code> = [.unavailable, .deadlineExceeded, .aborted, .resourceExhausted, .unknown, .cancelled]

  /// The options for attempt `attempt` (from 1): now and then an impatient deadline.
  func options(attempt: Int) -> CallOptions {
    guard attempt <= 3, Double.random(in: 0 ..< 1) < impatience else { return Self.options }
    var options = Self.options
    options.timeout = .milliseconds(Int.random(in: 1 ... 30))
    return options
  }

  /// The answer to `call` (given the metadata to send and the call's options), made as `person`
  /// (signing in again when the token is refused), or `nil` when ``settleBy`` passed first.
  /// `retried` is set when an attempt failed first.
  func untilAnswered<Answer: Sendable>(
    as person: Person? = nil,
    retried: inout Bool,
    _ call: (Metadata, CallOptions) async throws -> Answer
  ) async throws -> Answer? {
    var backoff = Duration.milliseconds(50)
    var attempt = 0
    while ContinuousClock.now < settleBy {
      attempt += 1
      do {
        return try await call(await person?.metadata() ?? [:], options(attempt: attempt))
      } catch let error as RPCError where Self.retried.contains(error.code) || (error.code == .unauthenticated && person != nil) {
        retried = true
        failures.add(error)
        if error.code == .unauthenticated { try? await person?.signIn() }
      }
      try await Task.sleep(for: backoff)
      backoff = min(backoff * 2, .seconds(1))
    }
    return nil
  }

  func untilAnswered<Answer: Sendable>(
    as person: Person? = nil,
    _ call: (Metadata, CallOptions) async throws -> Answer
  ) async throws -> Answer? {
    var retried = false
    return try await untilAnswered(as: person, retried: &retried, call)
  }
}

/// Failed attempts by status code and message, across the run: what clients were told while
/// processes were down.
final class FailureTally: Sendable {
  private let counts = Mutex<[String: Int]>([:])

  func add(_ error: RPCError) {
    // "the access token expired at 2026-11-26T17:10:28Z": one line for them all.
    let message = error.message.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT[\d:.]+Z"#, with: "<time>", options: .regularExpression)
    counts.withLock { $0["\(error.code): \(message)", default: 0] += 1 }
  }

  var snapshot: [String: Int] { counts.withLock { $0 } }
}

/// The figures and broken promises one load gathers while it runs.
final class Findings: Sendable {
  private let state = Mutex<(counts: [String: Int], violations: [String])>(([:], []))

  func count(_ name: String, _ amount: Int = 1) {
    state.withLock { $0.counts[name, default: 0] += amount }
  }

  func broken(_ violation: String) {
    state.withLock { $0.violations.append(violation) }
  }

  /// A write the suite never answered, though every process was up again for the run's
  /// settle limit: a promise broken too.
  func unanswered(_ what: String) {
    broken("\(what): no answer within the settle limit")
  }

  func value(_ name: String) -> Int { state.withLock { $0.counts[name] ?? 0 } }
  var violations: [String] { state.withLock { $0.violations } }
}

/// A value behind a lock, shareable by reference: what a load's tasks record as they go.
final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) { self.mutex = Mutex(value) }

  func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
    try mutex.withLock(body)
  }
}
