import BinarioAuth
import BinarioDomain
import GRPCCore
import ServiceContextModule

/// Everything a service does around each call it serves, as one GRPCCore interceptor: the
/// call's span (``TracingServerInterceptor``), its request id and log line
/// (``LoggingServerInterceptor``), its metrics (``MetricsServerInterceptor``), the service's own
/// access check (``BinarioAuth/AuthorizationServerInterceptor``) and its errors as statuses in
/// the caller's language (``ErrorStatusServerInterceptor``), in that order; any of them may be
/// left out.
///
/// Why one interceptor and not five: GRPCCore runs each interceptor of a chain through its own
/// generic frames (about 1.7 KB of a call's task memory each, kept for as long as a server stream
/// stays open, and a task hop's worth of CPU on every call). Here the five are plain functions
/// called in one frame, and the handler and its response producer run inside one scope that binds
/// every task-local value they read (`ServiceContext.current`, ``RequestID/current``,
/// ``BinarioDomain/RequestLanguage/current``, ``BinarioAuth/CallerIdentity/current``,
/// ``BinarioAuth/DeviceCredential/current``). Each of the five types is also an interceptor on
/// its own (a pipeline of that one), for tests and small servers.
public struct ServerCallPipeline: ServerInterceptor {
  let tracing: TracingServerInterceptor?
  let logging: LoggingServerInterceptor?
  let metrics: MetricsServerInterceptor?
  let authorization: AuthorizationServerInterceptor?
  let errors: ErrorStatusServerInterceptor?

  public init(
    tracing: TracingServerInterceptor? = nil,
    logging: LoggingServerInterceptor? = nil,
    metrics: MetricsServerInterceptor? = nil,
    authorization: AuthorizationServerInterceptor? = nil,
    errors: ErrorStatusServerInterceptor? = nil
  ) {
    self.tracing = tracing
    self.logging = logging
    self.metrics = metrics
    self.authorization = authorization
    self.errors = errors
  }

  public func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingServerRequest<Input>,
    context: ServerContext,
    next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
  ) async throws -> StreamingServerResponse<Output> {
    var request = request
    let started = ContinuousClock.now
    let span = self.tracing?.startSpan(metadata: request.metadata, context: context)
    let requestID = self.logging?.requestID(taking: &request.metadata)
    let language = self.errors == nil ? RequestLanguage.current : Language(metadata: request.metadata)
    // Checked now, refused inside the scope below: a refusal is logged, counted and traced too.
    let admission = Result { () throws(RPCError) -> CallAdmission? in
      try self.authorization?.admit(metadata: request.metadata, context: context)
    }
    let admitted = (try? admission.get()) ?? nil
    let scope = CallScope(
      serviceContext: span?.context ?? ServiceContext.current,
      requestID: requestID ?? RequestID.current,
      language: language,
      caller: admitted.map(\.caller) ?? CallerIdentity.current,
      deviceToken: admitted.map(\.deviceToken) ?? DeviceCredential.current
    )
    let (metrics, logging, errors) = (self.metrics, self.logging, self.errors)
    let method = context.descriptor

    // Innermost first, as the separate interceptors' completions ran: metrics, the log line,
    // then the span (so the line is written while the span is still open).
    @Sendable func finish(_ outcome: RPCOutcome) {
      let elapsed = ContinuousClock.now - started
      metrics?.record(method: method.fullyQualifiedMethod, outcome: outcome, elapsed: elapsed)
      if let logging, let requestID {
        logging.logCallEnded(requestID: requestID, context: context, outcome: outcome, elapsed: elapsed)
      }
      if let span { CallSpan.end(span.span, outcome: outcome, kind: .server) }
    }
    // The status the caller gets for `error`, once everything outside has seen it.
    @Sendable func failed(_ error: any Error) -> any Error {
      let status = errors?.status(for: error, method: method.method, language: language) ?? error
      finish(RPCOutcome(error: status))
      return status
    }

    return try await scope.bound {
      if case .failure(let refusal) = admission { throw failed(refusal) }
      var response: StreamingServerResponse<Output>
      do {
        response = try await next(request, context)
      } catch {
        throw failed(error)
      }
      switch response.accepted {
      case .success(var contents):
        if let requestID {
          contents.metadata.replaceOrAddString(requestID, forKey: RequestID.metadataKey)
        }
        // The outcome of every kind of call is known only when its producer ends (GRPCCore wraps
        // a unary handler's answer in a producer too); a streaming handler runs in it.
        let produce = contents.producer
        contents.producer = { writer in
          try await scope.bound {
            do {
              let trailers = try await produce(writer)
              finish(.ok)
              return trailers
            } catch {
              throw failed(error)
            }
          }
        }
        response.accepted = .success(contents)
      case .failure(let error):
        finish(RPCOutcome(error: error))
      }
      return response
    }
  }
}

/// The task-local values a handler and its response producer run with.
private struct CallScope: Sendable {
  var serviceContext: ServiceContext?
  var requestID: String?
  var language: Language
  var caller: CallerIdentity?
  var deviceToken: String?

  func bound<Result>(_ body: () async throws -> Result) async throws -> Result {
    try await ServiceContext.$current.withValue(self.serviceContext) {
      try await RequestID.$current.withValue(self.requestID) {
        try await RequestLanguage.$current.withValue(self.language) {
          try await CallerIdentity.$current.withValue(self.caller) {
            try await DeviceCredential.$current.withValue(self.deviceToken) { try await body() }
          }
        }
      }
    }
  }
}
