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
  /// A stream of reads that resumes after a cursor: the request's `cursor` says where, each
  /// answer's `cursor` where it got to. Interrupted part way, it is opened again after the last
  /// cursor the client was sent, and the client sees one stream.
  case resumable(any ResumableRequest.Type, any CursorResponse.Type)

  /// Whether a call of this method whose first (and only) message is `request` may be sent again.
  func allowsRetry(of request: Data?) -> Bool {
    switch self {
    case .noSideEffects, .resumable:
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

/// A stream's request that says where to resume (generated conformances).
protocol ResumableRequest: SwiftProtobuf.Message {
  var cursor: String { get set }
}

/// A stream's answer that says where it got to (generated conformances).
protocol CursorResponse: SwiftProtobuf.Message {
  var cursor: String { get }
}

extension RetrySafety {
  /// For a resumable stream: the cursor an answer carries, if it decodes and has one.
  func cursor(of answer: Data) -> String? {
    guard case .resumable(_, let response) = self, let decoded = try? response.init(serializedBytes: answer) else { return nil }
    return decoded.cursor.isEmpty ? nil : decoded.cursor
  }

  /// For a resumable stream: `request` asking to resume after `cursor`.
  func request(_ request: Data?, resumingAfter cursor: String) -> Data? {
    guard case .resumable(let type, _) = self, var decoded = try? type.init(serializedBytes: request ?? Data()) else { return nil }
    decoded.cursor = cursor
    return try? decoded.serializedData()
  }
}
