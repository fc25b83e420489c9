import Foundation

/// Where a train is, estimated from its live times: standing at a stop between its expected
/// arrival and departure, else on the straight line between the stop it left and the next,
/// in proportion to the time gone. No estimate before it leaves its first stop, after it
/// reaches its last call, or for a run cancelled whole.
public struct VehicleEstimate: Sendable, Hashable {
  public var tripID: String
  public var serviceDate: ServiceDate
  public var lineID: String
  public var trainNumber: String
  public var latitude: Double
  public var longitude: Double
  /// The stop it stands at, or is going to next.
  public var stopSequence: Int
  public var stopped: Bool

  /// The estimate for `run` at `instant`, `nil` when it is not under way then.
  public init?(_ run: LiveRun, at instant: Date) {
    let calls = run.state.stops.filter { !$0.cancelled }
    guard let first = calls.first, let last = calls.last, calls.count >= 2 else { return nil }
    guard run.instant(first.expectedDeparture) <= instant, instant < run.instant(last.expectedArrival) else { return nil }
    func place(_ stop: RunLiveState.Stop) -> Station? { run.stations[stop.planned.stationID] }
    self.tripID = run.tripID
    self.serviceDate = run.serviceDate
    self.lineID = run.line.id
    self.trainNumber = run.state.run.trainNumber
    for (index, stop) in calls.enumerated() {
      let arrives = run.instant(stop.expectedArrival)
      let leaves = run.instant(stop.expectedDeparture)
      if arrives <= instant && instant < leaves, let station = place(stop) {
        (latitude, longitude, stopSequence, stopped) = (station.latitude, station.longitude, stop.planned.sequence, true)
        return
      }
      guard index + 1 < calls.count else { break }
      let next = calls[index + 1]
      let reaches = run.instant(next.expectedArrival)
      if leaves <= instant && instant < reaches, let from = place(stop), let to = place(next) {
        let share = reaches > leaves ? instant.timeIntervalSince(leaves) / reaches.timeIntervalSince(leaves) : 0
        latitude = from.latitude + (to.latitude - from.latitude) * share
        longitude = from.longitude + (to.longitude - from.longitude) * share
        (stopSequence, stopped) = (next.planned.sequence, false)
        return
      }
    }
    return nil
  }
}
