import Synchronization

/// The readings a stream has sent and not yet stored: the stream's reader adds each message's,
/// the committer takes all that have gathered at once (group commit). The reader waits while
/// `limit` readings are waiting, so a fast client cannot fill the memory; closing it (the
/// committer stopped, on an error) wakes and stops the reader.
final class PendingReadings: Sendable {
  private struct State {
    var readings: [Reading] = []
    var finished = false
    var closed = false
    var failure: (any Error)?
    var committer: CheckedContinuation<Void, Never>?
    var reader: CheckedContinuation<Void, Never>?
  }

  private let state = Mutex(State())
  let limit: Int

  init(limit: Int) {
    self.limit = limit
  }

  /// Adds a message's readings; waits while the committer is `limit` behind. Throws
  /// `CancellationError` once the committer has stopped.
  func add(_ readings: [Reading]) async throws {
    let (wake, full) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
      guard !state.closed else { return (nil, false) }
      state.readings += readings
      defer { state.committer = nil }
      return (state.committer, state.readings.count >= limit)
    }
    wake?.resume()
    if full {
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state -> Bool in
          guard !state.closed, state.readings.count >= limit else { return true }
          state.reader = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    }
    if state.withLock({ $0.closed }) { throw CancellationError() }
  }

  /// The stream ended (with `failure` when it broke).
  func finish(_ failure: (any Error)? = nil) {
    let wake = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.finished = true
      state.failure = failure
      defer { state.committer = nil }
      return state.committer
    }
    wake?.resume()
  }

  /// Everything gathered (at most `maximum`), waiting for some when there is none; `nil` once the
  /// stream ended and all is taken. Throws what broke the stream, once all before it is taken.
  func take(maximum: Int) async throws -> [Reading]? {
    while true {
      let (taken, wakeReader, done, failure) = state.withLock {
        state -> ([Reading], CheckedContinuation<Void, Never>?, Bool, (any Error)?) in
        // What arrived before the stream broke is still stored (a resend finds it), then the
        // failure is thrown.
        guard !state.readings.isEmpty else { return ([], nil, state.finished, state.failure) }
        let count = min(maximum, state.readings.count)
        let taken = Array(state.readings.prefix(count))
        state.readings.removeFirst(count)
        defer { state.reader = nil }
        return (taken, state.reader, false, nil)
      }
      wakeReader?.resume()
      if !taken.isEmpty { return taken }
      if let failure { throw failure }
      if done { return nil }
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state -> Bool in
          guard state.readings.isEmpty, !state.finished else { return true }
          state.committer = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    }
  }

  /// The committer stopped: the reader, waiting or not, stops at its next `add`.
  func close() {
    let wake = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.closed = true
      defer { state.reader = nil }
      return state.reader
    }
    wake?.resume()
  }
}
