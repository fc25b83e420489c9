import BinarioDevCertificates
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// A push service as browsers' vendors run them (RFC 8030), reduced to what an application
/// server sees: HTTPS on `localhost` with a certificate from the suite's CA, taking each `POST`
/// to a subscription's endpoint and answering `201 Created`, or what ``answer(_:at:)`` set for
/// that path (410 for a subscription that is gone, say). It keeps every request, in order, for
/// the test to decrypt with the subscription's keys.
public final class StandInPushService: Sendable {
  /// One push request as the push service received it.
  public struct Received: Sendable {
    public var path: String
    public var headers: [String: String]
    public var body: Data
  }

  private final class State: Sendable {
    let answers = Mutex<[String: Int]>([:])
    let received = Mutex<[Received]>([])
  }

  private let channel: any Channel
  private let state: State
  public let port: Int

  /// A subscription's endpoint on this push service.
  public func endpoint(_ path: String) -> String {
    "https://localhost:\(port)\(path)"
  }

  /// What a `POST` to `path` answers from now on.
  public func answer(_ status: Int, at path: String) {
    state.answers.withLock { $0[path] = status }
  }

  /// Every request so far, in the order they arrived.
  public var received: [Received] { state.received.withLock { $0 } }

  /// Starts it with a certificate for `localhost` issued by the CA in `certificates` (the
  /// suite's `ca.pem` and `ca.key`).
  public static func start(certificates: URL) async throws -> StandInPushService {
    let authority = try DevCertificateAuthority(
      certificatePEM: String(contentsOf: certificates.appendingPathComponent("ca.pem"), encoding: .utf8),
      privateKeyPEM: String(contentsOf: certificates.appendingPathComponent("ca.key"), encoding: .utf8)
    )
    let leaf = try authority.issue(commonName: "push-service", uriSANs: [], dnsSANs: ["localhost"])
    let tls = try NIOSSLContext(
      configuration: .makeServerConfiguration(
        certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(leaf.certificatePEM.utf8)).map { .certificate($0) },
        privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(leaf.privateKeyPEM.utf8), format: .pem))
      )
    )
    let state = State()
    let channel = try await LoopbackHTTPListener.bind(tls: tls) { Handler(state: state) }
    return StandInPushService(channel: channel, state: state)
  }

  private init(channel: any Channel, state: State) {
    self.channel = channel
    self.state = state
    self.port = channel.localAddress?.port ?? 0
  }

  public func stop() async {
    try? await channel.close()
  }

  /// One connection's requests. Confined to its channel's event loop (NIO calls a handler only
  /// there); `Sendable` only so that the listener can make one per connection.
  private final class Handler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let state: State
    var head: HTTPRequestHead?
    var body = Data()

    init(state: State) {
      self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      switch unwrapInboundIn(data) {
      case .head(let head):
        self.head = head
        self.body = Data()
      case .body(var chunk):
        body.append(contentsOf: chunk.readBytes(length: chunk.readableBytes) ?? [])
      case .end:
        guard let head else { return }
        let status = head.method == .POST ? (state.answers.withLock { $0[head.uri] } ?? 201) : 405
        if head.method == .POST {
          var headers: [String: String] = [:]
          for (name, value) in head.headers { headers[name.lowercased()] = value }
          let request = Received(path: head.uri, headers: headers, body: body)
          state.received.withLock { $0.append(request) }
        }
        let response = HTTPHeaders([("content-length", "0"), ("location", "https://localhost/message/\(UUID().uuidString)")])
        context.write(
          wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: status), headers: response))),
          promise: nil
        )
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        self.head = nil
      }
    }
  }
}
