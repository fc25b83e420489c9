import Foundation
import GRPCCore

extension Metadata {
  /// GRPCCore's key for the call's timeout; on the Binario wire it travels as `timeout_ms`.
  static let grpcTimeoutKey = "grpc-timeout"

  /// GRPCCore metadata from wire entries; `-bin` keys carry binary values.
  public init(wire entries: WireMetadata) {
    self.init()
    self.reserveCapacity(entries.count)
    for entry in entries {
      switch entry.value {
      case .text(let text)?: self.addString(text, forKey: entry.key)
      case .binary(let data)?: self.addBinary(Array(data), forKey: entry.key)
      case nil: self.addString("", forKey: entry.key)
      }
    }
  }

  /// Wire entries from GRPCCore metadata, leaving out `grpc-timeout` (the frame's `timeout_ms`
  /// carries it). Keys are lower-cased as the protocol requires.
  public func wireEntries() -> WireMetadata {
    var entries = WireMetadata()
    entries.reserveCapacity(self.count)
    for (key, value) in self {
      let key = key.lowercased()
      if key == Self.grpcTimeoutKey { continue }
      var entry = WireMetadataEntry()
      entry.key = key
      switch value {
      case .string(let text): entry.value = .text(text)
      case .binary(let bytes): entry.value = .binary(Data(bytes))
      }
      entries.append(entry)
    }
    return entries
  }

  /// The `grpc-timeout` GRPCCore puts in a request's metadata when a call has a deadline.
  public var grpcTimeout: Duration? {
    guard let value = self[stringValues: Self.grpcTimeoutKey].first(where: { _ in true }),
      value.count >= 2, let amount = Int64(value.dropLast())
    else { return nil }
    switch value.last {
    case "H": return .seconds(amount * 3600)
    case "M": return .seconds(amount * 60)
    case "S": return .seconds(amount)
    case "m": return .milliseconds(amount)
    case "u": return .microseconds(amount)
    case "n": return .nanoseconds(amount)
    default: return nil
    }
  }
}

extension Status {
  public init(wire end: WireEnd) {
    let code = Status.Code(rawValue: Int(end.statusCode)) ?? .unknown
    self.init(code: code, message: end.statusMessage)
  }
}

extension WireEnd {
  init(status: Status, trailers: Metadata) {
    self.init(code: Int32(status.code.rawValue), message: status.message, trailers: trailers.wireEntries())
  }
}

extension MethodDescriptor {
  /// Parses `/package.Service/Method`; `nil` if the name has another shape.
  init?(wirePath path: String) {
    guard path.first == "/" else { return nil }
    let rest = path.dropFirst()
    guard let slash = rest.lastIndex(of: "/") else { return nil }
    let service = rest[..<slash]
    let method = rest[rest.index(after: slash)...]
    guard !service.isEmpty, !method.isEmpty else { return nil }
    self.init(fullyQualifiedService: String(service), method: String(method))
  }
}
