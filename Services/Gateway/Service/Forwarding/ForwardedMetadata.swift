import BinarioAuth
import BinarioTracing
import BinarioTransport

/// The metadata a forwarded call carries upstream: the client's, minus anything that claims an
/// identity or a request id (only the gateway may say who is calling) and the bearer token, plus
/// the gateway's own: the verified caller, or a device method's device token.
enum ForwardedMetadata {
  /// Keys a client may not set: the gateway sets them after verifying the caller. The access
  /// token itself stays at the gateway: services learn the caller from these, and a token that
  /// never reaches them cannot leak from their logs.
  static let callerKeys = Set(CallerIdentity.MetadataKey.all + [DeviceCredential.metadataKey, "authorization"])
  /// Keys the gateway replaces with its own values (the trace context: its own span's, injected
  /// by the forwarder, which continues the client's).
  static let gatewayKeys: Set<String> = [
    GatewayRequestID.key, GatewayRequestID.serviceKitKey, "x-forwarded-for", TraceHeaders.traceParent, TraceHeaders.traceState,
  ]

  static func make(
    from client: WireMetadata,
    requestID: String,
    caller: VerifiedAccessToken?,
    deviceToken: String? = nil,
    clientIP: String
  ) -> WireMetadata {
    var forwarded = WireMetadata()
    forwarded.reserveCapacity(client.count + 6)
    for entry in client where !Self.callerKeys.contains(entry.key) && !Self.gatewayKeys.contains(entry.key) {
      forwarded.append(entry)
    }
    forwarded.append(.text(GatewayRequestID.key, requestID))
    forwarded.append(.text(GatewayRequestID.serviceKitKey, requestID))
    forwarded.append(.text("x-forwarded-for", clientIP))
    if let caller {
      // As `CallerIdentity.write(to:)` writes them.
      forwarded.append(.text(CallerIdentity.MetadataKey.userID, caller.userID))
      forwarded.append(.text(CallerIdentity.MetadataKey.roles, caller.roles.sorted().map(\.rawValue).joined(separator: ",")))
      forwarded.append(.text(CallerIdentity.MetadataKey.sessionID, caller.sessionID))
    }
    if let deviceToken {
      forwarded.append(.text(DeviceCredential.metadataKey, deviceToken))
    }
    return forwarded
  }
}

extension WireMetadataEntry {
  /// A text entry.
  static func text(_ key: String, _ value: String) -> Self {
    var entry = Self()
    entry.key = key
    entry.value = .text(value)
    return entry
  }
}
