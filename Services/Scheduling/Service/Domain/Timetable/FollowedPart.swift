/// The part of a run a follower rides: from the station they board at to the one they leave it
/// at. An empty end is the run's first or last stop; both empty is the whole run (someone
/// watching the train, not riding a part of it).
public struct FollowedPart: Sendable, Hashable {
  public var fromStationID: String
  public var toStationID: String

  public init(fromStationID: String = "", toStationID: String = "") {
    self.fromStationID = fromStationID
    self.toStationID = toStationID
  }

  public static let wholeRun = FollowedPart()

  public var isWholeRun: Bool { fromStationID.isEmpty && toStationID.isEmpty }

  /// This part and `other` followed by the same person: the stretch covering both (a differing
  /// end opens to the run's end, so no change either concerns is missed).
  public func merged(with other: FollowedPart) -> FollowedPart {
    FollowedPart(
      fromStationID: fromStationID == other.fromStationID ? fromStationID : "",
      toStationID: toStationID == other.toStationID ? toStationID : ""
    )
  }

  /// The boarding and alighting stop sequences on `run`: the first call at the boarding station
  /// and the last call after it at the alighting one. A station the run no longer calls at in
  /// that order counts as the run's end.
  public func stops(on run: PlannedRun) -> (board: Int, alight: Int)? {
    guard let first = run.stops.first, let last = run.stops.last else { return nil }
    let boardIndex = fromStationID.isEmpty ? nil : run.stops.firstIndex { $0.stationID == fromStationID }
    let start = boardIndex ?? 0
    let alightIndex =
      toStationID.isEmpty ? nil : run.stops.indices.last { $0 > start && run.stops[$0].stationID == toStationID }
    return (boardIndex.map { run.stops[$0].sequence } ?? first.sequence, alightIndex.map { run.stops[$0].sequence } ?? last.sequence)
  }
}

/// Someone following a run, and the part of it they ride.
public struct RunFollower: Sendable, Hashable {
  public var userID: String
  public var part: FollowedPart

  public init(userID: String, part: FollowedPart) {
    self.userID = userID
    self.part = part
  }
}

extension RunChangeKind {
  /// Whether this change reaches a traveller riding from stop `board` to stop `alight` (by
  /// sequence): a delay from a stop before they leave the train, a platform change where they
  /// board or alight, a cancellation from a stop up to where they alight. Someone following
  /// the whole run hears of every change.
  public func concerns(board: Int, alight: Int, wholeRun: Bool) -> Bool {
    if wholeRun { return true }
    switch self {
    case .delay(let from, _): return from < alight
    case .platform(let sequence, _): return sequence == board || sequence == alight
    case .cancellation(let from): return from <= alight
    }
  }
}
