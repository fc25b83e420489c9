import BinarioProto
import Foundation
import GRPCCore
import SwiftProtobuf

/// Each passenger's board uploads batches of readings with its device token, each batch retried
/// until acknowledged, and now and then sends an acknowledged batch again (as a board does that
/// missed the answer). Afterwards each board's export holds every reading sent, once.
struct SensorReadings: ChaosLoad {
  let name = "sensor readings"
  let clients: Clients
  let passengers: [Passenger]
  let acknowledgement: Acknowledgement
  let findings = Findings()
  /// Readings acknowledged by device id (their count: the readings are numbered from 0).
  private let sent = Locked<[String: Int]>([:])
  /// The first reading's time: a day ago, so that no reading of a long run is in the future.
  private let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded(.down))
  static let batch = 10
  /// Half a second between readings.
  static let spacing = 0.5

  func run(until stop: ContinuousClock.Instant) async throws {
    try await eachAtOnce(passengers) { passenger in try await self.upload(from: passenger, until: stop) }
  }

  private func reading(_ number: Int, _ passenger: Passenger) -> Binario_Telemetry_V1_Reading {
    .with {
      $0.time = Google_Protobuf_Timestamp(date: start.addingTimeInterval(Double(number) * Self.spacing))
      $0.latitude = Cast.duomo.latitude + Double(passenger.index) * 0.001
      $0.longitude = Cast.duomo.longitude + Double(number % 100) * 0.00001
      $0.pm25 = Double(number % 40)
      $0.temperature = 10 + Double(number % 7)
    }
  }

  private func upload(from passenger: Passenger, until stop: ContinuousClock.Instant) async throws {
    let device: Metadata = ["authorization": "Device \(passenger.deviceToken)"]
    var next = 0
    var number = 0
    while ContinuousClock.now < stop {
      number += 1
      // Every fifth batch, the previous one again: all of it is a duplicate.
      let resend = number % 5 == 0 && next > 0
      let first = resend ? next - Self.batch : next
      let readings = (first ..< first + Self.batch).map { reading($0, passenger) }
      var retried = false
      do {
        guard
          let answer = try await acknowledgement.untilAnswered(
            retried: &retried,
            { _, options in
              try await clients.telemetry.uploadReadings(.with { $0.readings = readings }, metadata: device, options: options)
            }
          )
        else {
          findings.unanswered("board \(passenger.index)'s batch from reading \(first)")
          return
        }
        if answer.accepted != Self.batch || !answer.rejected.isEmpty {
          findings.broken("board \(passenger.index)'s batch from \(first): \(answer.accepted) accepted, \(answer.rejected.count) refused")
        }
        if resend {
          findings.count("batches sent again")
          if answer.stored != 0 {
            findings.broken("board \(passenger.index)'s batch from \(first), sent again, stored \(answer.stored) readings twice")
          }
        } else {
          findings.count("acknowledged")
          if retried { findings.count("acknowledged after a failed attempt") }
          next += Self.batch
          sent.withLock { $0[passenger.deviceID] = next }
        }
      } catch let error as RPCError {
        findings.broken("board \(passenger.index)'s batch from \(first) refused: \(error.code): \(error.message)")
      }
      try await Task.sleep(for: Self.pace)
    }
  }

  func check() async throws -> ChaosReport.Section {
    let sent = self.sent.withLock { $0 }
    var stored = 0
    for passenger in passengers {
      let count = sent[passenger.deviceID] ?? 0
      // The export an hour of readings at a time: a long run's would not fit one answer.
      var times: [String: Int] = [:]
      var from = start.addingTimeInterval(-1)
      let end = start.addingTimeInterval(Double(count) * Self.spacing + 1)
      while from < end {
        let to = min(from.addingTimeInterval(3600), end)
        let csv = try await clients.telemetry.exportReadings(
          .with {
            $0.deviceID = passenger.deviceID
            $0.from = Google_Protobuf_Timestamp(date: from)
            $0.to = Google_Protobuf_Timestamp(date: to)
          },
          metadata: await passenger.person.metadata()
        ).csv
        for line in csv.split(whereSeparator: \.isNewline).dropFirst() {
          times[String(line.prefix { $0 != "," }), default: 0] += 1
        }
        from = to
      }
      stored += times.values.reduce(0, +)
      let twice = times.filter { $0.value > 1 }
      if !twice.isEmpty { findings.broken("board \(passenger.index) has \(twice.count) readings stored more than once") }
      if times.count != count {
        findings.broken("board \(passenger.index) sent and was acknowledged \(count) readings; \(times.count) are stored")
      }
    }
    return ChaosReport.Section(
      name: name,
      counts: [
        ("batches acknowledged", findings.value("acknowledged")),
        ("of them after a failed attempt", findings.value("acknowledged after a failed attempt")),
        ("batches sent again", findings.value("batches sent again")),
        ("readings acknowledged", sent.values.reduce(0, +)), ("stored", stored),
      ],
      violations: findings.violations
    )
  }
}
