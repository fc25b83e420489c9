import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A plain HTTP/1.1 server on 127.0.0.1 that answers `GET path` with a body the test sets (a
/// sign-in provider's published keys, say) and counts the requests it answered.
public final class StaticHTTPServer: Sendable {
  private final class State: Sendable {
    let mutex = Mutex<(bodies: [String: String], anyQuery: [String: String], paged: [String: String], requests: Int)>(([:], [:], [:], 0))
  }

  private let channel: any Channel
  private let state: State

  /// The port it listens on.
  public let port: Int

  /// `http://127.0.0.1:<port><path>`.
  public func url(_ path: String) -> String {
    "http://127.0.0.1:\(port)\(path)"
  }

  /// The requests answered so far (any path).
  public var requestCount: Int { state.mutex.withLock { $0.requests } }

  /// Sets what `GET path` answers (200, `application/json`, `Cache-Control: max-age=3600`).
  public func serve(_ body: String, at path: String) {
    state.mutex.withLock { $0.bodies[path] = body }
  }

  /// Sets what `GET path?<any query>` answers, when no ``serve(_:at:)`` names the whole request
  /// (a client adding its own query parameters, an incremental fetch's filter say).
  public func serve(_ body: String, atAnyQueryOf path: String) {
    state.mutex.withLock { $0.anyQuery[path] = body }
  }

  /// Sets what the first page (`$offset` 0 or absent) of any query of `path` answers; a later
  /// page answers an empty JSON array: the portal's query API as a client paging through a small
  /// dataset sees it.
  public func serve(_ body: String, pagedAt path: String) {
    state.mutex.withLock { $0.paged[path] = body }
  }

  public static func start() async throws -> StaticHTTPServer {
    let state = State()
    let channel = try await LoopbackHTTPListener.bind { Handler(state: state) }
    return StaticHTTPServer(channel: channel, state: state)
  }

  private init(channel: any Channel, state: State) {
    self.channel = channel
    self.state = state
    self.port = channel.localAddress?.port ?? 0
  }

  public func stop() async {
    try? await channel.close()
  }

  private final class Handler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let state: State

    init(state: State) {
      self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard case .head(let head) = unwrapInboundIn(data) else { return }
      let body = state.mutex.withLock { state -> String? in
        state.requests += 1
        let path = String(head.uri.prefix { $0 != "?" })
        if let first = state.paged[path] {
          let offset = head.uri.split(separator: "?").dropFirst().first?.split(separator: "&")
            .first { $0.hasPrefix("$offset=") || $0.hasPrefix("%24offset=") }?.split(separator: "=").last
          return offset == nil || offset == "0" ? first : "[]"
        }
        return state.bodies[head.uri] ?? state.anyQuery[path]
      }
      var headers = HTTPHeaders([("content-type", "application/json"), ("cache-control", "public, max-age=3600")])
      let bytes = Array((body ?? "not found").utf8)
      headers.add(name: "content-length", value: "\(bytes.count)")
      let status: HTTPResponseStatus = body == nil ? .notFound : .ok
      context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
      context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
  }
}
