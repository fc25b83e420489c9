import AsyncHTTPClient
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOSSL

/// The gateway's three front doors.
enum Door: String, CaseIterable, Sendable {
  case binario = "Binario"
  case grpc = "gRPC"
  case http = "HTTP"

  /// What its TLS handshake negotiates (ALPN).
  var applicationProtocol: String {
    switch self {
    case .binario: return "binario/1"
    case .grpc: return "h2"
    case .http: return "http/1.1"
    }
  }
}

/// The gateway under attack: its doors, the well-behaved client's calls through each, and the
/// memory figures of each attack.
final class Doors: Sendable {
  let suite: RunningSuite
  let http: HTTPClient
  private let memory: ResidentMemory
  private let notes = NIOLockedValueBox<[String]>([])
  private let attacks = NIOLockedValueBox(0)

  /// The current attack's own address: 127.0.0.2, then .3, …
  var attacker: String { "127.0.0.\(2 + self.attacks.withLockedValue { $0 })" }

  init(suite: RunningSuite) throws {
    self.suite = suite
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(suite.caFile)
    // A new connection per request: each check proves the door still accepts.
    var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
    configuration.connectionPool = .init(idleTimeout: .milliseconds(1), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
    self.http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    self.memory = ResidentMemory(processIdentifier: suite.processIdentifiers["gateway"]!)
  }

  func shutdown() async throws {
    try await self.http.shutdown()
  }

  func port(of door: Door) -> Int {
    switch door {
    case .binario: return self.suite.gatewayPort
    case .grpc: return self.suite.gatewayGRPCPort
    case .http: return self.suite.gatewayHTTPPort
    }
  }

  /// Runs one attack, then prints its line: the gateway's resident memory before, at its peak
  /// and after, and what the attack noted. Fails the test when the peak grew past the bound.
  func measure(_ name: String, _ attack: () async throws -> Void) async throws {
    self.memory.resetPeak()
    let before = self.memory.current
    let started = ContinuousClock.now
    try await attack()
    self.attacks.withLockedValue { $0 += 1 }
    let peak = max(self.memory.peak, before)
    let after = self.memory.current
    let notes = self.notes.withLockedValue { notes in
      defer { notes = [] }
      return notes.joined(separator: "; ")
    }
    print(
      String(
        format: "hostile peer: %@ | gateway RSS %.0f MiB before, %.0f peak, %.0f after | %@ | %@",
        name,
        before,
        peak,
        after,
        notes.isEmpty ? "-" : notes,
        HostilePeerTests.seconds(ContinuousClock.now - started)
      )
    )
    if peak - before > HostilePeerTests.memoryBound {
      throw HostilePeerFailure("\(name): the gateway grew by \(Int(peak - before)) MiB, more than \(Int(HostilePeerTests.memoryBound))")
    }
  }

  func note(_ text: String) {
    self.notes.withLockedValue { $0.append(text) }
  }

  /// A well-behaved client on 127.0.0.1 is served on every door, each on a new connection.
  func expectServed() async throws {
    let binario = try await self.suite.withGatewayConnection { client in
      try await Grpc_Health_V1_Health.Client(wrapping: client).check(.init())
    }
    guard binario.status == .serving else { throw HostilePeerFailure("Binario door: health \(binario.status)") }
    let grpc = try await self.withGRPCClient { client in
      try await Grpc_Health_V1_Health.Client(wrapping: client).check(.init())
    }
    guard grpc.status == .serving else { throw HostilePeerFailure("gRPC door: health \(grpc.status)") }
    let http = try await self.httpCall(.GET, "/openapi.json")
    guard http.status == .ok else { throw HostilePeerFailure("HTTP door: /openapi.json \(http.status)") }
  }

  func withGRPCClient<Result: Sendable>(_ body: (GRPCClient<HTTP2ClientTransport.Posix>) async throws -> Result) async throws -> Result {
    let transport = try HTTP2ClientTransport.Posix(
      target: .ipv4(address: "127.0.0.1", port: self.suite.gatewayGRPCPort),
      transportSecurity: .tls { $0.trustRoots = .certificates([.file(path: self.suite.caFile, format: .pem)]) },
      config: .defaults { $0.http2.authority = "localhost" }
    )
    return try await GRPCCore.withGRPCClient(transport: transport) { client in try await body(client) }
  }

  struct Answer: Sendable {
    var status: HTTPResponseStatus
    var text: String
  }

  func httpCall(_ method: HTTPMethod, _ path: String, body: String? = nil, headers: [(String, String)] = []) async throws -> Answer {
    var request = HTTPClientRequest(url: "https://localhost:\(self.suite.gatewayHTTPPort)\(path)")
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let body {
      request.headers.add(name: "content-type", value: "application/json")
      request.body = .bytes(ByteBuffer(string: body))
    }
    let response = try await self.http.execute(request, timeout: .seconds(30))
    // The OpenAPI document of every route is over a megabyte now.
    let collected = try await response.body.collect(upTo: 8 << 20)
    return Answer(status: response.status, text: String(buffer: collected))
  }
}

struct HostilePeerFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Raw HTTP/2 frames, for a client that ignores the server's limits on purpose.
enum HTTP2Frame {
  static func frame(type: UInt8, flags: UInt8, streamID: UInt32, payload: [UInt8]) -> [UInt8] {
    let length = UInt32(payload.count)
    return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
      + withUnsafeBytes(of: streamID.bigEndian) { Array($0) } + payload
  }

  static func settings(ack: Bool) -> [UInt8] {
    frame(type: 0x4, flags: ack ? 0x1 : 0, streamID: 0, payload: [])
  }

  /// HEADERS with END_HEADERS (the stream stays open), each field a literal without indexing.
  static func headers(streamID: UInt32, _ fields: [(String, String)]) -> [UInt8] {
    var block: [UInt8] = []
    for (name, value) in fields {
      block.append(0x00)
      block += literal(name)
      block += literal(value)
    }
    return frame(type: 0x1, flags: 0x4, streamID: streamID, payload: block)
  }

  /// An HPACK string literal without Huffman coding (lengths under 127).
  private static func literal(_ text: String) -> [UInt8] {
    [UInt8(text.utf8.count)] + Array(text.utf8)
  }

  struct Summary: Sendable {
    var refused = 0
    var goAway = false
    var maxConcurrentStreams: UInt32?
  }

  /// What the server sent: streams reset, whether it sent GOAWAY, and its announced stream limit.
  static func summary(of bytes: [UInt8]) -> Summary {
    var summary = Summary()
    var index = 0
    while index + 9 <= bytes.count {
      let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
      let type = bytes[index + 3]
      let flags = bytes[index + 4]
      guard index + 9 + length <= bytes.count else { break }
      let payload = bytes[(index + 9) ..< (index + 9 + length)]
      switch type {
      case 0x3: summary.refused += 1
      case 0x7: summary.goAway = true
      case 0x4 where flags & 0x1 == 0:
        var setting = payload.startIndex
        while setting + 6 <= payload.endIndex {
          let identifier = UInt16(payload[setting]) << 8 | UInt16(payload[setting + 1])
          let value = payload[(setting + 2) ..< (setting + 6)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
          if identifier == 0x3 { summary.maxConcurrentStreams = value }
          setting += 6
        }
      default: break
      }
      index += 9 + length
    }
    return summary
  }
}
