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

/// ``Notifier`` on scheduling's notification centre (`Notify`): deals (kind `DEAL`) and
/// welcomes (`WELCOME`).
public struct SchedulingNotifier: Notifier {
  let notifications: Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>

  public init(client: GRPCClient<BinarioClientTransport>) {
    self.notifications = Binario_Scheduling_V1_Notifications.Client(wrapping: client)
  }

  public func notify(_ notification: OutgoingNotification) async throws {
    _ = try await notifications.notify(
      .with {
        $0.userIds = [notification.userID]
        $0.kind = notification.kind == .deal ? .deal : .welcome
        $0.title = notification.title
        $0.body = notification.body
        $0.data = notification.data
        $0.dedupeKey = notification.dedupeKey
      }
    )
  }
}
