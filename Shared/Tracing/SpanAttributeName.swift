/// The OpenTelemetry semantic conventions' attribute names this suite sets (semantic conventions
/// 1.37+, as swift-otel-semantic-conventions 1.44 spells them), in one place.
public enum SpanAttributeName {
  /// `grpc` on every call span.
  public static let rpcSystem = "rpc.system.name"
  /// The fully qualified method: `binario.identity.v1.Identity/GetMe`.
  public static let rpcMethod = "rpc.method"
  /// The status code's name: `OK`, `NOT_FOUND`, …
  public static let rpcStatusCode = "rpc.response.status_code"
  /// The called service's host (client spans).
  public static let serverAddress = "server.address"
  public static let serverPort = "server.port"
  /// The caller's address as the connection shows it (server spans).
  public static let clientAddress = "client.address"
  /// The peer's certificate identity (`spiffe://binario/<name>`), Binario's own attribute.
  public static let peerIdentity = "binario.peer.identity"
  /// The id the call's log lines share (`request-id`), Binario's own attribute.
  public static let requestID = "binario.request_id"
  /// `sqlite` on database spans.
  public static let databaseSystem = "db.system.name"
  /// The database's name (its file name).
  public static let databaseNamespace = "db.namespace"
  /// What a database span does: `read` or `write` (a transaction).
  public static let databaseOperation = "db.operation.name"
  /// The gateway's route to a service: the upstream's name.
  public static let upstream = "binario.upstream"
  /// The HTTP method and route of an HTTP/JSON call at the gateway.
  public static let httpMethod = "http.request.method"
  public static let httpRoute = "http.route"
}
