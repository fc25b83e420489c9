import BinarioDomain
import Foundation

/// A departures board kept open: the board now, and a wake-up each time it may have changed.
public struct DepartureBoardWatch: Sendable {
  /// The board when the watch began.
  public let first: DepartureBoard
  /// A wake-up after each timetable change, and at least every recheck interval (trains leave
  /// the board as time passes); each one means "read ``current()`` again".
  public let wakeUps: AsyncStream<Void>
  /// The board now.
  public let current: @Sendable () throws -> DepartureBoard
  /// Stops the wake-ups (and their timer).
  public let end: @Sendable () -> Void
}

extension SchedulingDomain {
  /// Watches a station's board: the same checks and answer as ``departures(stationID:after:limit:)``
  /// for now, then wake-ups on every live change, run edit and import, and every
  /// `recheckInterval` for the trains that leave it.
  public func watchDepartures(stationID: String, limit: Int, recheckInterval: Duration = .seconds(30)) throws -> DepartureBoardWatch {
    let first = try departures(stationID: stationID, after: nil, limit: limit)
    let (wakeUps, continuation) = store.timetableChanges.watch()
    let timer = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: recheckInterval)
        if case .terminated = continuation.yield() { return }
      }
    }
    continuation.onTermination = { [previous = continuation.onTermination] termination in
      timer.cancel()
      previous?(termination)
    }
    return DepartureBoardWatch(
      first: first,
      wakeUps: wakeUps,
      current: { [self] in try departures(stationID: stationID, after: nil, limit: limit) },
      end: { continuation.finish() }
    )
  }
}
