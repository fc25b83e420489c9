import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension TelemetryHandler {
  public func registerDevice(
    request: Binario_Telemetry_V1_RegisterDeviceRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_RegisterDeviceResponse {
    let caller = try CallerIdentity.signedIn()
    let (device, token) = try await domain.registry.register(
      ownerUserID: caller.userID,
      name: request.name,
      key: try IdempotencyKey(caller: caller.userID, key: request.idempotencyKey)
    )
    return .with {
      $0.device = .init(device, callerID: caller.userID, presence: domain.live.presence(of: device))
      $0.token = token
    }
  }

  public func listDevices(
    request: Binario_Telemetry_V1_ListDevicesRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ListDevicesResponse {
    let caller = try CallerIdentity.signedIn()
    let devices = try await domain.registry.devices(visibleTo: caller.userID)
    return .with { $0.devices = devices.map { .init($0, callerID: caller.userID, presence: domain.live.presence(of: $0)) } }
  }

  public func rotateDeviceToken(
    request: Binario_Telemetry_V1_RotateDeviceTokenRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_RotateDeviceTokenResponse {
    let caller = try CallerIdentity.signedIn()
    let token = try await domain.registry.rotateToken(ownerUserID: caller.userID, deviceID: try required(request.deviceID, "device_id"))
    return .with { $0.token = token }
  }

  public func revokeDeviceToken(
    request: Binario_Telemetry_V1_RevokeDeviceTokenRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_RevokeDeviceTokenResponse {
    try await domain.registry.revokeToken(ownerUserID: try CallerIdentity.signedIn().userID, deviceID: try required(request.deviceID, "device_id"))
    return .init()
  }

  public func deleteDevice(
    request: Binario_Telemetry_V1_DeleteDeviceRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_DeleteDeviceResponse {
    try await domain.registry.delete(ownerUserID: try CallerIdentity.signedIn().userID, deviceID: try required(request.deviceID, "device_id"))
    return .init()
  }

  public func setDeviceCampaign(
    request: Binario_Telemetry_V1_SetDeviceCampaignRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_SetDeviceCampaignResponse {
    try await domain.registry.setCampaign(
      ownerUserID: try CallerIdentity.signedIn().userID,
      deviceID: try required(request.deviceID, "device_id"),
      campaignID: request.campaignID.isEmpty ? nil : request.campaignID
    )
    return .init()
  }

  public func createCampaign(
    request: Binario_Telemetry_V1_CreateCampaignRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_CreateCampaignResponse {
    let owner = try CallerIdentity.signedIn().userID
    let campaign = try await domain.registry.createCampaign(
      ownerUserID: owner,
      name: request.name,
      isPublic: request.public,
      key: try IdempotencyKey(caller: owner, key: request.idempotencyKey)
    )
    return .with { $0.campaign = .init(campaign) }
  }

  public func listCampaigns(
    request: Binario_Telemetry_V1_ListCampaignsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ListCampaignsResponse {
    let campaigns = try await domain.registry.campaigns(visibleTo: try CallerIdentity.signedIn().userID)
    return .with { $0.campaigns = campaigns.map(Binario_Telemetry_V1_Campaign.init) }
  }

  public func addCampaignMember(
    request: Binario_Telemetry_V1_AddCampaignMemberRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_AddCampaignMemberResponse {
    var check = InputValidation()
    let member = check.requiredText(request.userID, field: "user_id", what: "the member's account id", maxLength: 100)
    try check.finish()
    try await domain.registry.addMember(
      ownerUserID: try CallerIdentity.signedIn().userID,
      campaignID: try required(request.campaignID, "campaign_id"),
      userID: member
    )
    return .init()
  }
}
