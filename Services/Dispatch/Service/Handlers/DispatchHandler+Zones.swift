import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension DispatchHandler {
  public func listZones(
    request: Binario_Dispatch_V1_ListZonesRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListZonesResponse {
    .with {
      $0.zones = domain.zones.zones.map { Binario_Dispatch_V1_Zone($0, neighbours: domain.zones.neighbours[$0.id] ?? []) }
      $0.tariff = .init(domain.settings.tariff)
    }
  }
}
