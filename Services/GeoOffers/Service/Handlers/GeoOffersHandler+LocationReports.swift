import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension GeoOffersHandler {
  public func reportLocation(
    request: Binario_GeoOffers_V1_ReportLocationRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ReportLocationResponse {
    let caller = try CallerIdentity.signedIn()
    let report = try await domain.report(
      userID: caller.userID,
      latitude: request.latitude,
      longitude: request.longitude,
      accuracyMetres: request.accuracyMetres,
      reportedAt: request.hasReportedAt ? request.reportedAt.date : nil
    )
    return .init(report)
  }

  public func getMyLocation(
    request: Binario_GeoOffers_V1_GetMyLocationRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_GetMyLocationResponse {
    let location = try await domain.location(userID: try CallerIdentity.signedIn().userID)
    return .with { $0.location = .init(location) }
  }

  public func forgetMyLocation(
    request: Binario_GeoOffers_V1_ForgetMyLocationRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ForgetMyLocationResponse {
    try await domain.forgetLocation(userID: try CallerIdentity.signedIn().userID)
    return .init()
  }
}
