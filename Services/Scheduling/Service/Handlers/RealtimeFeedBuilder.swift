import Foundation
import SwiftProtobuf

/// The GTFS-realtime `FeedMessage` (version 2.0, FULL_DATASET):
/// - one `TripUpdate` per changed run (entity id `<trip>:<YYYYMMDD>`), with stop-level delays
///   in seconds, `CANCELED` for a run cancelled whole, `SKIPPED` stops for one cancelled from a
///   stop on, and platform changes as `stop_time_properties.assigned_stop_id` (the feed's stop
///   for the new platform);
/// - one `Alert` per service notice (`alert:<id>`): its window as the active period, its lines
///   as routes and its stations as stops (a network-wide one: every route), its cause, effect
///   and texts in each language written;
/// - one `VehiclePosition` per train under way (`vehicle:<trip>:<YYYYMMDD>`), estimated from
///   the timetable and the live delays (``VehicleEstimate``).
/// Entity ids stay the same from one fetch to the next while the thing they describe lasts.
public struct RealtimeFeedBuilder: Sendable {
  /// The static feed's stop id of a station's platform, when it has one.
  public var platformStopID: @Sendable (_ stationID: String, _ platform: String) -> String?

  public init(platformStopID: @escaping @Sendable (_ stationID: String, _ platform: String) -> String?) {
    self.platformStopID = platformStopID
  }

  /// The serialized `FeedMessage` of `feed`.
  public func feed(_ feed: RealtimeFeed) throws -> [UInt8] {
    try self.feed(of: feed.runs, notices: feed.notices, vehicles: feed.vehicles, lineIDs: feed.lineIDs, at: feed.generatedAt)
  }

  public func feed(
    of runs: [RunLiveState],
    notices: [ServiceNotice] = [],
    vehicles: [VehicleEstimate] = [],
    lineIDs: [String] = [],
    at instant: Date
  ) throws -> [UInt8] {
    var message = TransitRealtime_FeedMessage()
    message.header.gtfsRealtimeVersion = "2.0"
    message.header.incrementality = .fullDataset
    message.header.timestamp = Self.posix(instant)
    for run in runs where run.isChanged {
      var entity = TransitRealtime_FeedEntity()
      entity.id = "\(run.run.tripID):\(Self.gtfsDate(run.run.serviceDate))"
      entity.tripUpdate = tripUpdate(run, at: instant)
      message.entity.append(entity)
    }
    for notice in notices {
      var entity = TransitRealtime_FeedEntity()
      entity.id = "alert:\(notice.id)"
      entity.alert = Self.alert(notice, lineIDs: lineIDs)
      message.entity.append(entity)
    }
    for vehicle in vehicles {
      var entity = TransitRealtime_FeedEntity()
      entity.id = "vehicle:\(vehicle.tripID):\(Self.gtfsDate(vehicle.serviceDate))"
      var position = TransitRealtime_VehiclePosition()
      position.trip.tripID = vehicle.tripID
      position.trip.routeID = vehicle.lineID
      position.trip.startDate = Self.gtfsDate(vehicle.serviceDate)
      position.vehicle.id = "\(vehicle.tripID):\(Self.gtfsDate(vehicle.serviceDate))"
      position.vehicle.label = vehicle.trainNumber
      position.position.latitude = Float(vehicle.latitude)
      position.position.longitude = Float(vehicle.longitude)
      position.currentStopSequence = UInt32(clamping: vehicle.stopSequence)
      position.currentStatus = vehicle.stopped ? .stoppedAt : .inTransitTo
      position.timestamp = Self.posix(instant)
      entity.vehicle = position
      message.entity.append(entity)
    }
    return try message.serializedBytes()
  }

  private func tripUpdate(_ run: RunLiveState, at instant: Date) -> TransitRealtime_TripUpdate {
    var update = TransitRealtime_TripUpdate()
    update.trip.tripID = run.run.tripID
    update.trip.routeID = run.run.lineID
    update.trip.startDate = Self.gtfsDate(run.run.serviceDate)
    update.trip.scheduleRelationship = run.isCancelled ? .canceled : .scheduled
    update.timestamp = Self.posix(instant)
    guard !run.isCancelled else { return update }
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
    return update
  }

  static func alert(_ notice: ServiceNotice, lineIDs: [String]) -> TransitRealtime_Alert {
    var alert = TransitRealtime_Alert()
    var period = TransitRealtime_TimeRange()
    period.start = posix(notice.startsAt)
    period.end = posix(notice.endsAt)
    alert.activePeriod = [period]
    for lineID in notice.isNetworkWide ? lineIDs : notice.lineIDs {
      var entity = TransitRealtime_EntitySelector()
      entity.routeID = lineID
      alert.informedEntity.append(entity)
    }
    for stationID in notice.stationIDs {
      var entity = TransitRealtime_EntitySelector()
      entity.stopID = stationID
      alert.informedEntity.append(entity)
    }
    alert.cause = cause(notice.cause)
    alert.effect = effect(notice.effect)
    alert.headerText.translation = notice.texts.map { text in
      var translation = TransitRealtime_TranslatedString.Translation()
      translation.text = text.title
      translation.language = text.language.rawValue
      return translation
    }
    let described = notice.texts.filter { !$0.description.isEmpty }
    if !described.isEmpty {
      alert.descriptionText.translation = described.map { text in
        var translation = TransitRealtime_TranslatedString.Translation()
        translation.text = text.description
        translation.language = text.language.rawValue
        return translation
      }
    }
    return alert
  }

  static func cause(_ cause: ServiceNotice.Cause) -> TransitRealtime_Alert.Cause {
    switch cause {
    case .other: .otherCause
    case .technicalProblem: .technicalProblem
    case .strike: .strike
    case .demonstration: .demonstration
    case .accident: .accident
    case .holiday: .holiday
    case .weather: .weather
    case .maintenance: .maintenance
    case .construction: .construction
    case .policeActivity: .policeActivity
    case .medicalEmergency: .medicalEmergency
    }
  }

  static func effect(_ effect: ServiceNotice.Effect) -> TransitRealtime_Alert.Effect {
    switch effect {
    case .noService: .noService
    case .reducedService: .reducedService
    case .significantDelays: .significantDelays
    case .detour: .detour
    case .additionalService: .additionalService
    case .modifiedService: .modifiedService
    case .other: .otherEffect
    case .stopMoved: .stopMoved
    }
  }

  static func posix(_ instant: Date) -> UInt64 { UInt64(max(0, instant.timeIntervalSince1970)) }

  static func gtfsDate(_ date: ServiceDate) -> String {
    date.gtfs
  }
}
