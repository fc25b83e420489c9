import BinarioDomain
import GRPCCore
import Logging

/// How every service's handlers answer a failure: a ``BinarioDomain/ServiceError`` becomes its
/// status, an `RPCError` passes through, cancellation is `CANCELLED`, and anything else is a fault:
/// logged here, and `INTERNAL` with no detail for the caller.
///
/// ```swift
/// func handle<R: Sendable>(_ method: String, _ body: () async throws -> R) async throws -> R {
///   try await translatingErrors(service: "identity", method: method, logger: logger, body)
/// }
/// ```
public func translatingErrors<Result: Sendable>(
  service: String,
  method: String,
  logger: Logger,
  _ body: () async throws -> Result
) async throws -> Result {
  do {
    return try await body()
  } catch let error as ServiceError {
    throw error.rpcError
  } catch let error as RPCError {
    throw error
  } catch is CancellationError {
    throw RPCError(code: .cancelled, message: "the call was cancelled")
  } catch {
    logger.error("\(service) failed", metadata: ["rpc.method": "\(method)", "error": "\(error)"])
    throw RPCError(code: .internalError, message: "\(service) could not complete \(method); try again later")
  }
}
