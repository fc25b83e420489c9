import BinarioDomain
import BinarioTransport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A request's context on the HTTP/JSON front door: Hummingbird's, plus the connection, whose
/// event loop the forwarded call runs on and whose peer is the client address.
public struct FrontDoorRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  public let channel: any Channel

  public init(source: ApplicationRequestContextSource) {
    self.coreContext = .init(source: source)
    self.channel = source.channel
  }
}

/// Answers every HTTP request to the front door: `/openapi.json`, the `/docs` page, the web app, CORS
/// preflights, and each route of ``HTTPRouteTable`` — transcoded to the method's binary request,
/// forwarded through ``GatewayCallForwarder`` like any other call, and the answer transcoded
/// back to JSON (or streamed as Server-Sent Events).
struct HTTPFrontDoorResponder: HTTPResponder {
  typealias Context = FrontDoorRequestContext

  static let lastEventID = HTTPField.Name("Last-Event-ID")!
  static let requestID = HTTPField.Name("X-Request-Id")!
  /// Request headers that become call metadata, by metadata key.
  static let forwardedHeaders: [(HTTPField.Name, String)] = [
    (.authorization, "authorization"),
    (HTTPField.Name("X-Request-Id")!, "x-request-id"),
    (HTTPField.Name("traceparent")!, "traceparent"),
    (HTTPField.Name("tracestate")!, "tracestate"),
    // The language refusals are worded in (LocalizedMessage details), as services read it.
    (HTTPField.Name("Accept-Language")!, "accept-language"),
  ]

  let routes: HTTPRouteTable
  let forwarder: GatewayCallForwarder
  let crossOrigin: CrossOriginPolicy
  let documentation: DocumentationPage?
  let webApp: WebApp?
  /// The Server-Sent Events streams open now, ended together at shutdown.
  let openStreams: OpenStreams
  let openAPI: ByteBuffer
  /// The largest request body, and message either way.
  let maximumMessageSize: Int
  /// The deadline of a unary call made over HTTP.
  let requestTimeout: Duration

  func respond(to request: Request, context: Context) async throws -> Response {
    let origin = request.headers[.origin]
    var response: Response
    if request.method == .options {
      response = self.crossOrigin.preflight(origin: origin)
    } else {
      response = try await self.answer(request, context: context)
    }
    self.crossOrigin.decorate(&response, origin: origin)
    return response
  }

