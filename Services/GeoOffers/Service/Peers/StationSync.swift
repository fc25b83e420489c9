import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore
import Logging

/// Keeps geo-offers' copy of scheduling's stations in step: listens to scheduling's
/// `WatchStations` (every station at once, then again after each change) and replaces the
/// copy whenever it differs. The `station-sync` job watches again when the stream ends, and after
/// a backoff that grows to 30 s when it breaks.
public struct StationSync: Sendable {
  let scheduling: Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>
  let domain: GeoOffersDomain
  let logger: Logger

  public init(client: GRPCClient<BinarioClientTransport>, domain: GeoOffersDomain, logger: Logger) {
    self.scheduling = Binario_Scheduling_V1_Scheduling.Client(wrapping: client)
    self.domain = domain
    self.logger = logger
  }

  /// One watch: until the stream ends (the job watches again) or breaks (it watches again after a
  /// backoff).
  public func watch() async throws {
    try await scheduling.watchStations(.init()) { response in
      for try await message in response.messages {
        let stations = message.stations.map {
          GeoStation(id: $0.stationID, name: $0.name, position: .init(latitude: $0.latitude, longitude: $0.longitude))
        }
        let changed = try await domain.syncStations(stations)
        logger.notice("stations in step with scheduling", metadata: ["stations": "\(stations.count)", "changed": "\(changed)"])
      }
    }
  }
}
