import BinarioDomain
import GRPCCore
import Logging
import Testing

@testable import BinarioServiceKit

/// `test.Failing`: each method fails in its own way, unary or after a first streamed message.
private struct FailingService: RegistrableRPCService {
  static let unary = MethodDescriptor(fullyQualifiedService: "test.Failing", method: "Unary", type: .unary)
  static let stream = MethodDescriptor(fullyQualifiedService: "test.Failing", method: "Stream", type: .serverStreaming)

  struct Fault: Error {}

  /// What a request's text makes the method throw.
  static func failure(_ text: String) -> any Error {
    switch text {
    case "invalid": ServiceError.invalid([FieldProblem(field: "email", description: "is not an email address")])
    case "missing": ServiceError.notFound("no ride r-1")
    case "cancelled": CancellationError()
    case "rpc": RPCError(code: .aborted, message: "as thrown")
    default: Fault()
    }
  }

  func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
    router.registerHandler(forMethod: Self.unary, deserializer: StringDeserializer(), serializer: StringSerializer()) { request, _ in
      throw Self.failure(try await ServerRequest(stream: request).message)
    }
    router.registerHandler(forMethod: Self.stream, deserializer: StringDeserializer(), serializer: StringSerializer()) { request, _ in
      let text = try await ServerRequest(stream: request).message
      return StreamingServerResponse { writer in
        try await writer.write("first")
        throw Self.failure(text)
      }
    }
  }
}

@Suite("Errors become statuses")
struct ErrorStatusServerInterceptorTests {
  let interceptor = ErrorStatusServerInterceptor(serviceName: "strings", logger: Logger(label: "test"))

  private func unaryError(_ text: String) async throws -> RPCError? {
    try await withInProcessServer(services: [FailingService()], interceptors: [interceptor]) { client in
      do {
        _ = try await client.unary(
          request: ClientRequest(message: text),
          descriptor: FailingService.unary,
          serializer: StringSerializer(),
          deserializer: StringDeserializer(),
          options: .defaults
        ) { try $0.message }
        return nil
      } catch let error as RPCError {
        return error
      }
    }
  }

  private func streamedError(_ text: String) async throws -> (messages: [String], error: RPCError?) {
    try await withInProcessServer(services: [FailingService()], interceptors: [interceptor]) { client in
      try await client.serverStreaming(
        request: ClientRequest(message: text),
        descriptor: FailingService.stream,
        serializer: StringSerializer(),
        deserializer: StringDeserializer(),
        options: .defaults
      ) { response in
        var messages: [String] = []
        do {
          for try await message in response.messages { messages.append(message) }
          return (messages, nil)
        } catch let error as RPCError {
          return (messages, error)
        }
      }
    }
  }

  @Test("a domain refusal is its status, with the fields at fault as BadRequest")
  func domainRefusal() async throws {
    let error = try #require(try await unaryError("invalid"))
    #expect(error.code == .invalidArgument)
    #expect(error.message == "email: is not an email address")
    // With no language asked for, the localized words are the English ones.
    #expect(
      error.fieldViolations == [
        FieldViolation(field: "email", description: "is not an email address", localizedDescription: "is not an email address")
      ]
    )
    #expect(try await unaryError("missing")?.code == .notFound)
    #expect(try await unaryError("rpc")?.code == .aborted)
  }

  @Test("cancellation is CANCELLED; anything else is INTERNAL naming the service and method, never the error")
  func faults() async throws {
    #expect(try await unaryError("cancelled")?.code == .cancelled)
    let fault = try #require(try await unaryError("fault"))
    #expect(fault.code == .internalError)
    #expect(fault.message == "strings could not complete Unary; try again later")
  }

  @Test("an error thrown after a stream began is converted the same way")
  func midStream() async throws {
    let refused = try await streamedError("missing")
    #expect(refused.messages == ["first"])
    #expect(refused.error?.code == .notFound)
    #expect(refused.error?.message == "no ride r-1")
    let fault = try await streamedError("fault")
    #expect(fault.messages == ["first"])
    #expect(fault.error?.code == .internalError)
    #expect(fault.error?.message == "strings could not complete Stream; try again later")
  }
}
