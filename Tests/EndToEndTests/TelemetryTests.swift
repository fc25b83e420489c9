import AsyncHTTPClient
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRDB
import GRPCCore
import NIOCore
import NIOHTTP1
import NIOSSL
import SwiftProtobuf
import Testing

/// Telemetry through the gateway over TLS, with one suite start: a board's device token (it
/// uploads and does nothing else; an account's token is no device token), batch and streaming
/// uploads (bad readings refused one by one, a resend storing nothing, a stored reading never
/// changed), the queries, who sees what (another user sees nothing until a campaign shares it),
/// the reference stations (imported by an admin from the demo files, compared with the board's
/// series), the HTTP/JSON front door with a device token; and kill -9 right after an
/// acknowledged batch.
@Suite("Telemetry, end to end through the gateway", .serialized)
struct TelemetryTests {
  typealias Telemetry = Binario_Telemetry_V1_Telemetry.Client<BinarioClientTransport>
  typealias Identity = Binario_Identity_V1_Identity.Client<BinarioClientTransport>

  /// 2024-01-15T08:00:00Z, the morning of the demo measurements.
  static let morning = Date(timeIntervalSince1970: 1_705_305_600)
  static let senato = (latitude: 45.470499, longitude: 9.197460)
  static let demoData = RunningSuite.packageRoot.appendingPathComponent("Services/Telemetry/DemoData")

  static func device(_ token: String) -> Metadata { ["authorization": .string("Device \(token)")] }

  static func reading(_ index: Int, pm25: Double? = nil) -> Binario_Telemetry_V1_Reading {
    .with {
      $0.time = Google_Protobuf_Timestamp(date: morning.addingTimeInterval(Double(index) * 30))
      $0.latitude = senato.latitude + Double(index % 10) * 0.0001
      $0.longitude = senato.longitude
      $0.pm25 = pm25 ?? Double(index % 50)
      $0.temperature = 3 + Double(index % 7) * 0.5
      $0.humidity = 70
    }
  }

  static func range(hours: Double = 24) -> (Google_Protobuf_Timestamp, Google_Protobuf_Timestamp) {
    (Google_Protobuf_Timestamp(date: morning.addingTimeInterval(-3600)), Google_Protobuf_Timestamp(date: morning.addingTimeInterval(hours * 3600)))
  }

  @Test func boardsReadingsReferenceStationsAndKillNine() async throws {
    // The open-data portal, played by a local server: a station catalogue and a measurements
    // dataset, which telemetry fetches at start, and a source that fails.
    let portal = try await StaticHTTPServer.start()
    portal.serve(
      try String(contentsOf: Self.demoData.appendingPathComponent("weather-stations.json"), encoding: .utf8),
      pagedAt: "/resource/weather-stations.json"
    )
    portal.serve(
      #"[{"idsensore":"2001","data":"2024-01-16T09:00:00.000","valore":"4.5","stato":"VA"},{"idsensore":"2001","data":"2024-01-16T10:00:00.000","valore":"-9999","stato":"VA"}]"#,
      pagedAt: "/resource/weather-values.json"
    )
    let sources = FileManager.default.temporaryDirectory.appendingPathComponent("telemetry-sources-\(UUID().uuidString).json")
    try Data(
      """
      [{"name": "weather-stations", "kind": "catalogue", "network": "weather", "url": "\(portal.url("/resource/weather-stations.json"))"},
       {"name": "weather-values", "kind": "measurements", "url": "\(portal.url("/resource/weather-values.json"))"},
       {"name": "broken", "kind": "measurements", "url": "\(portal.url("/resource/gone.json"))"}]
      """.utf8
    ).write(to: sources)
    defer { try? FileManager.default.removeItem(at: sources) }
    do {
      try await RunningSuite.with(extraFlags: .init(telemetry: ["--reference-sources", sources.path])) { suite in
        try await suite.waitUntilTheGatewaySeesServing("telemetry")
        let ada = try await suite.withGatewayConnection { connection in
          let (identity, telemetry) = (Identity(wrapping: connection), Telemetry(wrapping: connection))
          let ada = try await Self.devicesUploadsAndQueries(identity, telemetry)
          try await Self.portalSources(identity, telemetry, portal: portal)
          return ada
        }
        try await Self.httpFrontDoor(suite, token: ada.token)
        try await Self.killNineAfterAnAcknowledgedBatch(suite, token: ada.token, deviceID: ada.deviceID)
      }
    } catch {
      await portal.stop()
      throw error
    }
    await portal.stop()
  }

