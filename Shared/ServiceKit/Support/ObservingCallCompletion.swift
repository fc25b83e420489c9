import GRPCCore

/// Runs `next` and reports how the call ended, whatever its kind.
///
/// A handler's outcome is only known once its response producer finishes (for unary calls too:
/// GRPCCore wraps them in a producer that writes the single message), so the producer is wrapped.
/// An error thrown by `next` itself, or a rejected response, is reported at once.
/// `onComplete` runs exactly once, except when the transport fails before the producer starts.
func observingCallCompletion<Input: Sendable, Output: Sendable>(
  request: StreamingServerRequest<Input>,
  context: ServerContext,
  next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>,
  onComplete: @escaping @Sendable (RPCOutcome) -> Void
) async throws -> StreamingServerResponse<Output> {
  var response: StreamingServerResponse<Output>
  do {
    response = try await next(request, context)
  } catch {
    onComplete(RPCOutcome(error: error))
    throw error
  }
  switch response.accepted {
  case .success(var contents):
    let producer = contents.producer
    contents.producer = { writer in
      do {
        let trailers = try await producer(writer)
        onComplete(.ok)
        return trailers
      } catch {
        onComplete(RPCOutcome(error: error))
        throw error
      }
    }
    response.accepted = .success(contents)
  case .failure(let error):
    onComplete(RPCOutcome(error: error))
  }
  return response
}
