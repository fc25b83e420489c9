/// The parts of a wire method name, `/binario.identity.v1.Identity/Login`: the fully qualified
/// service (`binario.identity.v1.Identity`) and its proto package (`binario.identity.v1`).
///
/// Parsing slices the name without copying more than the two strings it returns.
public struct MethodPath: Sendable, Hashable {
  public let service: String
  public let package: String

  /// `nil` unless the name is `/<package>.<Service>/<Method>` with all parts non-empty.
  public init?(_ method: String) {
    let utf8 = method.utf8
    guard utf8.first == UInt8(ascii: "/") else { return nil }
    let afterSlash = utf8.index(after: utf8.startIndex)
    guard let lastSlash = utf8.lastIndex(of: UInt8(ascii: "/")), lastSlash > afterSlash,
      utf8.index(after: lastSlash) < utf8.endIndex
    else { return nil }
    let service = utf8[afterSlash ..< lastSlash]
    guard let lastDot = service.lastIndex(of: UInt8(ascii: ".")), lastDot > service.startIndex,
      service.index(after: lastDot) < service.endIndex
    else { return nil }
    self.service = String(Substring(service))
    self.package = String(Substring(utf8[afterSlash ..< lastDot]))
  }
}
