import BinarioAuth
import BinarioDomain
import BinarioProto
import GRPCCore

extension IdentityHandler {
  public func createDriver(
    request: Binario_Identity_V1_CreateDriverRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_CreateDriverResponse {
    try requireAdmin()
    let account = try await domain.createDriver(
      PersonalDetails(
        email: request.email,
        password: request.password,
        firstName: request.firstName,
        lastName: request.lastName,
        phone: request.phone,
        birthDate: request.birthDate,
        gender: request.gender
      ),
      by: try caller().userID
    )
    return .with { $0.profile = Binario_Identity_V1_Profile(account) }
  }

  public func grantRole(
    request: Binario_Identity_V1_GrantRoleRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_GrantRoleResponse {
    try requireAdmin()
    let account = try await domain.grantRole(
      Role(proto: request.role),
      to: request.accountReference,
      by: try caller().userID
    )
    return .with { $0.profile = Binario_Identity_V1_Profile(account) }
  }

  public func revokeRole(
    request: Binario_Identity_V1_RevokeRoleRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_RevokeRoleResponse {
    try requireAdmin()
    let account = try await domain.revokeRole(
      Role(proto: request.role),
      from: request.accountReference,
      by: try caller().userID
    )
    return .with { $0.profile = Binario_Identity_V1_Profile(account) }
  }

  public func listOutboxMessages(
    request: Binario_Identity_V1_ListOutboxMessagesRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ListOutboxMessagesResponse {
    try requireAdmin()
    let messages = try await domain.outboxMessages(recipient: request.recipient, limit: Int(request.limit))
    return .with { $0.messages = messages.map(Binario_Identity_V1_OutboxMessage.init) }
  }

  public func listAccounts(
    request: Binario_Identity_V1_ListAccountsRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ListAccountsResponse {
    try requireAdmin()
    let after = try Paging.cursor(request.pageToken, parts: 1, listing: "ListAccounts")?[0]
    let role: Role? = request.role == .unspecified ? nil : Role(proto: request.role)
    if request.role != .unspecified && role == nil {
      throw ServiceError.invalid("role", "unknown role \(request.role.rawValue)")
    }
    let page = try await domain.listAccounts(
      AccountSearch(query: request.query, role: role, pageSize: Int(request.pageSize), afterEmail: after)
    )
    return .with {
      $0.accounts = page.accounts.map(Binario_Identity_V1_Profile.init)
      $0.nextPageToken = page.nextAfterEmail.map { Paging.token(after: [$0]) } ?? ""
    }
  }

  public func getAccount(
    request: Binario_Identity_V1_GetAccountRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_GetAccountResponse {
    try requireAdmin()
    let account = try await domain.account(request.accountReference)
    return .with { $0.profile = Binario_Identity_V1_Profile(account) }
  }

  public func updateAccount(
    request: Binario_Identity_V1_UpdateAccountRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_UpdateAccountResponse {
    try requireAdmin()
    let changes = ProfileChanges(request)
    let account = try await domain.updateAccount(
      request.accountReference,
      changes: changes,
      by: try caller().userID
    )
    return .with { $0.profile = Binario_Identity_V1_Profile(account) }
  }

  public func disableAccount(
    request: Binario_Identity_V1_DisableAccountRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_DisableAccountResponse {
    try requireAdmin()
    let account = try await domain.disableAccount(
      request.accountReference,
      reason: request.reason,
      by: try caller().userID
    )
    return .with { $0.profile = Binario_Identity_V1_Profile(account) }
  }

  public func enableAccount(
    request: Binario_Identity_V1_EnableAccountRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_EnableAccountResponse {
    try requireAdmin()
    let account = try await domain.enableAccount(
      request.accountReference,
      by: try caller().userID
    )
    return .with { $0.profile = Binario_Identity_V1_Profile(account) }
  }

  public func deleteDriver(
    request: Binario_Identity_V1_DeleteDriverRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_DeleteDriverResponse {
    try requireAdmin()
    try await domain.deleteDriver(request.accountReference, by: try caller().userID)
    return .init()
  }

  public func listAuditEntries(
    request: Binario_Identity_V1_ListAuditEntriesRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ListAuditEntriesResponse {
    try requireAdmin()
    let entries = try await domain.auditEntries(targetID: request.targetUserID, limit: Int(request.limit))
    return .with { $0.entries = entries.map(Binario_Identity_V1_AuditEntry.init) }
  }

  /// The interceptor already refuses non-admins; checking again here keeps an admin method safe
  /// even if the handler were registered without it.
  private func requireAdmin() throws {
    guard try caller().roles.contains(.admin) else {
      throw RPCError(code: .permissionDenied, message: "this needs the admin role")
    }
  }
}
