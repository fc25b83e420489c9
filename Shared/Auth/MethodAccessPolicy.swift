import GRPCCore

/// Every method's access level, declared once, keyed by the generated method descriptors. The
/// gateway consults it before forwarding a call; each service's ``AuthorizationServerInterceptor``
/// consults it again (defense in depth).
///
/// The tables are generated from the `(binario.auth.v1.access)` option of every method in proto/
/// (`Generated/MethodAccessPolicy+Generated.swift`): ``all`` is the suite's, each service has its
/// own (``identity``, ...). A method missing from a table gets `nil`: callers treat that as "refuse".
public struct MethodAccessPolicy: Sendable {
  private var byPath: [String: MethodAccess]

  public init(_ rules: [MethodDescriptor: MethodAccess] = [:]) {
    self.byPath = [:]
    for (descriptor, access) in rules {
      self.byPath[descriptor.fullyQualifiedMethod] = access
    }
  }

  /// The access rule of `method`, or `nil` if none is declared.
  public func access(for method: MethodDescriptor) -> MethodAccess? {
    self.byPath[method.fullyQualifiedMethod]
  }

  /// The access rule of a method named as on the wire: `/binario.identity.v1.Identity/Login`
  /// (the leading slash is optional). For the gateway, which forwards frames without GRPCCore.
  public func access(forPath path: some StringProtocol) -> MethodAccess? {
    let text = String(path)
    return self.byPath[text.hasPrefix("/") ? String(text.dropFirst()) : text]
  }

  /// Every method with a rule, as `service/method` (`binario.identity.v1.Identity/Login`).
  public var methods: Set<String> {
    Set(self.byPath.keys)
  }

  /// This table with `other`'s rules added (`other` wins on a method both declare).
  public func merging(_ other: MethodAccessPolicy) -> MethodAccessPolicy {
    var merged = self
    merged.byPath.merge(other.byPath) { _, new in new }
    return merged
  }
}
