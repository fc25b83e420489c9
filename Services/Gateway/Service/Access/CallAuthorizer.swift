import BinarioAuth
import BinarioDomain
import BinarioTransport
import Foundation
import GRPCCore
import GRPCProtobuf

/// Decides, on the event loop and without suspending, whether a call may go through the
/// gateway: from its method and its `authorization` metadata, the only metadata the gateway reads.
///
/// ``AccessPolicyAuthorizer`` is the gateway's; tests substitute their own.
public protocol CallAuthorizer: Sendable {
  func authorize(method: String, authorization: String?) -> AuthorizationDecision
}

/// What a ``CallAuthorizer`` decided.
public enum AuthorizationDecision: Sendable, Hashable {
  /// Forward the call, on behalf of this token's bearer (`nil`: signed out, on a public method).
  case allow(VerifiedAccessToken?)
  /// Forward the call to a device method with this device token (its shape checked; the service
  /// that issued it checks the rest).
  case allowDevice(token: String)
  /// Refuse it with this status.
  case deny(GatewayRefusal)
}

/// A call the gateway answers itself, with a status code and a message for a person.
public struct GatewayRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  public var code: Int32
  public var message: PersonText
  /// When the client may try again (rate limits): sent as gRPC's `grpc-retry-pushback-ms`
  /// trailer, and as `Retry-After` over HTTP.
  public var retryAfter: Duration?

  public init(code: Int32, message: PersonText, retryAfter: Duration? = nil) {
    self.code = code
    self.message = message
    self.retryAfter = retryAfter
  }

  public var description: String { "status \(self.code): \(self.message)" }
}

extension GatewayRefusal {
  /// The `grpc-status-details-bin` trailer of this refusal: a `google.rpc.Status` whose
  /// `LocalizedMessage` detail says it in `language`.
  func statusDetails(in language: Language) -> WireMetadataEntry {
    let status = GoogleRPCStatus(
      code: Status.Code(rawValue: Int(self.code)).flatMap(RPCError.Code.init) ?? .unknown,
      message: self.message.description,
      details: [.localizedMessage(locale: language.locale, message: self.message.rendered(in: language))]
    )
    var entry = WireMetadataEntry()
    entry.key = "grpc-status-details-bin"
    entry.value = .binary((try? status.serializedBytes()) ?? Data())
    return entry
  }
}
