import AsyncHTTPClient
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOCore
import NIOHTTP1
import NIOSSL
import SwiftProtobuf
import Testing

/// Hostile peers at every front door of a running gateway, on one suite start: connections past
/// the per-client limit, TLS handshakes, HTTP headers, Binario frames and HTTP/2 frames dribbled
/// (slowloris), thousands of calls or streams on one connection, oversized and deeply nested JSON
/// bodies, huge metadata. Each must get a clear answer or a closed connection while a
/// well-behaved client (from another address) keeps being served, and the gateway's resident
/// memory must stay bounded; each prints its figures (`hostile peer:` lines, the
/// table in docs/reliability.md).
///
/// Attackers pace their bytes with sleeps (that is what a slowloris is); what the test waits for
/// is the server closing their connections, with generous limits.
@Suite("Hostile peers at the gateway's front doors", .serialized, .timeLimit(.minutes(3)))
struct HostilePeerTests {
  static let slowClientSeconds = 1.0
  static let idleSeconds = 2.0
  static let perClient = 16
  static let callsPerConnection = 50
  /// What a connection's close may take beyond its timeout on a loaded two-core machine.
  static let margin = Duration.seconds(8)
  /// How much the gateway's resident memory may grow under one attack.
  static let memoryBound = 128.0

  @Test func everyFrontDoorHoldsAgainstHostilePeers() async throws {
    let flags = RunningSuite.ExtraFlags(gateway: [
      "--connection-limit", "\(Self.perClient)/4096", "--slow-client-timeout", "\(Self.slowClientSeconds)",
      "--idle-timeout", "\(Self.idleSeconds)", "--calls-per-connection", "\(Self.callsPerConnection)",
    ])
    try await RunningSuite.with(extraFlags: flags) { suite in
      try await suite.waitUntilTheGatewaySeesIdentityServing()
      let doors = try Doors(suite: suite)
      do {
        try await Self.attacks(doors)
      } catch {
        try? await doors.http.shutdown()
        throw error
      }
      try await doors.http.shutdown()
    }
  }

  static func attacks(_ doors: Doors) async throws {
    for door in Door.allCases {
      try await doors.measure("\(door.rawValue) door: \(Self.perClient * 4) idle connections from one client") {
        try await Self.connectionsPastTheLimit(doors, door: door)
      }
    }
    try await doors.measure("every door: TLS handshakes never started") {
      for door in Door.allCases {
        try await Self.slowloris(doors, port: doors.port(of: door), alpn: nil, within: .seconds(Self.slowClientSeconds), prefix: [], dribble: [])
      }
    }
    try await doors.measure("HTTP door: headers dribbled") {
      try await Self.slowloris(
        doors,
        port: doors.suite.gatewayHTTPPort,
        alpn: "http/1.1",
        within: .seconds(Self.slowClientSeconds),
        prefix: Array("GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n".utf8),
        dribble: Array("X-Slow: \(String(repeating: "z", count: 200))\r\n".utf8)
      )
    }
    try await doors.measure("Binario door: a frame dribbled") {
      // A frame announcing 256 bytes.
      try await Self.slowloris(
        doors,
        port: doors.suite.gatewayPort,
        alpn: "binario/1",
        within: .seconds(Self.slowClientSeconds),
        prefix: [0, 0, 1, 0],
        dribble: [UInt8](repeating: 0x08, count: 256)
      )
    }
    try await doors.measure("gRPC door: HTTP/2 preface dribbled") {
      try await Self.slowloris(
        doors,
        port: doors.suite.gatewayGRPCPort,
        alpn: "h2",
        within: .seconds(Self.idleSeconds),
        prefix: [],
        dribble: Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [UInt8](repeating: 0, count: 200)
      )
    }
    try await doors.measure("Binario door: 2000 calls on one connection") {
      try await Self.manyBinarioCalls(doors)
    }
    try await doors.measure("gRPC door: 2000 streams on one connection") {
      try await Self.manyHTTP2Streams(doors)
    }
    try await doors.measure("HTTP door: bodies oversized and nested 100,000 deep") {
      try await Self.hostileBodies(doors)
    }
    try await doors.measure("every door: 1 MiB of metadata") {
      try await Self.hugeMetadata(doors)
    }
  }

  // MARK: Connections