  private func answer(_ request: Request, context: Context) async throws -> Response {
    let path = request.uri.path
    // Every answer's id, a refusal at this door included: the client's when sane.
    let requestID = GatewayRequestID.take(clientValue: request.headers[Self.requestID])
    let language = Self.language(of: request)
    if path == "/openapi.json", request.method == .get {
      var headers = HTTPFields()
      headers[.contentType] = "application/json"
      return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: self.openAPI))
    }
    if path == "/docs" || path.hasPrefix("/docs/") {
      guard let documentation = self.documentation else {
        return Self.error(
          HTTPErrorBody(
            code: WireStatusCode.notFound,
            message: "this gateway serves no documentation page (start it with --docs-folder)",
            language: language,
            requestID: requestID
          )
        )
      }
      let name = path == "/docs" ? Substring("") : path.dropFirst("/docs/".count)
      return documentation.response(for: name)
        ?? Self.error(
          HTTPErrorBody(code: WireStatusCode.notFound, message: "the documentation page has no \(path)", language: language, requestID: requestID)
        )
    }
    if WebApp.owns(path), request.method == .get || request.method == .head, let webApp = self.webApp {
      return webApp.response(
        for: path,
        acceptEncoding: request.headers[.acceptEncoding],
        ifNoneMatch: request.headers[.ifNoneMatch],
        acceptLanguage: request.headers[.acceptLanguage]
      )
        ?? Self.error(HTTPErrorBody(code: WireStatusCode.notFound, message: "the web app has no \(path)", language: language, requestID: requestID))
    }
    // A verb no route has (HEAD, TRACE, ...) is matched as GET to learn whether the path exists.
    let verb = HTTPRoute.Verb(rawValue: request.method.rawValue)
    switch self.routes.match(verb: verb ?? .get, path: Substring(path)) {
    case .notFound:
      return Self.error(
        HTTPErrorBody(code: WireStatusCode.notFound, message: "no route \(path); see /openapi.json", language: language, requestID: requestID)
      )
    case .route where verb == nil:
      let allowed = HTTPRoute.Verb.allCases.filter { candidate in
        if case .route = self.routes.match(verb: candidate, path: Substring(path)) { return true }
        return false
      }
      return Self.verbNotAllowed(path, allowed: allowed, requestID: requestID, language: language)
    case .verbNotAllowed(let allowed):
      return Self.verbNotAllowed(path, allowed: allowed, requestID: requestID, language: language)
    case .route(let route, let pathValues):
      return try await self.forward(request, route: route, pathValues: pathValues, requestID: requestID, language: language, context: context)
    }
  }

  // MARK: Forwarding

  private func forward(
    _ request: Request,
    route: HTTPRoute,
    pathValues: [String: String],
    requestID doorRequestID: String,
    language: Language,
    context: Context
  ) async throws -> Response {
    var message: [UInt8]
    switch await self.requestMessage(request, route: route, pathValues: pathValues, requestID: doorRequestID, language: language) {
    case .message(let built): message = built
    case .refused(let refusal): return refusal
    }
    let keepsSignedIn = RefreshCookie.asked(request, method: route.rpc)
    if keepsSignedIn, route.rpc == RefreshCookie.refreshMethod {
      message = (try? RefreshCookie.refreshRequest(message, cookies: request.cookies)) ?? message
    }

    var metadata = WireMetadata()
    for (name, key) in Self.forwardedHeaders where key != GatewayRequestID.key {
      if let value = request.headers[name] { metadata.append(.text(key, value)) }
    }
    metadata.append(.text(GatewayRequestID.key, doorRequestID))
    let channel = context.channel
    let call = BridgedClientCall(
      door: .httpJSON,
      method: route.rpc,
      metadata: metadata,
      timeout: route.serverStreaming ? nil : self.requestTimeout,
      peer: BinarioCallPeer(
        identity: nil,
        remoteAddress: channel.remoteAddress?.description ?? "",
        localAddress: channel.localAddress?.description ?? ""
      ),
      eventLoop: channel.eventLoop,
      maximumPayloadSize: self.maximumMessageSize
    )
    let forwarder = self.forwarder
    let payload = Data(message)
    call.eventLoop.execute {
      forwarder.accept(call)
      call.deliver(.message(payload))
      call.deliver(.halfClose)
    }

    var responses = BridgedResponseReader(call)
    if route.serverStreaming {
      // A browser tab that closes ends its stream's connection without a word: that cancels
      // the call, which would otherwise stay open upstream (nothing is written to notice the
      // closed socket until the next message) and hold up the gateway's graceful shutdown.
      channel.closeFuture.whenComplete { _ in call.clientCancelled() }
      return await ServerSentEvents.response(
        for: call,
        responses: responses,
        route: route,
        openStreams: self.openStreams,
        requestID: doorRequestID
      )
    }
    var requestID: String? = doorRequestID
    var answer: Data?
    var lastModified: String?
    while let part = await responses.next() {
      switch part {
      case .headers(let headers):
        requestID = headers.firstText(GatewayRequestID.key) ?? requestID
        lastModified = headers.firstText(Self.lastModifiedKey)
      case .message(let data):
        answer = data
        call.responseWritten(bytes: data.count)
      case .end(let end):
        requestID = requestID ?? end.trailers.firstText(GatewayRequestID.key)
        guard end.statusCode == WireStatusCode.ok else {
          var refusal = Self.error(HTTPErrorBody(end: end, requestID: requestID), end: end)
          // A kept token that no longer trades is of no use to keep.
          if keepsSignedIn, route.rpc == RefreshCookie.refreshMethod { refusal.setCookie(RefreshCookie.cleared) }
          return refusal
        }
        guard var answer else {
          return Self.error(
            HTTPErrorBody(
              code: WireStatusCode.internalError,
              message: "\(route.rpc) ended OK without an answer",
              language: language,
              requestID: requestID
            )
          )
        }
        var cookie: Cookie?
        if keepsSignedIn {
          do {
            (answer, cookie) = try RefreshCookie.takeToken(from: answer)
          } catch {
            return Self.error(
              HTTPErrorBody(
                code: WireStatusCode.internalError,
                message: "the answer does not decode: \(error)",
                language: language,
                requestID: requestID
              )
            )
          }
        } else if route.rpc == RefreshCookie.logoutMethod {
          cookie = RefreshCookie.cleared
        }
        do {
          if let body = try route.transcoder.httpBody(Array(answer)) {
            return Self.httpBody(body, lastModified: lastModified, ifModifiedSince: request.headers[.ifModifiedSince], requestID: requestID)
          }
        } catch {
          return Self.error(
            HTTPErrorBody(
              code: WireStatusCode.internalError,
              message: "the answer does not decode: \(error)",
              language: language,
              requestID: requestID
            )
          )
        }
        let json: [UInt8]
        do {
          json = try route.transcoder.responseJSON(Array(answer))
        } catch {
          return Self.error(
            HTTPErrorBody(
              code: WireStatusCode.internalError,
              message: "the answer does not decode: \(error)",
              language: language,
              requestID: requestID
            )
          )
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let requestID { headers[Self.requestID] = requestID }
        var response = Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
        if let cookie { response.setCookie(cookie) }
        return response
      }
    }
    // The stream finished without an end: the client went away.
    return Self.error(HTTPErrorBody(code: WireStatusCode.cancelled, message: "the call was cancelled", language: language, requestID: requestID))
  }

  /// The response metadata key whose value a method's answer is Last-Modified (an HTTP date).
  static let lastModifiedKey = "last-modified"

  /// A `google.api.HttpBody` answer as it is, with its Last-Modified when the method said one;
  /// 304 Not Modified, without the bytes, when the client's copy is as recent.
  static func httpBody(
    _ body: (contentType: String, data: [UInt8]),
    lastModified: String?,
    ifModifiedSince: String?,
    requestID: String?
  ) -> Response {
    var headers = HTTPFields()
    if let requestID { headers[Self.requestID] = requestID }
    if let lastModified, let modified = HTTPDate.date(lastModified) {
      headers[.lastModified] = lastModified
      headers[.cacheControl] = "no-cache"
      if let ifModifiedSince, let since = HTTPDate.date(ifModifiedSince), since >= modified {
        return Response(status: .notModified, headers: headers)
      }
    }
    headers[.contentType] = body.contentType
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body.data)))
  }

  /// The method's binary request from the body, the path variables and the query, or the
  /// refusal to send instead.
  private enum RequestMessage {
    case message([UInt8])
    case refused(Response)
  }

  private func requestMessage(
    _ request: Request,
    route: HTTPRoute,
    pathValues: [String: String],
    requestID: String,
    language: Language
  ) async -> RequestMessage {
    var body: [UInt8] = []
    if !route.body.isEmpty {
      do {
        let buffer = try await request.body.collect(upTo: self.maximumMessageSize)
        body = Array(buffer.readableBytesView)
      } catch {
        return .refused(
          Self.error(
            HTTPErrorBody(
              code: WireStatusCode.resourceExhausted,
              message: "the body is larger than \(self.maximumMessageSize) bytes",
              language: language,
              requestID: requestID
            ),
            status: .contentTooLarge
          )
        )
      }
      if !body.isEmpty, let type = request.headers[.contentType], !type.lowercased().hasPrefix("application/json") {
        return .refused(
          Self.error(
            HTTPErrorBody(
              code: WireStatusCode.invalidArgument,
              message: "the body must be application/json, not \(type)",
              language: language,
              requestID: requestID
            ),
            status: .unsupportedMediaType
          )
        )
      }
    }
    do throws(TranscodingError) {
      return .message(
        try route.requestMessage(
          pathValues: pathValues,
          query: request.uri.query,
          lastEventID: request.headers[Self.lastEventID],
          body: body
        )
      )
    } catch {
      return .refused(Self.invalidArgument(field: error.field, error.reason, requestID: requestID, language: language))
    }
  }

  // MARK: Errors

  /// The language a request's refusals are worded in (`Accept-Language`).
  static func language(of request: Request) -> Language {
    request.headers[.acceptLanguage].flatMap(Language.init(acceptLanguage:)) ?? .fallback
  }

  static func verbNotAllowed(_ path: String, allowed: [HTTPRoute.Verb], requestID: String?, language: Language) -> Response {
    let verbs = allowed.map(\.rawValue).joined(separator: ", ")
    var response = Self.error(
      HTTPErrorBody(code: WireStatusCode.unimplemented, message: "\(path) takes \(verbs)", language: language, requestID: requestID),
      status: .methodNotAllowed
    )
    response.headers[.allow] = verbs
    return response
  }

  static func invalidArgument(field: String, _ reason: PersonText, requestID: String?, language: Language) -> Response {
    let message: PersonText = field.isEmpty ? reason : "\(field): \(reason)"
    let localized = HTTPErrorBody.LocalizedMessage(locale: language.locale, message: reason.rendered(in: language))
    let violations = field.isEmpty ? [] : [HTTPErrorBody.FieldViolation(field: field, description: reason.description, localizedMessage: localized)]
    return Self.error(
      HTTPErrorBody(code: WireStatusCode.invalidArgument, message: message, language: language, fieldViolations: violations, requestID: requestID)
    )
  }

  /// A JSON error answer; `end`'s retry hint becomes `Retry-After`.
  static func error(_ body: HTTPErrorBody, end: WireEnd? = nil, status: HTTPResponse.Status? = nil) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    if let requestID = body.requestId { headers[Self.requestID] = requestID }
    if let milliseconds = end?.trailers.firstText(GatewayCallForwarder.retryPushbackKey).flatMap(Int.init) {
      headers[.retryAfter] = "\(max(1, (milliseconds + 999) / 1000))"
    }
    let status = status ?? HTTPErrorBody.httpStatus(for: body.statusCode)
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body.json())))
  }
}
