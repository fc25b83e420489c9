import NIOConcurrencyHelpers
import NIOCore

/// The parts of one call that arrived from the peer, waiting for the call's single reader: the
/// inbound half of a GRPCCore stream.
///
/// The event loop ``yield(_:)``s parts as frames arrive; the reader takes them with ``next()``.
/// A part that finds the reader waiting goes straight to it. Once `highWatermark` parts wait
/// unread, `yield` answers ``YieldResult/pauseReading`` (the caller stops reading the socket);
/// when the reader is down to `lowWatermark`, `resumeReading` is called.
///
/// It does what `NIOThrowingAsyncSequenceProducer` did here, for one reader and without its
/// general machinery: a lock, a ring buffer and at most one continuation. Per call that is
/// measurably cheaper (see Benchmarks/RESULTS.md), and every unary call pays it twice.
final class InboundPartBuffer<Element: Sendable>: Sendable {
  enum YieldResult {
    case keepReading
    case pauseReading
  }

  private struct State {
    var parts = CircularBuffer<Element>(initialCapacity: 4)
    /// Set once the peer's side is complete; an error is reported once, then `nil` follows.
    var end: Result<Void, any Error>?
    var waiter: CheckedContinuation<Element?, any Error>?
    var readingPaused = false
    var readerCancelled = false
  }

  private let state = NIOLockedValueBox(State())
  private let highWatermark: Int
  private let lowWatermark: Int
  private let resumeReading: @Sendable () -> Void
  private let cancellationError: @Sendable () -> any Error

  /// - Parameters:
  ///   - resumeReading: called (on the reader's thread) when reading may go on after a pause.
  ///   - cancellationError: what ``next()`` throws when the reading task is cancelled.
  init(
    highWatermark: Int,
    lowWatermark: Int,
    resumeReading: @escaping @Sendable () -> Void,
    cancellationError: @escaping @Sendable () -> any Error = { CancellationError() }
  ) {
    self.highWatermark = max(1, highWatermark)
    self.lowWatermark = min(lowWatermark, self.highWatermark - 1)
    self.resumeReading = resumeReading
    self.cancellationError = cancellationError
  }

  /// Hands a part to the reader (dropped if the stream already ended).
  func yield(_ part: Element) -> YieldResult {
    let (waiter, result) = self.state.withLockedValue { state -> (CheckedContinuation<Element?, any Error>?, YieldResult) in
      guard state.end == nil else { return (nil, .keepReading) }
      if let waiter = state.waiter {
        state.waiter = nil
        return (waiter, .keepReading)
      }
      state.parts.append(part)
      guard state.parts.count >= self.highWatermark else { return (nil, .keepReading) }
      state.readingPaused = true
      return (nil, .pauseReading)
    }
    waiter?.resume(returning: part)
    return result
  }

  /// No more parts follow: the reader gets what is buffered, then the end (or `error`).
  func finish(throwing error: (any Error)? = nil) {
    let waiter = self.state.withLockedValue { state -> CheckedContinuation<Element?, any Error>? in
      guard state.end == nil else { return nil }
      state.end = error.map { .failure($0) } ?? .success(())
      defer { state.waiter = nil }
      return state.waiter
    }
    guard let waiter else { return }
    self.state.withLockedValue { $0.end = .success(()) }
    if let error {
      waiter.resume(throwing: error)
    } else {
      waiter.resume(returning: nil)
    }
  }

  /// The next part, `nil` at the end; throws the stream's error, or the cancellation error when
  /// the reading task is cancelled while it waits.
  func next() async throws -> Element? {
    if let ready = self.takeReady(waiter: nil) { return try ready.get() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
        if let ready = self.takeReady(waiter: continuation) {
          continuation.resume(with: ready)
        }
      }
    } onCancel: {
      let waiter = self.state.withLockedValue { state in
        state.readerCancelled = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(throwing: self.cancellationError())
    }
  }

  /// What ``next()`` can answer right away; otherwise stores `waiter` (if given) and returns nil.
  private func takeReady(waiter: CheckedContinuation<Element?, any Error>?) -> Result<Element?, any Error>? {
    let (ready, resume) = self.state.withLockedValue { state -> (Result<Element?, any Error>?, Bool) in
      if let part = state.parts.popFirst() {
        let resume = state.readingPaused && state.parts.count <= self.lowWatermark
        if resume { state.readingPaused = false }
        return (.success(part), resume)
      }
      switch state.end {
      case .success?:
        return (.success(nil), false)
      case .failure(let error)?:
        state.end = .success(())
        return (.failure(error), false)
      case nil:
        if state.readerCancelled { return (.failure(self.cancellationError()), false) }
        if let waiter { state.waiter = waiter }
        return (nil, false)
      }
    }
    if resume { self.resumeReading() }
    return ready
  }
}

/// The reader's view of an ``InboundPartBuffer``.
struct InboundPartSequence<Element: Sendable>: AsyncSequence, Sendable {
  let buffer: InboundPartBuffer<Element>

  struct AsyncIterator: AsyncIteratorProtocol {
    let buffer: InboundPartBuffer<Element>

    mutating func next() async throws -> Element? {
      try await self.buffer.next()
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(buffer: self.buffer)
  }
}
