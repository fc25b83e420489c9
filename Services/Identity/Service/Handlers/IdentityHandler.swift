import BinarioAuth
import BinarioProto
import Foundation
import GRPCCore
import Logging

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
  let logger: Logger

  public init(domain: IdentityDomain, logger: Logger = Logger(label: "identity")) {
    self.domain = domain
    self.logger = logger
  }

  /// The signed-in caller, or `UNAUTHENTICATED`.
  func caller() throws -> CallerIdentity {
    guard let caller = CallerIdentity.current else {
      throw RPCError(code: .unauthenticated, message: "sign in first")
    }
    return caller
  }

  /// Runs `body`, turning ``IdentityError`` into its status and any other error into `INTERNAL`
  /// (logged here; the caller gets no detail). `RPCError`s pass through.
  func handle<Result: Sendable>(_ method: String, _ body: () async throws -> Result) async throws -> Result {
    do {
      return try await body()
    } catch let error as IdentityError {
      throw error.rpcError
    } catch let error as RPCError {
      throw error
    } catch is CancellationError {
      throw RPCError(code: .cancelled, message: "the call was cancelled")
    } catch {
      logger.error("identity failed", metadata: ["rpc.method": "\(method)", "error": "\(error)"])
      throw RPCError(code: .internalError, message: "identity could not complete \(method); try again later")
    }
  }
}
