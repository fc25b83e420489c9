import BinarioDomain
import Foundation

extension SchedulingDomain: ItineraryTrains {
  public func leg(_ train: ItineraryTrain, field: String) throws -> ItineraryTrainLeg {
    let run = try liveRun(tripID: train.tripID, on: train.serviceDate)
    var check = InputValidation()
    let board = run.state.stops.first { $0.planned.stationID == train.fromStationID }
    let alight = board.flatMap { board in
      run.state.stops.last { $0.planned.sequence > board.planned.sequence && $0.planned.stationID == train.toStationID }
    }
    if board == nil { check.fail("\(field).from_station_id", "train \(run.state.run.trainNumber) does not call at \(train.fromStationID)") }
    if board != nil, alight == nil {
      check.fail("\(field).to_station_id", "train \(run.state.run.trainNumber) does not call at \(train.toStationID) after \(train.fromStationID)")
    }
    try check.finish()
    let (from, to) = (board!, alight!)
    return ItineraryTrainLeg(
      trainNumber: run.state.run.trainNumber,
      line: run.line.shortName,
      fromStation: run.stations[from.planned.stationID]
        ?? Station(id: from.planned.stationID, code: "", name: from.planned.stationID, latitude: 0, longitude: 0),
      toStation: run.stations[to.planned.stationID]
        ?? Station(id: to.planned.stationID, code: "", name: to.planned.stationID, latitude: 0, longitude: 0),
      scheduledDeparture: run.instant(from.planned.departure),
      scheduledArrival: run.instant(to.planned.arrival),
      expectedDeparture: run.instant(from.expectedDeparture),
      expectedArrival: run.instant(to.expectedArrival),
      delayMinutes: from.delayMinutes,
      platform: from.platform,
      platformChanged: from.platformChanged,
      cancelled: from.cancelled || to.cancelled
    )
  }
}
