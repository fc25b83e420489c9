/// The certificate identities (URI SANs) of the suite's processes, as the development CA and the
/// deployment issue them: `spiffe://binario/<name>`.
public enum WorkloadIdentity {
  /// The gateway: the only peer whose caller metadata (`x-user-id`, ...) a service believes.
  public static let gateway = "spiffe://binario/gateway"
  public static let identity = "spiffe://binario/identity"
  public static let scheduling = "spiffe://binario/scheduling"
  public static let ticketing = "spiffe://binario/ticketing"
  public static let geoOffers = "spiffe://binario/geo-offers"
  public static let dispatch = "spiffe://binario/dispatch"
  public static let telemetry = "spiffe://binario/telemetry"

  /// `spiffe://binario/<name>`.
  public static func named(_ name: String) -> String {
    "spiffe://binario/\(name)"
  }
}
