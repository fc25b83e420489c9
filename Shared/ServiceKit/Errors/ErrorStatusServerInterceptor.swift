import BinarioDomain
import GRPCCore
import Logging

/// The one place a service's failures become statuses, for every method of every service (the
/// runner installs it innermost, so logging, metrics and traces see the status it chose):
/// an `RPCError` or anything `RPCErrorConvertible` (every ``BinarioDomain/ServiceError``) is its
/// own status, cancellation is `CANCELLED`, and anything else is a fault: logged here with the
/// method, and `INTERNAL` with no detail for the caller. Errors thrown while a server stream is
/// being written are converted the same way. Every refusal carries its words in the language
/// the call asked for (`accept-language`, ``BinarioDomain/Language/init(metadata:)``) as
/// `google.rpc.LocalizedMessage` details, and the handler runs with it as
/// ``BinarioDomain/RequestLanguage/current``.
public struct ErrorStatusServerInterceptor: ServerInterceptor {
  let serviceName: String
  let logger: Logger

  public init(serviceName: String, logger: Logger) {
    self.serviceName = serviceName
    self.logger = logger
  }

  public func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingServerRequest<Input>,
    context: ServerContext,
    next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
  ) async throws -> StreamingServerResponse<Output> {
    try await ServerCallPipeline(errors: self).intercept(request: request, context: context, next: next)
  }

  /// The status a caller gets for `error`.
  func status(for error: any Error, method: String, language: Language = .fallback) -> RPCError {
    switch error {
    case let error as ServiceError:
      return error.rpcError(in: language)
    case let error as RPCError:
      return error
    case let error as any RPCErrorConvertible:
      return RPCError(error)
    case is CancellationError:
      return .localized(.cancelled, "the call was cancelled", in: language)
    default:
      self.logger.error("\(self.serviceName) failed", metadata: ["rpc.method": "\(method)", "error": "\(error)"])
      return .localized(.internalError, "\(self.serviceName) could not complete \(method); try again later", in: language)
    }
  }
}

extension Language {
  /// The language a call's metadata asks for, else ``fallback``.
  public init(metadata: Metadata) {
    let asked = metadata[stringValues: Self.metadataKey].first { _ in true }
    self = asked.flatMap { Language(acceptLanguage: $0) } ?? .fallback
  }
}
