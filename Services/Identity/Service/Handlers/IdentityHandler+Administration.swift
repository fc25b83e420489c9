import BinarioAuth
import BinarioProto
import GRPCCore

extension IdentityHandler {
  public func createDriver(
    request: Binario_Identity_V1_CreateDriverRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_CreateDriverResponse {
    try await handle("CreateDriver") {
      try requireAdmin()
      let account = try await domain.createDriver(
        PersonalDetails(
          email: request.email, password: request.password, firstName: request.firstName,
          lastName: request.lastName, phone: request.phone, birthDate: request.birthDate, gender: request.gender)
      )
      return .with { $0.profile = Binario_Identity_V1_Profile(account) }
    }
  }

  public func grantRole(
    request: Binario_Identity_V1_GrantRoleRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_GrantRoleResponse {
    try await handle("GrantRole") {
      try requireAdmin()
      let account = try await domain.grantRole(
        Role(proto: request.role), to: request.hasAccount ? AccountReference(request.account) : nil)
      return .with { $0.profile = Binario_Identity_V1_Profile(account) }
    }
  }

  public func revokeRole(
    request: Binario_Identity_V1_RevokeRoleRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_RevokeRoleResponse {
    try await handle("RevokeRole") {
      try requireAdmin()
      let account = try await domain.revokeRole(
        Role(proto: request.role), from: request.hasAccount ? AccountReference(request.account) : nil)
      return .with { $0.profile = Binario_Identity_V1_Profile(account) }
    }
  }

  public func listOutboxMessages(
    request: Binario_Identity_V1_ListOutboxMessagesRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ListOutboxMessagesResponse {
    try await handle("ListOutboxMessages") {
      try requireAdmin()
      let messages = try await domain.outboxMessages(recipient: request.recipient, limit: Int(request.limit))
      return .with { $0.messages = messages.map(Binario_Identity_V1_OutboxMessage.init) }
    }
  }

  /// The interceptor already refuses non-admins; checking again here keeps an admin method safe
  /// even if the handler were registered without it.
  private func requireAdmin() throws {
    guard try caller().roles.contains(.admin) else {
      throw RPCError(code: .permissionDenied, message: "this needs the admin role")
    }
  }
}
