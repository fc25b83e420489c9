import Foundation
import Synchronization

/// Who is watching the timetable's stations (geo-offers keeps a copy): each watcher's stream
/// gets every station at once, then every station again after each import that changed them.
final class StationWatchers: Sendable {
  private let continuations = Mutex<[UUID: AsyncStream<[Station]>.Continuation]>([:])

  /// A stream that starts with `current`; ``StationWatch/end()`` (or the stream's consumer going
  /// away) stops it.
  func watch(current: [Station]) -> StationWatch {
    let id = UUID()
    let (stream, continuation) = AsyncStream<[Station]>.makeStream(bufferingPolicy: .bufferingNewest(1))
    continuation.onTermination = { [weak self] _ in
      _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
    }
    continuation.yield(current)
    continuations.withLock { $0[id] = continuation }
    return StationWatch(stations: stream, end: { continuation.finish() })
  }

  /// Tells every watcher the stations now (only the newest set waits for a slow reader).
  func publish(_ stations: [Station]) {
    for continuation in continuations.withLock({ Array($0.values) }) {
      continuation.yield(stations)
    }
  }

  var count: Int { continuations.withLock { $0.count } }
}

/// One watcher's stream of station sets.
public struct StationWatch: Sendable {
  public let stations: AsyncStream<[Station]>
  public let end: @Sendable () -> Void
}
