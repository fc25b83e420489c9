import BinarioProto
import Crypto
import Foundation
import GRPCCore
import GRPCProtobuf
import Synchronization

/// Just enough of `binario.identity.v1.Identity` for the gateway's access checks:
///
/// - `GetSigningKeys` answers ``keys`` (the test may rotate them);
/// - `WatchRevocations` streams what the test sends with ``revoke(_:until:)``, until cancelled;
/// - `Logout` answers OK (and tells the gateway nothing else);
/// - `GetMe` answers a profile whose user id is the `x-user-id` it received;
/// - `CreateDriver` answers OK.
final class FakeIdentityService: RegistrableRPCService, Sendable {
  typealias M = Binario_Identity_V1_Identity.Method

  private let keys: Mutex<[String: Curve25519.Signing.PublicKey]>
  private let revocations: AsyncStream<Binario_Identity_V1_WatchRevocationsResponse>
  private let revocationsContinuation: AsyncStream<Binario_Identity_V1_WatchRevocationsResponse>.Continuation

  init(keys: [String: Curve25519.Signing.PublicKey]) {
    self.keys = Mutex(keys)
    (self.revocations, self.revocationsContinuation) = AsyncStream.makeStream()
  }

  func setKeys(_ keys: [String: Curve25519.Signing.PublicKey]) {
    self.keys.withLock { $0 = keys }
  }

  func revoke(_ sessionIDs: [String], until: Date) {
    self.revocationsContinuation.yield(
      .with {
        $0.sessionIds = sessionIDs
        $0.rememberUntil = .init(date: until)
      }
    )
  }

  func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
    router.registerHandler(
      forMethod: M.GetSigningKeys.descriptor,
      deserializer: ProtobufDeserializer<Binario_Identity_V1_GetSigningKeysRequest>(),
      serializer: ProtobufSerializer<Binario_Identity_V1_GetSigningKeysResponse>()
    ) { request, _ in
      _ = try await ServerRequest(stream: request).message
      let keys = self.keys.withLock { $0 }
      return StreamingServerResponse(
        single: ServerResponse(
          message: .with { response in
            response.keys = keys.map { keyID, key in
              .with {
                $0.keyID = keyID
                $0.algorithm = "EdDSA"
                $0.publicKey = key.rawRepresentation
              }
            }
          }
        )
      )
    }

    router.registerHandler(
      forMethod: M.WatchRevocations.descriptor,
      deserializer: ProtobufDeserializer<Binario_Identity_V1_WatchRevocationsRequest>(),
      serializer: ProtobufSerializer<Binario_Identity_V1_WatchRevocationsResponse>()
    ) { request, context in
      _ = try await ServerRequest(stream: request).message
      let revocations = self.revocations
      return StreamingServerResponse { writer in
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask { try await context.cancellation.cancelled }
          group.addTask {
            for await revocation in revocations { try await writer.write(revocation) }
          }
          _ = try await group.next()
          group.cancelAll()
        }
        return [:]
      }
    }

    router.registerHandler(
      forMethod: M.Logout.descriptor,
      deserializer: ProtobufDeserializer<Binario_Identity_V1_LogoutRequest>(),
      serializer: ProtobufSerializer<Binario_Identity_V1_LogoutResponse>()
    ) { request, _ in
      _ = try await ServerRequest(stream: request).message
      return StreamingServerResponse(single: ServerResponse(message: .init()))
    }

    router.registerHandler(
      forMethod: M.GetMe.descriptor,
      deserializer: ProtobufDeserializer<Binario_Identity_V1_GetMeRequest>(),
      serializer: ProtobufSerializer<Binario_Identity_V1_GetMeResponse>()
    ) { request, _ in
      _ = try await ServerRequest(stream: request).message
      let userID = request.metadata[stringValues: "x-user-id"].first(where: { _ in true }) ?? ""
      return StreamingServerResponse(single: ServerResponse(message: .with { $0.profile.userID = userID }))
    }

    router.registerHandler(
      forMethod: M.CreateDriver.descriptor,
      deserializer: ProtobufDeserializer<Binario_Identity_V1_CreateDriverRequest>(),
      serializer: ProtobufSerializer<Binario_Identity_V1_CreateDriverResponse>()
    ) { request, _ in
      _ = try await ServerRequest(stream: request).message
      return StreamingServerResponse(single: ServerResponse(message: .init()))
    }
  }
}
