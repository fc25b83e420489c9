import GRPCCore
import Tracing

/// Reads trace context from a call's metadata (the first value of a key).
public struct MetadataExtractor: Extractor {
  public init() {}

  public func extract(key: String, from carrier: Metadata) -> String? {
    for value in carrier[stringValues: key] { return value }
    return nil
  }
}

/// Writes trace context into a call's metadata, replacing what was there.
public struct MetadataInjector: Injector {
  public init() {}

  public func inject(_ value: String, forKey key: String, into carrier: inout Metadata) {
    carrier.replaceOrAddString(value, forKey: key)
  }
}
