/// A background job's cue to run a pass now rather than at its next period: ``wake()`` after a
/// commit that gives it work, ``stream`` read by the job's one loop (``PeriodicJob``). Wake-ups
/// coalesce: however many come while a pass runs, one more pass follows.
public struct WakeUps: Sendable {
  public let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  public init() {
    (self.stream, self.continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  /// Asks for a pass soon.
  public func wake() {
    self.continuation.yield()
  }
}
