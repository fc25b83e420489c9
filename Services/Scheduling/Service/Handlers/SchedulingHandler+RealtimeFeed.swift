import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import Logging
import SwiftProtobuf
import Synchronization

extension SchedulingHandler {
  public func getRealtimeFeed(
    request: Binario_Scheduling_V1_GetRealtimeFeedRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetRealtimeFeedResponse {
    let feed = try domain.realtimeFeed()
    let bytes = try RealtimeFeedBuilder(platformStopID: feed.platformStopID).feed(feed)
    return .with { $0.feedMessage = Data(bytes) }
  }
}
