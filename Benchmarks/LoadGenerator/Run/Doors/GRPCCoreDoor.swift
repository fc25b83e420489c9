import GRPCCore
import GRPCProtobuf
import SwiftProtobuf

/// The Binario door and the gRPC door: GRPCCore's clients, over the Binario transport or over
/// HTTP/2 (grpc-swift-nio-transport), with the generated method descriptors. Calls are spread
/// over several connections, as many people's phones would be (a connection carries at most 100
/// calls at once, and the notification streams stay open on them).
struct GRPCCoreDoor<Transport: ClientTransport>: Door {
  let kind: DoorKind
  let clients: [GRPCClient<Transport>]
  /// Every call's deadline: a call the suite cannot answer in time counts as failed.
  let options: CallOptions

  init(kind: DoorKind, clients: [GRPCClient<Transport>], timeout: Duration) {
    self.kind = kind
    self.clients = clients
    var options = CallOptions.defaults
    options.timeout = timeout
    self.options = options
  }

  func unary<Request: Message & Sendable, Response: Message & Sendable>(
    _ method: MethodDescriptor,
    _ request: Request,
    as caller: Caller,
    answer: Response.Type
  ) async throws -> Response {
    do {
      return try await clients.randomElement()!.unary(
        request: ClientRequest(message: request, metadata: Self.metadata(caller)),
        descriptor: method,
        serializer: ProtobufSerializer<Request>(),
        deserializer: ProtobufDeserializer<Response>(),
        options: options
      ) { try $0.message }
    } catch {
      throw CallFailure.from(error)
    }
  }

  func serverStream<Request: Message & Sendable, Response: Message & Sendable>(
    _ method: MethodDescriptor,
    _ request: Request,
    as caller: Caller,
    answer: Response.Type,
    received: @escaping @Sendable (Response) -> Void
  ) async throws {
    do {
      try await clients.randomElement()!.serverStreaming(
        request: ClientRequest(message: request, metadata: Self.metadata(caller)),
        descriptor: method,
        serializer: ProtobufSerializer<Request>(),
        deserializer: ProtobufDeserializer<Response>(),
        options: .defaults
      ) { response in
        for try await message in response.messages { received(message) }
      }
    } catch is CancellationError {
      return
    } catch let error as RPCError where error.code == .cancelled && Task.isCancelled {
      return
    } catch {
      throw CallFailure.from(error)
    }
  }

  private static func metadata(_ caller: Caller) -> Metadata {
    var metadata = Metadata()
    if let authorization = caller.authorization { metadata.addString(authorization, forKey: "authorization") }
    return metadata
  }
}
