import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore
import Logging

/// Keeps geo-offers' copy of scheduling's stations in step: listens to scheduling's
/// `WatchStations` (every station at once, then again after each change) and replaces the
/// copy whenever it differs; when the stream breaks, listens again after a pause that grows
/// to 30 s.
public struct StationSync: Sendable {
  let scheduling: Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>
  let domain: GeoOffersDomain
  let logger: Logger

  public init(client: GRPCClient<BinarioClientTransport>, domain: GeoOffersDomain, logger: Logger) {
    self.scheduling = Binario_Scheduling_V1_Scheduling.Client(wrapping: client)
    self.domain = domain
    self.logger = logger
  }

  /// Runs until the task is cancelled.
  public func run() async {
    var pause: Duration = .milliseconds(250)
    while !Task.isCancelled {
      do {
        try await scheduling.watchStations(.init()) { response in
          for try await message in response.messages {
            let stations = message.stations.map {
              GeoStation(id: $0.stationID, name: $0.name, position: .init(latitude: $0.latitude, longitude: $0.longitude))
            }
            let changed = try await domain.syncStations(stations)
            logger.notice("stations in step with scheduling", metadata: ["stations": "\(stations.count)", "changed": "\(changed)"])
          }
        }
        pause = .milliseconds(250)
      } catch {
        if Task.isCancelled { return }
        logger.warning("watching scheduling's stations failed; trying again", metadata: ["error": "\(error)", "in": "\(pause)"])
      }
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, .seconds(30))
    }
  }
}
