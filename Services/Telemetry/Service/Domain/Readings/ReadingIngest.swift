import BinarioDomain
import Foundation

/// Storing a board's readings: each reading is checked on its own (a bad one is refused with
/// its reason while the rest of the batch is stored), then the batch is committed at once;
/// idempotent per (device, time), and a stored reading never changes.
public struct ReadingIngest: Sendable {
  let store: TelemetryStore
  let clock: any DomainClock
  /// How far after the server's clock a reading's time may be (a board's clock drifts).
  public var allowedSkew: TimeInterval = 300
  /// The most readings one batch may carry.
  public static let maximumBatch = 10_000

  /// Where each committed upload goes for live mode (``LiveReadings``).
  let uploads: KeyedBroadcast<Int64, LiveBatch>
  /// Told after each committed batch that stored a reading (the air alerts' wake-up).
  let stored: @Sendable () -> Void

  public init(
    store: TelemetryStore,
    clock: any DomainClock,
    uploads: KeyedBroadcast<Int64, LiveBatch> = KeyedBroadcast(),
    stored: @escaping @Sendable () -> Void = {}
  ) {
    self.store = store
    self.clock = clock
    self.uploads = uploads
    self.stored = stored
  }

  /// Stores a batch of a device's readings; answered once committed.
  public func upload(deviceID: String, _ readings: [Reading]) async throws -> IngestOutcome {
    guard readings.count <= Self.maximumBatch else {
      throw ServiceError.invalid("readings", "a batch holds at most \(Self.maximumBatch) readings; send the rest in another")
    }
    guard let device = try await store.deviceSeq(id: deviceID) else { throw ServiceError.notFound("no device \(deviceID)") }
    return try await upload(deviceSeq: device, readings)
  }

  /// Stores a batch of the readings of the device whose row key is `device` (as a device token
  /// names it, ``DeviceRegistry/device(forToken:)``); answered once committed.
  public func upload(deviceSeq device: Int64, _ readings: [Reading]) async throws -> IngestOutcome {
    guard readings.count <= Self.maximumBatch else {
      throw ServiceError.invalid("readings", "a batch holds at most \(Self.maximumBatch) readings; send the rest in another")
    }
    let now = clock.now()
    var refused: [(index: Int, reason: String)] = []
    var valid: [(index: Int, reading: Reading)] = []
    valid.reserveCapacity(readings.count)
    for (index, reading) in readings.enumerated() {
      if let problem = reading.problem(now: now, allowedSkew: allowedSkew) {
        refused.append((index, problem))
      } else {
        valid.append((index, reading))
      }
    }
    // Even a batch with nothing valid marks the board seen: it is sending.
    var outcome = try await store.store(deviceSeq: device, valid, seenAt: now)
    // Live mode's copy of the batch only when someone watches this board: ingest is a hot path.
    if uploads.subscriberCount(device) > 0 {
      uploads.publish(LiveBatch(deviceSeq: device, readings: outcome.storedIndexes.map { readings[$0] }, receivedAt: now), to: device)
    }
    if outcome.stored > 0 { stored() }
    outcome.rejected = (refused + outcome.rejected).sorted { $0.index < $1.index }
    return outcome
  }

  /// Stores a stream's readings as they come: whatever has gathered while the last commit ran is
  /// committed next, in one transaction (a board sending a reading a second gets each committed
  /// at once; one sending faster, in groups). `send` reads the stream and hands each message's
  /// readings to the closure it is given. Returns, once all is committed, the totals; a refused
  /// reading's index counts from the stream's first.
  public func upload(
    deviceSeq device: Int64,
    streaming send: @escaping @Sendable (_ add: @Sendable ([Reading]) async throws -> Void) async throws -> Void
  ) async throws -> IngestOutcome {
    let pending = PendingReadings(limit: Self.maximumBatch)
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        do {
          try await send { try await pending.add($0) }
          pending.finish()
        } catch {
          pending.finish(error)
        }
      }
      defer { pending.close() }
      var total = IngestOutcome()
      var offset = 0
      while let readings = try await pending.take(maximum: Self.maximumBatch) {
        let outcome = try await upload(deviceSeq: device, readings)
        total.stored += outcome.stored
        total.duplicates += outcome.duplicates
        total.rejected += outcome.rejected.map { (index: $0.index + offset, reason: $0.reason) }
        offset += readings.count
      }
      try await group.waitForAll()
      return total
    }
  }
}
