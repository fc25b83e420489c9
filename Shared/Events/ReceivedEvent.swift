import BinarioDomain
import Foundation
import SwiftProtobuf

/// One event as a consumer receives it.
public struct ReceivedEvent: Sendable, Hashable {
  /// Its producer and sequence: what the consumer's store moves its cursor to in the
  /// transaction that applies it.
  public let position: EventPosition
  /// The payload's message name (`binario.identity.v1.AccountDeleted`).
  public let type: String
  public let subjects: [String]
  public let occurredAt: Date
  public let payload: Data

  public init(position: EventPosition, type: String, subjects: [String], occurredAt: Date, payload: Data) {
    self.position = position
    self.type = type
    self.subjects = subjects
    self.occurredAt = occurredAt
    self.payload = payload
  }

  /// Whether it carries a `Payload`.
  public func `is`<Payload: SwiftProtobuf.Message>(_ payload: Payload.Type) -> Bool {
    type == Payload.protoMessageName
  }

  /// The payload, decoded as `Payload`.
  public func payload<Payload: SwiftProtobuf.Message>(as payload: Payload.Type) throws -> Payload {
    try Payload(serializedBytes: self.payload)
  }
}

/// What a consumer's handler did with an event.
public enum EventOutcome: Sendable, Hashable {
  /// Its effect committed together with the cursor (`Database.advanceEventCursor(to:at:)`).
  case applied
  /// Nothing to do here: the subscription moves the cursor past it.
  case ignored
}
