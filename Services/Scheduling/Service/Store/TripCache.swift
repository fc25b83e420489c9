import Synchronization

/// The trips the store has read, with their stops: a departures board shows ten runs, and
/// reading each one's stops again for every board would be most of its cost. A trip changes
/// only when an import or an admin's run edit writes it; each such write calls ``invalidate()``
/// after it commits.
///
/// A read that began before such a commit must not put what it saw back: readers take the
/// ``generation`` before they start reading and ``insert(_:for:readAt:)`` drops an entry read
/// under an older generation.
final class TripCache: Sendable {
  struct Trip: Sendable {
    var lineID: String
    var trainNumber: String
    var headsign: String
    var stops: [PlannedRun.Stop]
  }

  private struct State {
    var generation = 0
    var trips: [String: Trip] = [:]
  }

  private let state = Mutex(State())

  var generation: Int { state.withLock { $0.generation } }

  func trip(_ id: String) -> Trip? {
    state.withLock { $0.trips[id] }
  }

  func insert(_ trip: Trip, for id: String, readAt generation: Int) {
    state.withLock { state in
      guard state.generation == generation else { return }
      state.trips[id] = trip
    }
  }

  func invalidate() {
    state.withLock { state in
      state.generation += 1
      state.trips.removeAll()
    }
  }
}
