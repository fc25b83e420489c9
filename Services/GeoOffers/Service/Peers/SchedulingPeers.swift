import BinarioDomain
import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore
import Logging

/// ``LiveTimetable`` on scheduling's internal `GetRuns`.
public struct SchedulingLiveTimetable: LiveTimetable {
  let scheduling: Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>
  let timeout: Duration

  public init(client: GRPCClient<BinarioClientTransport>, timeout: Duration = .seconds(2)) {
    self.scheduling = Binario_Scheduling_V1_Scheduling.Client(wrapping: client)
    self.timeout = timeout
  }

  public func stations() async throws -> [GeoStation] {
    var options = CallOptions.defaults
    options.timeout = timeout
    return try await scheduling.listStations(.init(), options: options).stations.map {
      GeoStation(id: $0.stationID, name: $0.name, position: .init(latitude: $0.latitude, longitude: $0.longitude))
    }
  }

  public func departure(of run: RunReference, from stationID: String) async throws -> LiveDeparture? {
    var options = CallOptions.defaults
    options.timeout = timeout
    let response = try await scheduling.getRuns(
      .with {
        $0.runs = [
          .with {
            $0.tripID = run.tripID
            $0.serviceDate = run.serviceDate
          }
        ]
      },
      options: options
    )
    guard let found = response.runs.first, let stop = found.stops.first(where: { $0.station.stationID == stationID }) else {
      return nil
    }
    return LiveDeparture(
      run: run,
      stationID: stationID,
      scheduledDeparture: stop.hasScheduledDeparture ? stop.scheduledDeparture.date : nil,
      expectedDeparture: stop.hasExpectedDeparture ? stop.expectedDeparture.date : nil,
      platform: stop.platform,
      delayMinutes: Int(stop.delayMinutes),
      cancelled: found.cancelled || stop.cancelled
    )
  }
}
