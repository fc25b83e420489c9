import BinarioProto
import GRPCCore

extension MethodAccessPolicy {
  /// Identity's methods (`binario.identity.v1.Identity`).
  public static let identity: MethodAccessPolicy = {
    typealias M = Binario_Identity_V1_Identity.Method
    let publicMethods: [MethodDescriptor] = [
      M.Register.descriptor,
      M.ConfirmEmail.descriptor,
      M.ResendConfirmation.descriptor,
      M.Login.descriptor,
      M.Refresh.descriptor,
      M.GetSigningKeys.descriptor,
      // Signed out it alerts 112; signed in, the caller's contacts.
      M.SendEmergencyAlert.descriptor,
      M.RequestPasswordReset.descriptor,
      M.ResetPassword.descriptor,
      M.LoginWithGoogle.descriptor,
    ]
    let signedInMethods: [MethodDescriptor] = [
      M.Logout.descriptor,
      M.GetMe.descriptor,
      M.UpdateMe.descriptor,
      M.ChangePassword.descriptor,
      M.ChangeEmail.descriptor,
      M.DeleteMe.descriptor,
      M.VerifyPhone.descriptor,
      M.ResendPhoneCode.descriptor,
      M.SendFriendRequest.descriptor,
      M.ListFriendRequests.descriptor,
      M.RespondToFriendRequest.descriptor,
      M.ListFriends.descriptor,
      M.RemoveFriend.descriptor,
      M.AddContact.descriptor,
      M.RemoveContact.descriptor,
      M.AddEmergencyContact.descriptor,
      M.ListEmergencyContacts.descriptor,
      M.UpdateEmergencyContact.descriptor,
      M.RemoveEmergencyContact.descriptor,
      M.AddPaymentMethod.descriptor,
      M.ListPaymentMethods.descriptor,
      M.RemovePaymentMethod.descriptor,
      M.SetDefaultPaymentMethod.descriptor,
    ]
    let adminMethods: [MethodDescriptor] = [
      M.CreateDriver.descriptor,
      M.GrantRole.descriptor,
      M.RevokeRole.descriptor,
      M.ListOutboxMessages.descriptor,
      M.ListAccounts.descriptor,
      M.GetAccount.descriptor,
      M.UpdateAccount.descriptor,
      M.DisableAccount.descriptor,
      M.EnableAccount.descriptor,
      M.DeleteDriver.descriptor,
      M.ListAuditEntries.descriptor,
    ]
    var rules: [MethodDescriptor: MethodAccess] = [:]
    for method in publicMethods { rules[method] = .level(.public) }
    for method in signedInMethods { rules[method] = .level(.signedIn) }
    for method in adminMethods { rules[method] = .level(.admin) }
    rules[M.WatchRevocations.descriptor] = .internal(allowedPeers: [WorkloadIdentity.gateway])
    // For the services that show people, check friendships or charge; never the gateway.
    rules[M.LookupAccounts.descriptor] = .internal(
      allowedPeers: [WorkloadIdentity.scheduling, WorkloadIdentity.ticketing, WorkloadIdentity.dispatch])
    rules[M.AreFriends.descriptor] = .internal(allowedPeers: [WorkloadIdentity.scheduling, WorkloadIdentity.ticketing])
    rules[M.IsPendingContact.descriptor] = .internal(allowedPeers: [WorkloadIdentity.scheduling])
    rules[M.GetDefaultPaymentMethod.descriptor] = .internal(
      allowedPeers: [WorkloadIdentity.ticketing, WorkloadIdentity.dispatch])
    return MethodAccessPolicy(rules)
  }()
}
