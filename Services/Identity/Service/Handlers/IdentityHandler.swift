import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore

/// The gRPC face of identity: translates `binario.identity.v1.Identity` messages to
/// ``IdentityDomain`` calls and its errors to statuses.
///
/// Register it behind ``BinarioAuth/AuthorizationServerInterceptor`` with
/// ``BinarioAuth/MethodAccessPolicy/identity``: the handlers read the signed-in caller from
/// ``BinarioAuth/CallerIdentity/current``, which only that interceptor sets. The methods are in
/// extensions by area (`IdentityHandler+SignIn.swift`, `+Profile`, `+Friends`,
/// `+EmergencyContacts`, `+Administration`).
public struct IdentityHandler: Binario_Identity_V1_Identity.SimpleServiceProtocol {
  let domain: IdentityDomain

  public init(domain: IdentityDomain) {
    self.domain = domain
  }

  /// The signed-in caller, or `UNAUTHENTICATED`.
  func caller() throws -> CallerIdentity {
    try CallerIdentity.signedIn()
  }

  /// Runs `body`, turning ``BinarioDomain/ServiceError`` into its status and any other error
  /// into `INTERNAL` (logged; the caller gets no detail). `RPCError`s pass through.
}
