import Foundation

/// Something that happens in another process after a call returns (an event applied by a
/// consumer) did not happen in time.
public struct NotEventually: Error, CustomStringConvertible {
  public let what: String
  public let last: String
  public var description: String { "\(what) did not happen within the deadline; last seen: \(last)" }
}

/// Asks `check` until it returns a value, at most `timeout`: for an effect another process
/// applies after the call that caused it returned (an integration event), which the test can only
/// observe through that process's answers. `check` returns `nil` for "not yet" and may throw
/// "not yet" too; the last answer is in the failure.
public func eventually<Value>(
  _ what: String,
  timeout: Duration = .seconds(20),
  _ check: () async throws -> Value?
) async throws -> Value {
  let deadline = ContinuousClock.now + timeout
  var last = "nothing yet"
  while true {
    do {
      if let value = try await check() { return value }
      last = "not yet"
    } catch {
      last = "\(error)"
    }
    guard ContinuousClock.now < deadline else { throw NotEventually(what: what, last: last) }
    try await Task.sleep(for: .milliseconds(25))
  }
}
