import BinarioAuth
import BinarioDomain
import BinarioServiceKit
import BinarioTracing
import GRPCCore
import Tracing

/// `test.Strings`: one method of each call kind, with ways to fail.
///
/// - `Echo` (unary) returns its message; `fail:<n>` throws an `RPCError` with code n, `boom`
///   throws an error that is not an `RPCError`. It answers `RequestID.current` for `request-id?`
///   and the current span's `traceparent` (``PropagatingTracer``'s) for `traceparent?`.
/// - `Collect` (client streaming) joins the messages.
/// - `Expand` (server streaming) sends each character, then waits for `release` (if given)
///   before ending; for `scope?` it sends the task-local values its producer runs with.
/// - `Chat` (bidirectional) echoes each message; `fail` ends the call with INVALID_ARGUMENT.
/// - `Hang` (unary) sleeps until its task is cancelled, ignoring the RPC's cancellation.
struct StringsService: RegistrableRPCService {
  static let serviceName = "test.Strings"
  static let echo = MethodDescriptor(fullyQualifiedService: serviceName, method: "Echo", type: .unary)
  static let collect = MethodDescriptor(fullyQualifiedService: serviceName, method: "Collect", type: .clientStreaming)
  static let expand = MethodDescriptor(fullyQualifiedService: serviceName, method: "Expand", type: .serverStreaming)
  static let chat = MethodDescriptor(fullyQualifiedService: serviceName, method: "Chat", type: .bidirectionalStreaming)
  static let hang = MethodDescriptor(fullyQualifiedService: serviceName, method: "Hang", type: .unary)

  struct NotAnRPCError: Error {}

  var release: AsyncStream<Void>?

  func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
    router.registerHandler(
      forMethod: Self.echo,
      deserializer: StringDeserializer(),
      serializer: StringSerializer()
    ) { request, _ in
      let message = try await ServerRequest(stream: request).message
      if message == "request-id?" {
        return StreamingServerResponse(single: ServerResponse(message: RequestID.current ?? "none"))
      }
      if message == "traceparent?" {
        let trace = ServiceContext.current?.traceContext?.traceParentHeaderValue
        return StreamingServerResponse(single: ServerResponse(message: trace ?? "none"))
      }
      if message == "boom" { throw NotAnRPCError() }
      if message.hasPrefix("fail:"), let raw = Int(message.dropFirst(5)), let code = RPCError.Code(Status.Code(rawValue: raw)!) {
        throw RPCError(code: code, message: "asked to fail")
      }
      return StreamingServerResponse(single: ServerResponse(message: message))
    }

    router.registerHandler(
      forMethod: Self.collect,
      deserializer: StringDeserializer(),
      serializer: StringSerializer()
    ) { request, _ in
      var joined = ""
      for try await message in request.messages { joined += message }
      return StreamingServerResponse(single: ServerResponse(message: joined))
    }

    let release = self.release
    router.registerHandler(
      forMethod: Self.expand,
      deserializer: StringDeserializer(),
      serializer: StringSerializer()
    ) { request, _ in
      let message = try await ServerRequest(stream: request).message
      return StreamingServerResponse { writer in
        if message == "scope?" {
          // What a streaming handler, running in the response's producer, sees of its call.
          try await writer.write("request-id=\(RequestID.current ?? "none")")
          try await writer.write("caller=\(CallerIdentity.current?.userID ?? "none")")
          try await writer.write("language=\(RequestLanguage.current.rawValue)")
          try await writer.write("traceparent=\(ServiceContext.current?.traceContext?.traceParentHeaderValue ?? "none")")
          return [:]
        }
        for character in message { try await writer.write(String(character)) }
        if let release {
          for await _ in release { break }
        }
        return [:]
      }
    }

    router.registerHandler(
      forMethod: Self.chat,
      deserializer: StringDeserializer(),
      serializer: StringSerializer()
    ) { request, _ in
      StreamingServerResponse { writer in
        for try await message in request.messages {
          if message == "fail" { throw RPCError(code: .invalidArgument, message: "asked to fail") }
          try await writer.write(message)
        }
        return [:]
      }
    }

    router.registerHandler(
      forMethod: Self.hang,
      deserializer: StringDeserializer(),
      serializer: StringSerializer()
    ) { _, _ in
      try await Task.sleep(for: .seconds(3600))
      return StreamingServerResponse(single: ServerResponse(message: "woke"))
    }
  }
}

extension GRPCClient {
  /// Calls `test.Strings/Echo`; returns the reply or throws the call's `RPCError`.
  func echo(_ message: String, metadata: Metadata = [:]) async throws -> String {
    try await self.unary(
      request: ClientRequest(message: message, metadata: metadata),
      descriptor: StringsService.echo,
      serializer: StringSerializer(),
      deserializer: StringDeserializer(),
      options: .defaults
    ) { try $0.message }
  }

  /// Calls `test.Strings/Echo` and returns the whole response (metadata included).
  func echoResponse(_ message: String, metadata: Metadata = [:]) async throws -> ClientResponse<String> {
    try await self.unary(
      request: ClientRequest(message: message, metadata: metadata),
      descriptor: StringsService.echo,
      serializer: StringSerializer(),
      deserializer: StringDeserializer(),
      options: .defaults
    ) { $0 }
  }

  /// Calls `test.Strings/Expand` with `message` and hands the response stream to `body`.
  func expand<Result: Sendable>(
    _ message: String,
    _ body: @Sendable @escaping (StreamingClientResponse<String>) async throws -> Result
  ) async throws -> Result {
    try await self.serverStreaming(
      request: ClientRequest(message: message),
      descriptor: StringsService.expand,
      serializer: StringSerializer(),
      deserializer: StringDeserializer(),
      options: .defaults,
      onResponse: body
    )
  }
}
