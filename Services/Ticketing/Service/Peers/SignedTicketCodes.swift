import BinarioAuth
import BinarioDomain
import BinarioProto
import Crypto
import Foundation
import SwiftProtobuf

/// ``TicketCodes`` signed with Ed25519: `<base64url(payload)>.<base64url(signature)>`, the payload
/// a `binario.ticketing.v1.TicketCodePayload`. Codes are verified with any key kept (older keys
/// stay, so codes already issued still verify); new codes are signed with the newest.
public struct SignedTicketCodes: TicketCodes {
  struct Key: Sendable {
    let id: String
    let privateKey: Curve25519.Signing.PrivateKey
  }

  private let keys: [Key]

  /// Uses the keys in the store, making the first one at first start.
  public static func load(from store: TicketingStore, now: Date) async throws -> SignedTicketCodes {
    var stored = try await store.validationKeys()
    if stored.isEmpty {
      let key = Curve25519.Signing.PrivateKey()
      try await store.insertValidationKey(
        id: "tk-" + String(Int(now.timeIntervalSince1970)),
        privateKey: key.rawRepresentation,
        at: now
      )
      stored = try await store.validationKeys()
    }
    return SignedTicketCodes(keys: try stored.map { Key(id: $0.id, privateKey: try .init(rawRepresentation: $0.privateKey)) })
  }

  init(keys: [Key]) {
    self.keys = keys
  }

  /// Every public key, newest first: what `GetValidationKeys` publishes.
  public var publicKeys: [(id: String, rawKey: Data)] {
    keys.map { ($0.id, $0.privateKey.publicKey.rawRepresentation) }
  }

  public func code(for claims: TicketCodeClaims) -> String {
    let key = keys[0]
    let payload = Binario_Ticketing_V1_TicketCodePayload.with {
      $0.keyID = key.id
      $0.ticketID = claims.ticketID
      $0.holderID = claims.holderID
      $0.kind = claims.kind.proto
      $0.validFrom = Int64(claims.validFrom.timeIntervalSince1970)
      $0.validUntil = Int64(claims.validUntil.timeIntervalSince1970)
    }
    let bytes = (try? payload.serializedBytes() as [UInt8]) ?? []
    let signature = (try? key.privateKey.signature(for: bytes)) ?? Data()
    return Base64URL.encode(bytes) + "." + Base64URL.encode(Array(signature))
  }

  public func verify(_ code: String) throws -> TicketCodeClaims {
    let parts = code.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let bytes = Base64URL.decode(String(parts[0])), let signature = Base64URL.decode(String(parts[1])),
      let payload = try? Binario_Ticketing_V1_TicketCodePayload(serializedBytes: bytes)
    else { throw ServiceError.invalid("code", "not a ticket's validation code") }
    guard let key = keys.first(where: { $0.id == payload.keyID }),
      key.privateKey.publicKey.isValidSignature(signature, for: bytes)
    else { throw ServiceError.invalid("code", "the code's signature does not verify: it is forged or altered") }
    guard let kind = Ticket.Kind(payload.kind) else { throw ServiceError.invalid("code", "not a ticket's validation code") }
    return TicketCodeClaims(
      ticketID: payload.ticketID,
      holderID: payload.holderID,
      kind: kind,
      validFrom: Date(timeIntervalSince1970: TimeInterval(payload.validFrom)),
      validUntil: Date(timeIntervalSince1970: TimeInterval(payload.validUntil))
    )
  }
}
