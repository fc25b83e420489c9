import Foundation
import Synchronization

/// The departures boards last computed, reused while they are exactly what a new computation
/// would give: a board asked at instant T lists the next departures scheduled from T, so it
/// stays the same for any later instant up to its first departure, as long as nothing the
/// board shows has been written since (the store's ``SchedulingStore/timetableVersion``: live
/// changes, run edits, imports). Stations are few; one board per station and size.
final class DepartureBoardCache: Sendable {
  struct Key: Hashable {
    var stationID: String
    var limit: Int
  }

  private struct Entry {
    var version: Int
    var computedAt: Date
    /// The board's first scheduled departure: later than this, a train has left the board.
    var validUntil: Date
    var board: DepartureBoard
  }

  private let entries = Mutex<[Key: Entry]>([:])
  private let editions = Atomic<Int>(0)

  /// A number no board computed before had: a new board's ``DepartureBoard/edition``.
  func nextEdition() -> Int {
    editions.add(1, ordering: .relaxed).newValue
  }

  /// The cached board for `key` if it is still exact at `instant` under `version`.
  func board(for key: Key, at instant: Date, version: Int) -> DepartureBoard? {
    entries.withLock { entries in
      guard let entry = entries[key], entry.version == version, entry.computedAt <= instant, instant <= entry.validUntil
      else { return nil }
      return entry.board
    }
  }

  /// Keeps a board computed at `instant` from what the store held at `version` (read before
  /// the board was).
  func keep(_ board: DepartureBoard, for key: Key, at instant: Date, version: Int, validUntil: Date) {
    guard validUntil > instant else { return }
    entries.withLock { $0[key] = Entry(version: version, computedAt: instant, validUntil: validUntil, board: board) }
  }
}

/// A station's next departures, live. Boards with the same ``edition`` are the same board (one
/// computation, shown again while exact), so whoever renders it may render it once.
public struct DepartureBoard: Sendable {
  public let station: Station
  public let departures: [LiveDeparture]
  /// The service notices for the station or its lines, not over yet.
  public let notices: [ServiceNotice]
  public let edition: Int
}