  /// Four times the per-client limit of TLS connections that then do nothing, opened at once:
  /// those past the limit are closed before their handshake completes, the others when their
  /// idle time runs out.
  static func connectionsPastTheLimit(_ doors: Doors, door: Door) async throws {
    let port = doors.port(of: door)
    let attempts = Self.perClient * 4
    let admitted = await withTaskGroup(of: HostileConnection?.self) { group in
      for _ in 0 ..< attempts {
        group.addTask {
          try? await HostileConnection.connect(port: port, from: doors.attacker, alpn: door.applicationProtocol, caFile: doors.suite.caFile)
        }
      }
      var admitted: [HostileConnection] = []
      for await connection in group {
        if let connection { admitted.append(connection) }
      }
      return admitted
    }
    // Admitted connections that time out while others still connect free places, so a few more
    // than the limit may get in; never all.
    #expect(admitted.count >= 1 && admitted.count <= attempts - Self.perClient, "\(door): \(admitted.count) of \(attempts) admitted")
    try await doors.expectServed()
    let idle = door == .http ? Self.slowClientSeconds : Self.idleSeconds
    let closed = await Self.count(admitted) { await $0.closedByServer(within: .seconds(idle) + Self.margin) }
    #expect(closed == admitted.count, "\(door): \(admitted.count - closed) idle connections left open")
    doors.note("\(attempts - admitted.count) refused at once, \(admitted.count) admitted and closed when idle")
  }

  /// As many connections as one client may hold, each sending `prefix` and then `dribble` a byte
  /// at a time: each must be closed within `within` (plus the margin).
  static func slowloris(
    _ doors: Doors,
    port: Int,
    alpn: String?,
    within: Duration,
    prefix: [UInt8],
    dribble: [UInt8]
  ) async throws {
    var connections: [HostileConnection] = []
    for _ in 0 ..< Self.perClient {
      let connection = try await HostileConnection.connect(port: port, from: doors.attacker, alpn: alpn, caFile: doors.suite.caFile)
      await connection.write(prefix)
      connections.append(connection)
    }
    let started = ContinuousClock.now
    let attackers = connections
    let dribbling = Task {
      await withTaskGroup(of: Void.self) { group in
        for connection in attackers {
          group.addTask { await connection.dribble(dribble, every: .milliseconds(100)) }
        }
      }
    }
    try await doors.expectServed()
    let closed = await Self.count(connections) { await $0.closedByServer(within: within + Self.margin) }
    dribbling.cancel()
    #expect(closed == connections.count, "\(connections.count - closed) dribbling connections left open")
    doors.note("closed after \(Self.seconds(ContinuousClock.now - started))")
  }

  // MARK: Calls and streams

  /// 2000 `Health/Watch` calls opened at once on one Binario connection: the first ones up to the
  /// limit are served, every other one is answered `RESOURCE_EXHAUSTED` at once.
  static func manyBinarioCalls(_ doors: Doors) async throws {
    let connection = try await HostileConnection.connect(
      port: doors.suite.gatewayPort,
      from: doors.attacker,
      alpn: "binario/1",
      caFile: doors.suite.caFile
    )
    var bytes: [UInt8] = []
    for id in 1 ... 2000 {
      var frame = WireFrame()
      frame.callID = UInt64(id)
      frame.kind = .open(
        .with {
          $0.method = "/grpc.health.v1.Health/Watch"
          $0.payload = Data()
          $0.halfClose = true
        }
      )
      bytes += Self.prefixed(try frame.serializedBytes())
    }
    await connection.write(bytes)
    let refusals = 2000 - Self.callsPerConnection
    let counted = try await Self.poll(until: { $0 >= refusals }) {
      Self.frames(in: connection.received).filter { frame in
        if case .end(let end) = frame.kind { return end.statusCode == WireStatusCode.resourceExhausted }
        return false
      }.count
    }
    #expect(counted == refusals, "calls past the limit answered RESOURCE_EXHAUSTED: \(counted) of \(refusals)")
    try await doors.expectServed()
    doors.note("\(counted) calls refused RESOURCE_EXHAUSTED, \(Self.callsPerConnection) served")
    await connection.close()
  }

  /// 2000 gRPC streams opened at once on one HTTP/2 connection, past the announced
  /// `MAX_CONCURRENT_STREAMS`: refused (`RST_STREAM`) or the connection closed (`GOAWAY`).
  static func manyHTTP2Streams(_ doors: Doors) async throws {
    let connection = try await HostileConnection.connect(
      port: doors.suite.gatewayGRPCPort,
      from: doors.attacker,
      alpn: "h2",
      caFile: doors.suite.caFile
    )
    var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    bytes += HTTP2Frame.settings(ack: false)
    bytes += HTTP2Frame.settings(ack: true)
    for index in 0 ..< 2000 {
      bytes += HTTP2Frame.headers(
        streamID: UInt32(2 * index + 1),
        [
          (":method", "POST"), (":scheme", "https"), (":path", "/grpc.health.v1.Health/Watch"), (":authority", "localhost"),
          ("content-type", "application/grpc"), ("te", "trailers"),
        ]
      )
    }
    await connection.write(bytes)
    let refused = try await Self.poll(until: { $0.refused >= 2000 - Self.callsPerConnection || $0.goAway }) {
      HTTP2Frame.summary(of: connection.received)
    }
    #expect(refused.refused >= 2000 - Self.callsPerConnection || refused.goAway)
    #expect(refused.maxConcurrentStreams == UInt32(Self.callsPerConnection))
    try await doors.expectServed()
    doors.note(
      "announced MAX_CONCURRENT_STREAMS \(refused.maxConcurrentStreams.map(String.init) ?? "none"); \(refused.refused) streams reset, GOAWAY: \(refused.goAway)"
    )
    await connection.close()
  }

