import BinarioDevCertificates
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// A map tile server on 127.0.0.1 over HTTPS (its own throwaway CA: the browser that loads its
/// tiles ignores certificate errors), answering every `GET /tiles/{z}/{x}/{y}.png` with a small
/// pale-green PNG and recording the paths asked for: what `--map-tiles` points the web app at in
/// a test, where no real tile server is reachable.
public final class StandInTileServer: Sendable {
  /// An 8×8 pale-green PNG.
  static let tile = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGM48ewkVsQwtCQAoxudwWI8PwAAAAAASUVORK5CYII=")!

  private final class State: Sendable {
    let requested = Mutex<[String]>([])
  }

  private let channel: any Channel
  private let state: State
  public let port: Int

  /// The URL template to give `--map-tiles`.
  public var template: String { "https://localhost:\(port)/tiles/{z}/{x}/{y}.png" }

  /// The tile paths asked for so far.
  public var tilesRequested: [String] { state.requested.withLock { $0 } }

  public static func start() async throws -> StandInTileServer {
    let authority = try DevCertificateAuthority.create(commonName: "Stand-in tile server CA")
    let leaf = try authority.issue(commonName: "tiles", uriSANs: [], dnsSANs: ["localhost"])
    let tls = try NIOSSLContext(
      configuration: .makeServerConfiguration(
        certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(leaf.certificatePEM.utf8)).map { .certificate($0) },
        privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(leaf.privateKeyPEM.utf8), format: .pem))
      )
    )
    let state = State()
    let channel = try await LoopbackHTTPListener.bind(tls: tls) { Handler(state: state) }
    return StandInTileServer(channel: channel, state: state)
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
      let isTile = head.method == .GET && head.uri.wholeMatch(of: /\/tiles\/\d+\/\d+\/\d+\.png/) != nil
      if isTile { state.requested.withLock { $0.append(head.uri) } }
      let body = isTile ? Array(StandInTileServer.tile) : Array("no such tile".utf8)
      var headers = HTTPHeaders([("content-type", isTile ? "image/png" : "text/plain"), ("content-length", "\(body.count)")])
      headers.add(name: "cache-control", value: "public, max-age=3600")
      let status: HTTPResponseStatus = isTile ? .ok : .notFound
      context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
      context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
  }
}
