import Foundation
import SwiftProtobuf

/// The GTFS-realtime `FeedMessage` of the runs with live changes (version 2.0, FULL_DATASET):
/// one `TripUpdate` per changed run, with stop-level delays in seconds, `CANCELED` for a run
/// cancelled whole, `SKIPPED` stops for one cancelled from a stop on, and platform changes as
/// `stop_time_properties.assigned_stop_id` (the feed's stop for the new platform).
public struct RealtimeFeedBuilder: Sendable {
  /// The static feed's stop id of a station's platform, when it has one.
  public var platformStopID: @Sendable (_ stationID: String, _ platform: String) -> String?

  public init(platformStopID: @escaping @Sendable (_ stationID: String, _ platform: String) -> String?) {
    self.platformStopID = platformStopID
  }

  /// The serialized `FeedMessage`.
  public func feed(of runs: [RunLiveState], at timestamp: UInt64) throws -> [UInt8] {
    var message = TransitRealtime_FeedMessage()
    message.header.gtfsRealtimeVersion = "2.0"
    message.header.incrementality = .fullDataset
    message.header.timestamp = timestamp
    for run in runs where run.isChanged {
      var update = TransitRealtime_TripUpdate()
      update.trip.tripID = run.run.tripID
      update.trip.routeID = run.run.lineID
      update.trip.startDate = Self.gtfsDate(run.run.serviceDate)
      update.trip.scheduleRelationship = run.isCancelled ? .canceled : .scheduled
      if !run.isCancelled {
        for stop in run.stops where stop.isChanged {
          var stopUpdate = TransitRealtime_TripUpdate.StopTimeUpdate()
          stopUpdate.stopSequence = UInt32(stop.planned.sequence)
          if stop.cancelled {
            stopUpdate.scheduleRelationship = .skipped
          } else {
            stopUpdate.arrival.delay = Int32(stop.expectedArrival.secondsSinceServiceDayStart - stop.planned.arrival.secondsSinceServiceDayStart)
            stopUpdate.departure.delay = Int32(stop.delayMinutes * 60)
            if stop.platformChanged, let assigned = self.platformStopID(stop.planned.stationID, stop.platform) {
              stopUpdate.stopTimeProperties.assignedStopID = assigned
            }
          }
          update.stopTimeUpdate.append(stopUpdate)
        }
      }
      var entity = TransitRealtime_FeedEntity()
      entity.id = "\(run.run.tripID):\(Self.gtfsDate(run.run.serviceDate))"
      entity.tripUpdate = update
      message.entity.append(entity)
    }
    return try message.serializedBytes()
  }

  static func gtfsDate(_ date: ServiceDate) -> String {
    String(date.description.filter { $0 != "-" })
  }
}
