import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

/// The gRPC face of dispatch: translates `binario.dispatch.v1.Dispatch` messages to
/// ``DispatchDomain`` calls and its errors to statuses. Register it behind
/// ``BinarioAuth/AuthorizationServerInterceptor`` with ``BinarioAuth/MethodAccessPolicy/dispatch``.
public struct DispatchHandler: Binario_Dispatch_V1_Dispatch.SimpleServiceProtocol {
  let domain: DispatchDomain

  public init(domain: DispatchDomain) {
    self.domain = domain
  }

  static func user() throws -> String {
    try CallerIdentity.signedIn().userID
  }
}
