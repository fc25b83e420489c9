import BinarioProto
import BinarioTransport
import GRPCCore

/// ``RideNotifier`` on scheduling's notification centre (`Notify`, kind `TAXI_UPDATE`): the
/// recipients' channel preferences decide how it reaches them, but for drivers' job updates,
/// which go by push only.
public struct SchedulingRideNotifier: RideNotifier {
  let notifications: Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>
  let timeout: Duration

  public init(client: GRPCClient<BinarioClientTransport>, timeout: Duration = .seconds(5)) {
    self.notifications = Binario_Scheduling_V1_Notifications.Client(wrapping: client)
    self.timeout = timeout
  }

  public func notify(userIDs: [String], _ message: OutboxMessage) async throws {
    var options = CallOptions.defaults
    options.timeout = timeout
    _ = try await notifications.notify(
      .with {
        $0.userIds = userIDs
        $0.kind = .taxiUpdate
        $0.title = message.title
        $0.body = message.body
        $0.data = message.data
        $0.dedupeKey = message.dedupeKey
        $0.pushOnly = message.pushOnly
      },
      options: options
    )
  }
}
