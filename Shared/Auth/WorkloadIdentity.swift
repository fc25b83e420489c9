/// The certificate identities (URI SANs) of the suite's processes, as the development CA and the
/// deployment issue them: `spiffe://binario/<name>`.
public enum WorkloadIdentity {
  /// The gateway: the only peer whose caller metadata (`x-user-id`, ...) a service believes.
  public static let gateway = "spiffe://binario/gateway"
  public static let identity = "spiffe://binario/identity"

  /// `spiffe://binario/<name>`.
  public static func named(_ name: String) -> String {
    "spiffe://binario/\(name)"
  }
}
