import Foundation
import SwiftProtobuf

/// Whether the gateway may send a forwarded call again after its upstream ended it
/// `UNAVAILABLE` part way, when the call may already have run (the upstream was killed, or its
/// connection broke). A call the upstream *refused* (`End.refused`: it was going away) or never
/// received is always sent again; this says which others are. Generated from proto/
/// (`Generated/RetrySafety+Generated.swift`): a method absent from the table is never sent again
/// once it may have run.
enum RetrySafety: Sendable {
  /// The method changes nothing (`option idempotency_level = NO_SIDE_EFFECTS`, every GET route).
  case noSideEffects
  /// A write its service does once per `idempotency_key`: safe when the request carries a key.
  case keyed(any KeyedRequest.Type)

  /// Whether a call of this method whose first (and only) message is `request` may be sent again.
  func allowsRetry(of request: Data?) -> Bool {
    switch self {
    case .noSideEffects:
      return true
    case .keyed(let type):
      guard let request, let decoded = try? type.init(serializedBytes: request) else { return false }
      return !decoded.idempotencyKey.isEmpty
    }
  }

  /// The method's safety, or `nil` for a method never sent again once it may have run.
  static func of(method: String) -> RetrySafety? { Self.generated[method] }
}

/// A request message with an `idempotency_key` field (generated conformances).
protocol KeyedRequest: SwiftProtobuf.Message {
  var idempotencyKey: String { get }
}