  /// The configured sources: fetched at start (a failing one recorded, never fatal), then one on
  /// demand.
  static func portalSources(_ identity: Identity, _ telemetry: Telemetry, portal: StaticHTTPServer) async throws {
    let admin = try await identity.signInAdmin()
    // The fetch at start runs beside the server and tells nobody: its record is the event.
    let deadline = ContinuousClock.now + .seconds(30)
    var listed: [Binario_Telemetry_V1_ReferenceSource] = []
    while ContinuousClock.now < deadline {
      listed = try await telemetry.listReferenceSources(.init(), metadata: bearer(admin)).sources
      if listed.count == 3, listed[0].hasLastFetchedAt, listed[1].hasLastFetchedAt, listed[2].hasLastFailedAt { break }
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(listed.map(\.name) == ["weather-stations", "weather-values", "broken"])
    #expect(listed.prefix(2).allSatisfy { $0.hasLastFetchedAt && $0.lastError.isEmpty }, "\(listed)")
    #expect(listed.last?.lastError.contains("HTTP 404") == true, "\(listed)")
    let brera = try await telemetry.listReferenceSensors(
      .with {
        $0.latitude = 45.47172
        $0.longitude = 9.18796
        $0.radiusMetres = 100
        $0.measure = .temperature
      }
    )
    #expect(brera.sensors.map(\.sensor.sensorID) == ["2001"] && brera.sensors.first?.sensor.network == "weather")

    let now = try await telemetry.fetchReferenceData(.with { $0.source = "weather-stations" }, metadata: bearer(admin))
    #expect(now.sources.map(\.source) == ["weather-stations"] && now.sources.first?.read == 3 && now.sources.first?.error == "")
    let broken = try await telemetry.fetchReferenceData(.with { $0.source = "broken" }, metadata: bearer(admin))
    #expect(broken.sources.first?.error.contains("HTTP 404") == true)
    let unknown = await #expect(throws: RPCError.self) {
      _ = try await telemetry.fetchReferenceData(.with { $0.source = "nope" }, metadata: bearer(admin))
    }
    #expect(unknown?.code == .notFound)

    // An admin manages a source of their own: saved, fetched on demand, listed, removed; one in
    // the settings stays.
    // (Any query: the schedule may fetch it first, and then this fetch asks only for newer rows.)
    portal.serve(
      #"[{"idsensore":"2002","data":"2024-01-16T09:00:00.000","valore":"81","stato":"VA"}]"#,
      pagedAt: "/resource/brera-values.json"
    )
    let saved = try await telemetry.saveReferenceSource(
      .with {
        $0.name = "brera-values"
        $0.kind = "measurements"
        $0.url = portal.url("/resource/brera-values.json")
      },
      metadata: bearer(admin)
    ).source
    #expect(saved.name == "brera-values" && !saved.configured)
    let fetchedSaved = try await telemetry.fetchReferenceData(.with { $0.source = "brera-values" }, metadata: bearer(admin))
    #expect(fetchedSaved.sources.first?.error == "" && fetchedSaved.sources.first?.read == 1, "\(fetchedSaved)")
    let withSaved = try await telemetry.listReferenceSources(.init(), metadata: bearer(admin)).sources
    #expect(withSaved.map(\.name) == ["weather-stations", "weather-values", "broken", "brera-values"])
    #expect(withSaved.map(\.configured) == [true, true, true, false] && withSaved.last?.hasLastFetchedAt == true)
    let badURL = await #expect(throws: RPCError.self) {
      _ = try await telemetry.saveReferenceSource(
        .with {
          $0.name = "x"
          $0.kind = "catalogue"
          $0.url = "not a url"
        },
        metadata: bearer(admin)
      )
    }
    #expect(badURL?.code == .invalidArgument && badURL?.message.contains("url") == true)
    let configuredOne = await #expect(throws: RPCError.self) {
      _ = try await telemetry.deleteReferenceSource(.with { $0.name = "weather-stations" }, metadata: bearer(admin))
    }
    #expect(configuredOne?.code == .failedPrecondition)
    _ = try await telemetry.deleteReferenceSource(.with { $0.name = "brera-values" }, metadata: bearer(admin))
    #expect(try await telemetry.listReferenceSources(.init(), metadata: bearer(admin)).sources.count == 3)
    let notAdmin = await #expect(throws: RPCError.self) {
      _ = try await telemetry.listReferenceSources(.init(), metadata: bearer(try await identity.signUp(email: "eve@example.com", admin: admin)))
    }
    #expect(notAdmin?.code == .permissionDenied)
  }

  static func devicesUploadsAndQueries(_ identity: Identity, _ telemetry: Telemetry) async throws -> (token: String, deviceID: String) {
    let admin = try await identity.signInAdmin()
    let ada = try await identity.signUp(email: "ada@example.com", admin: admin)
    let bob = try await identity.signUp(email: "bob@example.com", firstName: "Bob", admin: admin)
    let registered = try await telemetry.registerDevice(.with { $0.name = "Bike board" }, metadata: bearer(ada))
    let deviceID = registered.device.id
    let board = device(registered.token)
    #expect(registered.token.hasPrefix("bdt_") && registered.device.mine && registered.device.hasToken_p)

    // A device token uploads and does nothing else; an account's token uploads nothing.
    let listed = await #expect(throws: RPCError.self) { _ = try await telemetry.listDevices(.init(), metadata: board) }
    #expect(listed?.code == .unauthenticated)
    let asAccount = await #expect(throws: RPCError.self) {
      _ = try await telemetry.uploadReadings(.with { $0.readings = [reading(0)] }, metadata: bearer(ada))
    }
    #expect(asAccount?.code == .unauthenticated)
    let forged = await #expect(throws: RPCError.self) {
      _ = try await telemetry.uploadReadings(.with { $0.readings = [reading(0)] }, metadata: device("bdt_" + String(repeating: "x", count: 43)))
    }
    #expect(forged?.code == .unauthenticated)

    // A batch: 1,000 good readings and four bad ones, refused one by one.
    var batch = (0 ..< 1_000).map { reading($0) }
    var wet = reading(1_000)
    wet.humidity = 150
    var negative = reading(1_001)
    negative.pm10 = -1
    var future = reading(1_002)
    future.time = Google_Protobuf_Timestamp(date: Date().addingTimeInterval(86_400))
    var notANumber = reading(1_003)
    notANumber.pm25 = .nan
    batch += [wet, negative, future, notANumber]
    let first = try await telemetry.uploadReadings(.with { $0.readings = batch }, metadata: board)
    #expect(first.stored == 1_000 && first.duplicates == 0 && first.accepted == 1_000)
    #expect(first.rejected.map(\.index) == [1_000, 1_001, 1_002, 1_003])
    #expect(first.rejected.first?.reason.contains("humidity") == true)
    #expect(first.rejected.last?.reason.contains("finite") == true)

    // Resent: nothing new; a stored reading resent with another value is refused.
    let resent = try await telemetry.uploadReadings(.with { $0.readings = Array(batch.prefix(1_000)) }, metadata: board)
    #expect(resent.stored == 0 && resent.duplicates == 1_000)
    let changed = try await telemetry.uploadReadings(.with { $0.readings = [reading(0, pm25: 99)] }, metadata: board)
    #expect(changed.stored == 0 && changed.rejected.first?.reason.contains("never change") == true)

    // Streaming, a reading per message: indexes count from the stream's first reading.
    let streamed = try await telemetry.streamReadings(metadata: board) { writer in
      for index in 1_100 ..< 1_105 { try await writer.write(.with { $0.readings = [reading(index)] }) }
      var bad = reading(1_105)
      bad.humidity = -3
      try await writer.write(.with { $0.readings = [bad] })
    }
    #expect(streamed.stored == 5 && streamed.rejected.map(\.index) == [5])

    // The queries, over the 1,005 stored readings.
    let (from, to) = range()
    let stats = try await telemetry.getStatistics(
      .with {
        $0.measure = .pm25
        $0.from = from
        $0.to = to
      },
      metadata: bearer(ada)
    )
    #expect(stats.count == 1_005 && stats.min == 0 && stats.max == 49 && stats.unit == "µg/m³")
    #expect(stats.q1 <= stats.median && stats.median <= stats.q3)
    let series = try await telemetry.getSeries(
      .with {
        $0.deviceID = deviceID
        $0.measure = .pm25
        $0.from = from
        $0.to = to
        $0.maxPoints = 10
      },
      metadata: bearer(ada)
    )
    #expect(series.points.count <= 10 && series.points.reduce(0) { $0 + Int($1.count) } == 1_005)
    #expect(series.points.map(\.start.seconds) == series.points.map(\.start.seconds).sorted())
    let latest = try await telemetry.getLatest(.with { $0.deviceID = deviceID }, metadata: bearer(ada))
    #expect(latest.values.map(\.measure) == [.temperature, .humidity, .pm25])
    let exported = try await telemetry.exportReadings(
      .with {
        $0.deviceID = deviceID
        $0.from = from
        $0.to = to
      },
      metadata: bearer(ada)
    )
    #expect(exported.csv.split(whereSeparator: \.isNewline).count == 1_006)

    // Bob sees nothing of Ada's until her campaign shares the board with him.
    #expect(try await telemetry.listDevices(.init(), metadata: bearer(bob)).devices.isEmpty)
    let hidden = await #expect(throws: RPCError.self) {
      _ = try await telemetry.getLatest(.with { $0.deviceID = deviceID }, metadata: bearer(bob))
    }
    #expect(hidden?.code == .notFound)
    let bobsOwn = try await telemetry.getStatistics(
      .with {
        $0.measure = .pm25
        $0.from = from
        $0.to = to
      },
      metadata: bearer(bob)
    )
    #expect(bobsOwn.count == 0)
    let bobID = try await identity.getMe(.init(), metadata: bearer(bob)).profile.userID
    let campaign = try await telemetry.createCampaign(.with { $0.name = "Città Studi walks" }, metadata: bearer(ada)).campaign
    _ = try await telemetry.addCampaignMember(
      .with {
        $0.campaignID = campaign.id
        $0.userID = bobID
      },
      metadata: bearer(ada)
    )
    _ = try await telemetry.setDeviceCampaign(
      .with {
        $0.deviceID = deviceID
        $0.campaignID = campaign.id
      },
      metadata: bearer(ada)
    )
    let shared = try await telemetry.listDevices(.init(), metadata: bearer(bob)).devices
    #expect(shared.map(\.id) == [deviceID] && shared.first?.mine == false)
    #expect(try await telemetry.getLatest(.with { $0.deviceID = deviceID }, metadata: bearer(bob)).values.count == 3)
    let noDevice = await #expect(throws: RPCError.self) { _ = try await telemetry.getLatest(.init(), metadata: bearer(ada)) }
    #expect(noDevice?.code == .invalidArgument && noDevice?.message.contains("device_id") == true)
    let notBobs = await #expect(throws: RPCError.self) {
      _ = try await telemetry.rotateDeviceToken(.with { $0.deviceID = deviceID }, metadata: bearer(bob))
    }
    #expect(notBobs?.code == .notFound)

    // The reference stations: an admin imports the demo files; anyone lists them; the board's
    // series beside a station's, and the map with the stations' means.
    let catalogue = try Data(contentsOf: demoData.appendingPathComponent("air-quality-stations.csv"))
    let refused = await #expect(throws: RPCError.self) {
      _ = try await telemetry.importReferenceData(
        .with {
          $0.kind = .catalogue
          $0.data = catalogue
        },
        metadata: bearer(ada)
      )
    }
    #expect(refused?.code == .permissionDenied)
    let imported = try await telemetry.importReferenceData(
      .with {
        $0.kind = .catalogue
        $0.data = catalogue
      },
      metadata: bearer(admin)
    )
    #expect(imported.read == 6 && imported.added == 6)
    let measurements = try await telemetry.importReferenceData(
      .with {
        $0.kind = .measurements
        $0.data = try! Data(contentsOf: demoData.appendingPathComponent("measurements-2024-01-15.csv"))
      },
      metadata: bearer(admin)
    )
    #expect(measurements.skipped == 2 && measurements.added == measurements.read)
    let near = try await telemetry.listReferenceSensors(
      .with {
        $0.latitude = senato.latitude
        $0.longitude = senato.longitude
        $0.radiusMetres = 2_000
        $0.measure = .pm25
      }
    )
    #expect(near.sensors.map(\.sensor.sensorID) == ["5505"])
    let compared = try await telemetry.compareWithReference(
      .with {
        $0.measure = .pm25
        $0.sensorID = "5505"
        $0.from = Google_Protobuf_Timestamp(date: morning)
        $0.to = Google_Protobuf_Timestamp(date: morning.addingTimeInterval(8 * 3600))
        $0.maxPoints = 8
      },
      metadata: bearer(ada)
    )
    #expect(compared.points.count == 8 && compared.points.allSatisfy { $0.hasMine && $0.hasReference } && compared.hasCorrelation)
    let map = try await telemetry.getMap(
      .with {
        $0.measure = .pm25
        $0.from = from
        $0.to = to
        ($0.south, $0.west, $0.north, $0.east) = (45.46, 9.18, 45.48, 9.21)
      },
      metadata: bearer(ada)
    )
    #expect(map.total == 1_005 && !map.sampled && map.reference.map(\.sensor.sensorID) == ["5505"])
    let grid = try await telemetry.getGrid(
      .with {
        $0.measure = .temperature
        $0.from = from
        $0.to = to
        ($0.south, $0.west, $0.north, $0.east) = (45.46, 9.18, 45.48, 9.21)
        ($0.rows, $0.columns) = (10, 10)
      },
      metadata: bearer(ada)
    )
    #expect(grid.rows == 10 && !grid.cells.isEmpty && grid.cells.allSatisfy { (3 ... 6).contains($0.value) })
    let tooBig = await #expect(throws: RPCError.self) {
      _ = try await telemetry.getGrid(
        .with {
          $0.measure = .temperature
          ($0.south, $0.west, $0.north, $0.east) = (45.46, 9.18, 45.48, 9.21)
          ($0.rows, $0.columns) = (200, 200)
        },
        metadata: bearer(ada)
      )
    }
    #expect(tooBig?.code == .invalidArgument)
    let correlated = try await telemetry.correlateMeasures(
      .with {
        $0.first = .pm25
        $0.second = .temperature
        $0.from = from
        $0.to = to
        $0.maxPoints = 50
      },
      metadata: bearer(ada)
    )
    #expect(correlated.hasCorrelation && correlated.buckets >= 10 && abs(correlated.correlation) <= 1)
    let badBox = await #expect(throws: RPCError.self) {
      _ = try await telemetry.getMap(
        .with {
          $0.measure = .pm25
          ($0.south, $0.west, $0.north, $0.east) = (45.5, 9.18, 45.4, 9.21)
        },
        metadata: bearer(ada)
      )
    }
    #expect(badBox?.code == .invalidArgument && badBox?.message.contains("north") == true)

    // A rotated token replaces the old one at once.
    let rotated = try await telemetry.rotateDeviceToken(.with { $0.deviceID = deviceID }, metadata: bearer(ada)).token
    let old = await #expect(throws: RPCError.self) {
      _ = try await telemetry.uploadReadings(.with { $0.readings = [reading(2_000)] }, metadata: board)
    }
    #expect(old?.code == .unauthenticated)
    #expect(try await telemetry.uploadReadings(.with { $0.readings = [reading(2_000)] }, metadata: device(rotated)).stored == 1)
    return (rotated, deviceID)
  }

  /// The HTTP/JSON front door: a device token uploads as JSON; an account's token does not.
  static func httpFrontDoor(_ suite: RunningSuite, token: String) async throws {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(suite.caFile)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
    func upload(_ authorization: String) async throws -> (HTTPResponseStatus, String) {
      var request = HTTPClientRequest(url: "https://localhost:\(suite.gatewayHTTPPort)/v1/telemetry/readings:upload")
      request.method = .POST
      request.headers.add(name: "authorization", value: authorization)
      request.headers.add(name: "content-type", value: "application/json")
      request.body = .bytes(
        ByteBuffer(string: #"{"readings":[{"time":"2024-01-15T20:00:00Z","latitude":45.47,"longitude":9.19,"pm10":31.5}]}"#)
      )
      let response = try await client.execute(request, timeout: .seconds(30))
      return (response.status, String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }
    do {
      let (status, body) = try await upload("Device \(token)")
      #expect(status == .ok && body.contains(#""stored":1"#), "\(status) \(body)")
      let (refused, _) = try await upload("Bearer a.b.c")
      #expect(refused == .unauthorized)
    } catch {
      try? await client.shutdown()
      throw error
    }
    try await client.shutdown()
  }

  /// `kill -9` of telemetry as soon as a batch is acknowledged: every reading of it is on disk.
  static func killNineAfterAnAcknowledgedBatch(_ suite: RunningSuite, token: String, deviceID: String) async throws {
    let acknowledged = try await suite.withGatewayConnection { connection in
      try await Telemetry(wrapping: connection).uploadReadings(
        .with { $0.readings = (3_000 ..< 4_000).map { reading($0) } },
        metadata: device(token)
      )
    }
    suite.killTelemetry()
    #expect(acknowledged.stored == 1_000)
    var configuration = Configuration()
    configuration.readonly = true
    let database = try DatabaseQueue(path: suite.folder.appendingPathComponent("data/telemetry/telemetry.sqlite").path, configuration: configuration)
    let stored = try await database.read { db in
      try Int.fetchOne(
        db,
        sql: "SELECT COUNT(*) FROM reading JOIN device ON device.seq = reading.device_seq WHERE device.id = ? AND time_ms >= ?",
        arguments: [deviceID, Int64(morning.addingTimeInterval(3_000 * 30).timeIntervalSince1970 * 1000)]
      ) ?? 0
    }
    #expect(stored == 1_000)
    try await suite.startTelemetry()
    try await suite.waitUntilTheGatewaySeesServing("telemetry")
  }
}
