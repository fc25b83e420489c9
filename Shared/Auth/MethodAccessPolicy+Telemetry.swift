import BinarioProto
import GRPCCore

extension MethodAccessPolicy {
  /// Telemetry's methods (`binario.telemetry.v1.Telemetry`): the upload methods take a board's
  /// device token and nothing else; the reference stations are public; a user's devices,
  /// campaigns and readings are signed-in; imports and fetches of reference data are admins'.
  public static let telemetry: MethodAccessPolicy = {
    typealias T = Binario_Telemetry_V1_Telemetry.Method
    let deviceMethods: [MethodDescriptor] = [T.UploadReadings.descriptor, T.StreamReadings.descriptor]
    let publicMethods: [MethodDescriptor] = [T.ListReferenceSensors.descriptor]
    let signedInMethods: [MethodDescriptor] = [
      T.RegisterDevice.descriptor, T.ListDevices.descriptor, T.RotateDeviceToken.descriptor, T.RevokeDeviceToken.descriptor,
      T.DeleteDevice.descriptor, T.SetDeviceCampaign.descriptor, T.CreateCampaign.descriptor, T.ListCampaigns.descriptor,
      T.AddCampaignMember.descriptor, T.GetSeries.descriptor, T.GetStatistics.descriptor, T.GetMap.descriptor, T.GetGrid.descriptor,
      T.GetLatest.descriptor, T.ExportReadings.descriptor, T.CompareWithReference.descriptor, T.CorrelateMeasures.descriptor,
    ]
    let adminMethods: [MethodDescriptor] = [
      T.ImportReferenceData.descriptor, T.FetchReferenceData.descriptor, T.ListReferenceSources.descriptor,
      T.SaveReferenceSource.descriptor, T.DeleteReferenceSource.descriptor,
    ]
    var rules: [MethodDescriptor: MethodAccess] = [:]
    for method in deviceMethods { rules[method] = .level(.device) }
    for method in publicMethods { rules[method] = .level(.public) }
    for method in signedInMethods { rules[method] = .level(.signedIn) }
    for method in adminMethods { rules[method] = .level(.admin) }
    return MethodAccessPolicy(rules)
  }()
}
