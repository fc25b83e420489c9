import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import SwiftProtobuf
import Testing

/// A service whose disk fills up: telemetry's data folder is a small tmpfs, filled to the last
/// byte while boards upload readings through the gateway. Writes must be refused with a clear
/// `RESOURCE_EXHAUSTED` while reads and health go on; once space is freed the same uploads must
/// succeed without a restart, and every acknowledged reading must be there exactly once.
///
/// Mounting a tmpfs needs root (as this machine and CI run); elsewhere the test says so and skips.
@Suite("A full disk", .serialized, .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
struct FullDiskTests {
  typealias Telemetry = Binario_Telemetry_V1_Telemetry.Client<BinarioClientTransport>
  typealias Identity = Binario_Identity_V1_Identity.Client<BinarioClientTransport>

  @Test func writesAreRefusedReadsGoOnAndSpaceReturningHealsIt() async throws {
    var mountPoint: URL?
    defer { if let mountPoint { Self.unmount(mountPoint) } }
    try await RunningSuite.with(prepare: { dataFolder in
      let folder = dataFolder("telemetry")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=32m", "tmpfs", folder.path])
      mountPoint = folder
    }) { suite in
      try await suite.waitUntilTheGatewaySeesServing("telemetry")
      try await suite.withGatewayConnection { connection in
        try await Self.fillAndFree(suite, folder: mountPoint!, identity: Identity(wrapping: connection), telemetry: Telemetry(wrapping: connection))
      }
    }
  }

  static func fillAndFree(_ suite: RunningSuite, folder: URL, identity: Identity, telemetry: Telemetry) async throws {
    let admin = try await identity.signInAdmin()
    let ada = try await identity.signUp(email: "ada@example.com", admin: admin)
    let registered = try await telemetry.registerDevice(.with { $0.name = "Bike board" }, metadata: bearer(ada))
    let board: Metadata = ["authorization": .string("Device \(registered.token)")]
    func batch(_ number: Int) -> [Binario_Telemetry_V1_Reading] {
      (number * 1_000 ..< (number + 1) * 1_000).map { TelemetryTests.reading($0) }
    }

    var acknowledged = 0
    let first = try await telemetry.uploadReadings(.with { $0.readings = batch(0) }, metadata: board)
    acknowledged += Int(first.stored)

    // Fill the disk to its last byte.
    let filler = folder.appendingPathComponent("filler")
    Self.fill(filler)

    // Upload until a batch is refused: nothing after a refusal is acknowledged.
    var refusal: RPCError?
    var number = 1
    while refusal == nil, number < 200 {
      do {
        let answer = try await telemetry.uploadReadings(.with { $0.readings = batch(number) }, metadata: board)
        acknowledged += Int(answer.stored)
        number += 1
      } catch let error as RPCError {
        refusal = error
      }
    }
    let refused = try #require(refusal, "the disk never filled")
    #expect(refused.code == .resourceExhausted, "a full disk: \(refused)")
    #expect(refused.message.contains("full"), "\(refused.message)")

    // Reads and health go on.
    let latest = try await telemetry.getLatest(.with { $0.deviceID = registered.device.id }, metadata: bearer(ada))
    #expect(!latest.values.isEmpty)
    try await suite.waitUntilTheGatewaySeesServing("telemetry")
    let again = await #expect(throws: RPCError.self) {
      _ = try await telemetry.uploadReadings(.with { $0.readings = batch(number) }, metadata: board)
    }
    #expect(again?.code == .resourceExhausted, "still full")

    // Space returns: the refused batch goes in, no restart.
    try FileManager.default.removeItem(at: filler)
    let retried = try await telemetry.uploadReadings(.with { $0.readings = batch(number) }, metadata: board)
    #expect(retried.stored == 1_000, "the refused batch, sent again: \(retried.stored) stored, \(retried.duplicates) already there")
    acknowledged += Int(retried.stored)

    // Every acknowledged reading, once.
    let exported = try await telemetry.exportReadings(
      .with {
        $0.deviceID = registered.device.id
        $0.from = Google_Protobuf_Timestamp(date: TelemetryTests.morning.addingTimeInterval(-3600))
        $0.to = Google_Protobuf_Timestamp(date: TelemetryTests.morning.addingTimeInterval(Double(number + 2) * 1_000 * 30))
      },
      metadata: bearer(ada)
    )
    let rows = exported.csv.split(whereSeparator: \.isNewline).dropFirst()
    #expect(rows.count == acknowledged, "\(rows.count) readings stored, \(acknowledged) acknowledged")
    #expect(Set(rows.map { $0.split(separator: ",").first ?? "" }).count == rows.count, "a reading stored twice")
    print(
      "full disk: \(number) batch(es) acknowledged before the disk filled, refused RESOURCE_EXHAUSTED (\"\(refused.message)\"), "
        + "reads and health served while full, the refused batch stored once space returned; \(acknowledged) readings, each once"
    )
  }

  /// Writes zeros to `file` until the file system has no byte left.
  static func fill(_ file: URL) {
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: file.path) else { return }
    defer { try? handle.close() }
    for size in [1 << 20, 4096, 1] {
      let chunk = Data(count: size)
      while (try? handle.write(contentsOf: chunk)) != nil {}
    }
  }

  static func run(_ program: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw RPCError(code: .failedPrecondition, message: "\(program) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
    }
  }

  static func unmount(_ folder: URL) {
    try? run("/bin/umount", ["-l", folder.path])
    try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent())
  }
}