  // MARK: Bodies and metadata

  static func hostileBodies(_ doors: Doors) async throws {
    let oversized = try await doors.httpCall(.POST, "/v1/sessions", body: "{\"email\":\"" + String(repeating: "a", count: 5 << 20) + "\"}")
    #expect(oversized.status == .payloadTooLarge, "a 5 MiB body: \(oversized.status)")
    let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let asWholeBody = try await doors.httpCall(.POST, "/v1/sessions", body: "{\"email\":" + nested + "}")
    #expect(asWholeBody.status == .badRequest, "nested 100,000 deep: \(asWholeBody.status) \(asWholeBody.text.prefix(200))")
    // A path parameter sends the body through Foundation's JSON parser rather than swift-protobuf's.
    let withPathParameter = try await doors.httpCall(.PUT, "/v1/taxi/places/home", body: "{\"place\":" + nested + "}")
    #expect(
      withPathParameter.status == .badRequest,
      "nested, with a path parameter: \(withPathParameter.status) \(withPathParameter.text.prefix(200))"
    )
    try await doors.expectServed()
    doors.note("413 for 5 MiB; 400 for nesting 100,000 deep, either parser")
  }

  static func hugeMetadata(_ doors: Doors) async throws {
    var metadata = Metadata()
    metadata.addString(String(repeating: "m", count: 1 << 20), forKey: "x-huge")
    // Binario and gRPC doors: refused before it goes anywhere, health checks included.
    let overBinario = await #expect(throws: RPCError.self) {
      try await doors.suite.withGatewayConnection { client in
        _ = try await Grpc_Health_V1_Health.Client(wrapping: client).check(.init(), metadata: metadata)
      }
    }
    let overGRPC = await #expect(throws: RPCError.self) {
      try await doors.withGRPCClient { client in
        _ = try await Grpc_Health_V1_Health.Client(wrapping: client).check(.init(), metadata: metadata)
      }
    }
    #expect(overBinario?.code == .resourceExhausted)
    // Over HTTP/2 the header block is past the connection's header list limit too: the call is
    // refused, or the connection closed under it.
    #expect(overGRPC?.code == .resourceExhausted || overGRPC?.code == .unavailable)
    // HTTP door: a header over the limit gets 431 or 400, or the connection closed.
    let answer = try? await doors.httpCall(.GET, "/openapi.json", headers: [("x-huge", String(repeating: "m", count: 1 << 20))])
    #expect(answer == nil || answer?.status == .requestHeaderFieldsTooLarge || answer?.status == .badRequest)
    try await doors.expectServed()
    doors.note(
      "Binario: \(overBinario.map { "\($0.code)" } ?? "-"), gRPC: \(overGRPC.map { "\($0.code)" } ?? "-"), "
        + "HTTP: \(answer.map { "\($0.status.code)" } ?? "connection closed")"
    )
  }

  // MARK: Helpers

  static func count(_ connections: [HostileConnection], _ predicate: @escaping @Sendable (HostileConnection) async -> Bool) async -> Int {
    await withTaskGroup(of: Bool.self) { group in
      for connection in connections { group.addTask { await predicate(connection) } }
      var count = 0
      for await result in group where result { count += 1 }
      return count
    }
  }

  /// Reads `value` as bytes arrive (each check after the connection's reads), up to 20 seconds.
  static func poll<Value>(until done: (Value) -> Bool, _ value: () -> Value) async throws -> Value {
    let deadline = ContinuousClock.now + .seconds(20)
    var current = value()
    while !done(current), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
      current = value()
    }
    return current
  }

  static func prefixed(_ body: [UInt8]) -> [UInt8] {
    withUnsafeBytes(of: UInt32(body.count).bigEndian) { Array($0) } + body
  }

  static func frames(in bytes: [UInt8]) -> [WireFrame] {
    var frames: [WireFrame] = []
    var index = 0
    while index + 4 <= bytes.count {
      let length = bytes[index ..< index + 4].reduce(0) { $0 << 8 | Int($1) }
      guard index + 4 + length <= bytes.count else { break }
      if let frame = try? WireFrame(serializedBytes: Array(bytes[(index + 4) ..< (index + 4 + length)])) { frames.append(frame) }
      index += 4 + length
    }
    return frames
  }

  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.1f s", Double(seconds) + Double(attoseconds) / 1e18)
  }
}
