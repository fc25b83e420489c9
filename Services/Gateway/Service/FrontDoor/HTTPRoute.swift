/// One public method's HTTP/JSON route, generated from its `google.api.http` annotation
/// (`Generated/HTTPRouteTable+Generated.swift`): how an HTTP request becomes the method's request
/// message, and its answer JSON.
public struct HTTPRoute: Sendable {
  public enum Verb: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case put = "PUT"
    case post = "POST"
    case delete = "DELETE"
    case patch = "PATCH"
  }

  /// How a path or query value (text) becomes a request field's JSON value.
  public enum ParameterKind: Sendable, Hashable {
    /// As a JSON string (strings, bytes as base64, enums by name, 64-bit integers).
    case string
    /// As a JSON number.
    case number
    /// `true` or `false`.
    case bool
  }

  public let verb: Verb
  public let template: HTTPPathTemplate
  /// `*`: the JSON body is the whole request; empty: no body (the query names the fields).
  public let body: String
  /// The method, `/binario.identity.v1.Identity/Register`: what the gateway forwards to.
  public let rpc: String
  public let serverStreaming: Bool
  /// A server-streaming method whose request and response messages have a string `cursor`:
  /// each Server-Sent Event's id is the message's cursor, and `Last-Event-ID` sets the
  /// request's, so a client that reconnects resumes where it left off.
  public let resumesAtCursor: Bool
  /// The request's singular scalar fields (dotted paths) a path or query parameter may set.
  public let parameterKinds: [String: ParameterKind]
  public let transcoder: any MessageTranscoding
  /// The method's comment in the proto.
  public let summary: String

  /// `template` comes from the generator, which has checked it.
  public init(
    verb: Verb,
    template: String,
    body: String,
    rpc: String,
    serverStreaming: Bool,
    resumesAtCursor: Bool = false,
    parameterKinds: [String: ParameterKind],
    transcoder: any MessageTranscoding,
    summary: String
  ) {
    do {
      self.template = try HTTPPathTemplate(parsing: template)
    } catch {
      preconditionFailure("the route generator let through \(error)")
    }
    self.verb = verb
    self.body = body
    self.rpc = rpc
    self.serverStreaming = serverStreaming
    self.resumesAtCursor = resumesAtCursor
    self.parameterKinds = parameterKinds
    self.transcoder = transcoder
    self.summary = summary
  }
}
