import Foundation
import GRPCCore

/// gRPC's interoperability test server (`grpc.testing.TestService`), as its specification
/// describes it: echoes the metadata the cases ask for, answers with the payload sizes and
/// statuses requested. `UnimplementedCall` stays unimplemented on purpose.
struct InteropTestService: Grpc_Testing_TestService.ServiceProtocol {
  static let initialMetadataKey = "x-grpc-test-echo-initial"
  static let trailingMetadataKey = "x-grpc-test-echo-trailing-bin"

  private static func echoedMetadata(_ metadata: Metadata) -> (initial: Metadata, trailing: Metadata) {
    var initial = Metadata()
    for value in metadata[stringValues: Self.initialMetadataKey] {
      initial.addString(value, forKey: Self.initialMetadataKey)
    }
    var trailing = Metadata()
    for value in metadata[binaryValues: Self.trailingMetadataKey] {
      trailing.addBinary(value, forKey: Self.trailingMetadataKey)
    }
    return (initial, trailing)
  }

  private static func payload(size: Int32) -> Grpc_Testing_Payload {
    .with { $0.body = Data(count: Int(size)) }
  }

  private static func requestedError(_ status: Grpc_Testing_EchoStatus?) -> RPCError? {
    guard let status, status.code != 0 else { return nil }
    return RPCError(code: RPCError.Code(Status.Code(rawValue: Int(status.code)) ?? .unknown) ?? .unknown, message: status.message)
  }

  func emptyCall(
    request: ServerRequest<Grpc_Testing_Empty>,
    context: ServerContext
  ) async throws -> ServerResponse<Grpc_Testing_Empty> {
    let (initial, trailing) = Self.echoedMetadata(request.metadata)
    return ServerResponse(message: Grpc_Testing_Empty(), metadata: initial, trailingMetadata: trailing)
  }

  func unaryCall(
    request: ServerRequest<Grpc_Testing_SimpleRequest>,
    context: ServerContext
  ) async throws -> ServerResponse<Grpc_Testing_SimpleResponse> {
    let (initial, trailing) = Self.echoedMetadata(request.metadata)
    if var error = Self.requestedError(request.message.hasResponseStatus ? request.message.responseStatus : nil) {
      error.metadata = trailing
      return ServerResponse(error: error)
    }
    let response = Grpc_Testing_SimpleResponse.with {
      $0.payload = Self.payload(size: request.message.responseSize)
    }
    return ServerResponse(message: response, metadata: initial, trailingMetadata: trailing)
  }

  func streamingOutputCall(
    request: ServerRequest<Grpc_Testing_StreamingOutputCallRequest>,
    context: ServerContext
  ) async throws -> StreamingServerResponse<Grpc_Testing_StreamingOutputCallResponse> {
    StreamingServerResponse { writer in
      for parameters in request.message.responseParameters {
        try await writer.write(.with { $0.payload = Self.payload(size: parameters.size) })
      }
      return [:]
    }
  }

  func streamingInputCall(
    request: StreamingServerRequest<Grpc_Testing_StreamingInputCallRequest>,
    context: ServerContext
  ) async throws -> ServerResponse<Grpc_Testing_StreamingInputCallResponse> {
    var total = 0
    for try await message in request.messages {
      total += message.payload.body.count
    }
    return ServerResponse(message: .with { $0.aggregatedPayloadSize = Int32(total) })
  }

  func fullDuplexCall(
    request: StreamingServerRequest<Grpc_Testing_StreamingOutputCallRequest>,
    context: ServerContext
  ) async throws -> StreamingServerResponse<Grpc_Testing_StreamingOutputCallResponse> {
    let (initial, trailing) = Self.echoedMetadata(request.metadata)
    return StreamingServerResponse(metadata: initial) { writer in
      for try await message in request.messages {
        if let error = Self.requestedError(message.hasResponseStatus ? message.responseStatus : nil) {
          throw error
        }
        for parameters in message.responseParameters {
          try await writer.write(.with { $0.payload = Self.payload(size: parameters.size) })
        }
      }
      return trailing
    }
  }

  func halfDuplexCall(
    request: StreamingServerRequest<Grpc_Testing_StreamingOutputCallRequest>,
    context: ServerContext
  ) async throws -> StreamingServerResponse<Grpc_Testing_StreamingOutputCallResponse> {
    var received: [Grpc_Testing_StreamingOutputCallRequest] = []
    for try await message in request.messages { received.append(message) }
    let all = received
    return StreamingServerResponse { writer in
      for message in all {
        for parameters in message.responseParameters {
          try await writer.write(.with { $0.payload = Self.payload(size: parameters.size) })
        }
      }
      return [:]
    }
  }

  func unimplementedCall(
    request: ServerRequest<Grpc_Testing_Empty>,
    context: ServerContext
  ) async throws -> ServerResponse<Grpc_Testing_Empty> {
    throw RPCError(code: .unimplemented, message: "UnimplementedCall is unimplemented on purpose")
  }
}
