import GRPCCore
import Logging

/// The one place a service's failures become statuses, for every method of every service (the
/// runner installs it innermost, so logging, metrics and traces see the status it chose):
/// an `RPCError` or anything `RPCErrorConvertible` (every ``BinarioDomain/ServiceError``) is its
/// own status, cancellation is `CANCELLED`, and anything else is a fault: logged here with the
/// method, and `INTERNAL` with no detail for the caller. Errors thrown while a server stream is
/// being written are converted the same way.
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
    next: (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
  ) async throws -> StreamingServerResponse<Output> {
    let response: StreamingServerResponse<Output>
    do {
      response = try await next(request, context)
    } catch {
      throw self.status(for: error, method: context.descriptor.method)
    }
    guard case .success(var contents) = response.accepted else { return response }
    let produce = contents.producer
    let method = context.descriptor.method
    contents.producer = { writer in
      do {
        return try await produce(writer)
      } catch {
        throw self.status(for: error, method: method)
      }
    }
    return StreamingServerResponse(accepted: .success(contents))
  }

  /// The status a caller gets for `error`.
  func status(for error: any Error, method: String) -> RPCError {
    switch error {
    case let error as RPCError:
      return error
    case let error as any RPCErrorConvertible:
      return RPCError(error)
    case is CancellationError:
      return RPCError(code: .cancelled, message: "the call was cancelled")
    default:
      self.logger.error("\(self.serviceName) failed", metadata: ["rpc.method": "\(method)", "error": "\(error)"])
      return RPCError(code: .internalError, message: "\(self.serviceName) could not complete \(method); try again later")
    }
  }
}
