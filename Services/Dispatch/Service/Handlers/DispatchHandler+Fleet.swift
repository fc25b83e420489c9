import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension DispatchHandler {
  public func createTaxi(
    request: Binario_Dispatch_V1_CreateTaxiRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_CreateTaxiResponse {
    let taxi = try await domain.createTaxi(
      code: request.taxi.code,
      plate: request.taxi.plate,
      capacity: Int(clamping: request.taxi.capacity),
      driverUserID: request.taxi.driverUserID
    )
    return .with { $0.taxi = .init(taxi) }
  }

  public func updateTaxi(
    request: Binario_Dispatch_V1_UpdateTaxiRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_UpdateTaxiResponse {
    let taxi = request.taxi
    let updated = try await domain.updateTaxi(
      code: taxi.code,
      plate: taxi.plate.isEmpty ? nil : taxi.plate,
      capacity: taxi.capacity == 0 ? nil : Int(clamping: taxi.capacity),
      driverUserID: taxi.driverUserID
    )
    return .with { $0.taxi = .init(updated) }
  }

  public func deleteTaxi(
    request: Binario_Dispatch_V1_DeleteTaxiRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_DeleteTaxiResponse {
    try await domain.deleteTaxi(code: request.code)
    return .init()
  }

  public func listTaxis(
    request: Binario_Dispatch_V1_ListTaxisRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListTaxisResponse {
    let values = try await domain.taxis()
    return .with { $0.taxis = values.map { Binario_Dispatch_V1_Taxi($0.taxi, driverName: $0.driverName) } }
  }
}
