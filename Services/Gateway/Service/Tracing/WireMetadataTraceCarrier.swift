import BinarioTransport
import Tracing

/// Reads trace context from a call's wire metadata (the first text value of a key).
struct WireMetadataExtractor: Extractor {
  func extract(key: String, from carrier: WireMetadata) -> String? {
    carrier.firstText(key)
  }
}

/// Appends trace context to wire metadata (the forwarded call's, from which the client's own
/// trace entries were already dropped).
struct WireMetadataInjector: Injector {
  func inject(_ value: String, forKey key: String, into carrier: inout WireMetadata) {
    carrier.append(.text(key, value))
  }
}
