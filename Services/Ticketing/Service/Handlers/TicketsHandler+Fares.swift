import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension TicketsHandler {
  public func getFareTable(
    request: Binario_Ticketing_V1_GetFareTableRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetFareTableResponse {
    .init(try await domain.fareTable())
  }
}
