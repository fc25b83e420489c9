import BinarioDomain
import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore

/// ``TimetableLookup`` on scheduling's methods, over the Binario transport with ticketing's
/// certificate.
public struct SchedulingTimetable: TimetableLookup {
  let scheduling: Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>
  /// How long a lookup may take before the wallet shows a ticket without its live state.
  let timeout: Duration

  public init(client: GRPCClient<BinarioClientTransport>, timeout: Duration = .seconds(2)) {
    self.scheduling = Binario_Scheduling_V1_Scheduling.Client(wrapping: client)
    self.timeout = timeout
  }

  private var options: CallOptions {
    var options = CallOptions.defaults
    options.timeout = timeout
    return options
  }

  public func run(_ run: RunReference) async throws -> TimetableRun {
    do {
      let response = try await scheduling.getRun(.with { $0.run = .init(run) }, options: options)
      return TimetableRun(response.run)
    } catch let error as RPCError where error.code == .notFound || error.code == .invalidArgument {
      throw ServiceError.notFound("the timetable has no run \(run): \(error.message)")
    }
  }

  public func runs(_ runs: [RunReference]) async throws -> [TimetableRun] {
    var found: [TimetableRun] = []
    for start in stride(from: 0, to: runs.count, by: 100) {
      let page = runs[start ..< min(start + 100, runs.count)].map(Binario_Scheduling_V1_RunRef.init)
      found += try await scheduling.getRuns(.with { $0.runs = page }, options: options).runs.map(TimetableRun.init)
    }
    return found
  }

  public func station(id: String) async throws -> TimetableStation {
    let stations = try await scheduling.listStations(.with { $0.query = id }, options: options).stations
    guard let station = stations.first(where: { $0.stationID == id }) else {
      throw ServiceError.notFound("the timetable has no station \(id)")
    }
    return TimetableStation(id: station.stationID, name: station.name, latitude: station.latitude, longitude: station.longitude)
  }

  public func setFollowing(_ change: RunFollowChange) async throws {
    let (run, userID) = (change.run, change.userID)
    let reference = Binario_Scheduling_V1_RunRef(run)
    do {
      if change.following {
        _ = try await scheduling.followRunFor(
          .with {
            $0.userID = userID
            $0.run = reference
            $0.fromStationID = change.fromStationID
            $0.toStationID = change.toStationID
          },
          options: options
        )
      } else {
        _ = try await scheduling.unfollowRunFor(
          .with {
            $0.userID = userID
            $0.run = reference
          },
          options: options
        )
      }
    } catch let error as RPCError where error.code == .notFound {
      throw ServiceError.notFound("the timetable has no run \(run): \(error.message)")
    }
  }
}

extension Binario_Scheduling_V1_RunRef {
  init(_ run: RunReference) {
    self.init()
    self.tripID = run.tripID
    self.serviceDate = run.serviceDate
  }
}

extension TimetableRun {
  init(_ run: Binario_Scheduling_V1_Run) {
    self.init(
      run: RunReference(tripID: run.run.tripID, serviceDate: run.run.serviceDate),
      trainNumber: run.trainNumber,
      line: run.line,
      cancelled: run.cancelled,
      stops: run.stops.map { stop in
        TimetableRun.Stop(
          stationID: stop.station.stationID,
          stationName: stop.station.name,
          latitude: stop.station.latitude,
          longitude: stop.station.longitude,
          scheduledArrival: stop.hasScheduledArrival ? stop.scheduledArrival.date : nil,
          scheduledDeparture: stop.hasScheduledDeparture ? stop.scheduledDeparture.date : nil,
          expectedDeparture: stop.hasExpectedDeparture ? stop.expectedDeparture.date : nil,
          platform: stop.platform,
          platformChanged: stop.platformChanged,
          delayMinutes: Int(stop.delayMinutes),
          cancelled: stop.cancelled
        )
      }
    )
  }
}
