/// What a background job or a live watch waits on (a ``PeriodicJob`` between passes; telemetry
/// until a board counts as offline): the time, by default; a test's timer it releases by hand.
public protocol JobTimer: Sendable {
  func sleep(for duration: Duration) async throws
}

/// The real clock's time.
public struct ContinuousJobTimer: JobTimer {
  public init() {}

  public func sleep(for duration: Duration) async throws {
    try await ContinuousClock().sleep(for: duration)
  }
}
