import Foundation
import GRPCCore

/// A sensor board's device token, on a call to a ``AccessLevel/device`` method.
///
/// A board sends `authorization: Device <token>`. The gateway checks the token's shape only (the
/// token's hash is kept by the service that issued it, and nowhere else) and forwards it as
/// ``metadataKey``, dropping any such entry a client sent itself; it forwards no device token to
/// any other method. A service believes the entry only from the gateway's connection, as it does
/// ``CallerIdentity``, and looks the token up itself: an unknown, revoked or rotated token is
/// refused there with `UNAUTHENTICATED`.
public enum DeviceCredential {
  /// The metadata the gateway forwards the token in.
  public static let metadataKey = "x-device-token"
  /// What every device token starts with.
  public static let tokenPrefix = "bdt_"

  /// The token of the call being handled (bound by ``AuthorizationServerInterceptor`` on device
  /// methods), or `nil`.
  @TaskLocal public static var current: String?

  /// The token of `Device <token>` (scheme case-insensitive, blanks around the token ignored), or
  /// of `Basic` credentials whose password is a device token (what an airRohr board's custom API
  /// sends; the user name is ignored), or `nil` when `authorization` is neither.
  public static func token(fromAuthorization authorization: String) -> String? {
    if let token = AuthorizationCredentials.after(scheme: "device", in: authorization) { return token }
    guard let basic = AuthorizationCredentials.after(scheme: "basic", in: authorization),
      let decoded = Data(base64Encoded: basic).flatMap({ String(data: $0, encoding: .utf8) }),
      let colon = decoded.firstIndex(of: ":")
    else { return nil }
    let password = String(decoded[decoded.index(after: colon)...])
    return password.hasPrefix(tokenPrefix) ? password : nil
  }

  /// The forwarded token in `metadata`, only when `peerIdentity` is `trustedGateway` and there is
  /// exactly one.
  public static func token(metadata: Metadata, peerIdentity: String?, trustedGateway: String = WorkloadIdentity.gateway) -> String? {
    guard let peerIdentity, peerIdentity == trustedGateway else { return nil }
    let tokens = Array(metadata[stringValues: metadataKey])
    guard tokens.count == 1, let token = tokens.first, !token.isEmpty else { return nil }
    return token
  }

  /// Whether `text` has the shape of a device token: `bdt_` and 43 base64url characters. The
  /// gateway refuses anything else before it is forwarded.
  public static func looksValid(_ text: String) -> Bool {
    let prefix = tokenPrefix
    return text.hasPrefix(prefix) && text.utf8.count == prefix.utf8.count + 43
      && text.utf8.dropFirst(prefix.utf8.count).allSatisfy {
        $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (48 ... 57).contains($0) || (65 ... 90).contains($0) || (97 ... 122).contains($0)
      }
  }
}
