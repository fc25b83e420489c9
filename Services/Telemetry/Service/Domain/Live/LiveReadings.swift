import BinarioDomain
import Foundation
import Synchronization

/// A board's upload as committed: the readings it newly stored (none for a resend) and when the
/// server heard from it.
public struct LiveBatch: Sendable {
  public let deviceSeq: Int64
  public let readings: [Reading]
  public let receivedAt: Date
}

/// What live mode sends after the boards' first presence.
public enum LiveUpdate: Sendable, Equatable {
  /// A board's newly stored readings, in the order it sent them.
  case readings(deviceID: String, [Reading])
  /// Boards whose presence changed: online again with an upload, or offline after silence.
  case presence([BoardPresence])
}

/// Live mode kept open: the boards' presence now, then each update as it happens.
public struct ReadingsWatch: Sendable {
  public let presence: [BoardPresence]
  /// Ends when ``end`` is called, at shutdown, or when its reader falls too far behind (it
  /// opens live mode again and reads what it missed with the queries).
  public let updates: AsyncStream<LiveUpdate>
  public let end: @Sendable () -> Void
}

/// Live mode: a person's boards as their readings are committed, with each board's last-seen time
/// and when it goes offline, on the injected clock and timer.
public struct LiveReadings: Sendable {
  let store: TelemetryStore
  let queries: ReadingQueries
  let clock: any DomainClock
  let timer: any JobTimer
  let offlineAfter: TimeInterval
  /// Where ingest hands each committed upload, by device row key.
  public let uploads: KeyedBroadcast<Int64, LiveBatch>

  public init(
    store: TelemetryStore,
    queries: ReadingQueries,
    clock: any DomainClock,
    timer: any JobTimer = ContinuousJobTimer(),
    offlineAfter: TimeInterval = BoardPresence.offlineAfter,
    uploads: KeyedBroadcast<Int64, LiveBatch> = KeyedBroadcast()
  ) {
    self.store = store
    self.queries = queries
    self.clock = clock
    self.timer = timer
    self.offlineAfter = offlineAfter
    self.uploads = uploads
  }

  /// Whether `device` is sending, now.
  public func presence(of device: Device) -> BoardPresence {
    BoardPresence(deviceID: device.id, lastSeen: device.lastSeenAt, now: clock.now(), offlineAfter: offlineAfter)
  }

  /// Watches `deviceID` (which `userID` must be able to see) or, without one, the boards `userID`
  /// owns now. Its first presence is read after the watch has begun, so an upload committed
  /// meanwhile is in both, never in neither.
  public func watch(userID: String, deviceID: String?) async throws -> ReadingsWatch {
    let seqs = try await queries.devices(userID: userID, deviceID: deviceID)
    let (batches, endBatches) = uploads.subscribe(Set(seqs))
    let devices = try await store.devices(seqs: seqs)
    let ids = Dictionary(uniqueKeysWithValues: devices.map { ($0.seq, $0.device.id) })
    let now = clock.now()
    let first = devices.map { BoardPresence(deviceID: $0.device.id, lastSeen: $0.device.lastSeenAt, now: now, offlineAfter: offlineAfter) }
    let presence = Boards(first)
    let (updates, continuation) = AsyncStream.makeStream(of: LiveUpdate.self, bufferingPolicy: .bufferingOldest(uploads.capacity))
    // A board coming online gives the offline timer a deadline again.
    let (rearm, rearmed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let send: @Sendable (LiveUpdate) -> Void = { update in
      if case .dropped = continuation.yield(update) { continuation.finish() }
    }
    let task = Task { [clock, timer, offlineAfter] in
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          for await batch in batches {
            guard let id = ids[batch.deviceSeq] else { continue }
            let now = BoardPresence(deviceID: id, lastSeen: batch.receivedAt, now: clock.now(), offlineAfter: offlineAfter)
            let cameOnline = presence.state.withLock { boards in
              defer { boards[id] = now }
              return now.isOnline && boards[id]?.isOnline != true
            }
            if cameOnline {
              send(.presence([now]))
              rearmed.yield()
            }
            if !batch.readings.isEmpty { send(.readings(deviceID: id, batch.readings)) }
          }
        }
        group.addTask {
          var rearms = rearm.makeAsyncIterator()
          while !Task.isCancelled {
            let due = presence.state.withLock { $0.values.compactMap { $0.offlineAt(offlineAfter: offlineAfter) }.min() }
            guard let due else {
              guard await rearms.next() != nil else { return }
              continue
            }
            do {
              try await timer.sleep(for: .milliseconds(max(0, Int64((due.timeIntervalSince(clock.now()) * 1000).rounded(.up)))))
            } catch {
              return
            }
            let now = clock.now()
            let wentOffline = presence.state.withLock { boards in
              var changed: [BoardPresence] = []
              for (id, board) in boards where board.isOnline {
                let later = BoardPresence(deviceID: id, lastSeen: board.lastSeen, now: now, offlineAfter: offlineAfter)
                if !later.isOnline {
                  boards[id] = later
                  changed.append(later)
                }
              }
              return changed.sorted { $0.deviceID < $1.deviceID }
            }
            if !wentOffline.isEmpty { send(.presence(wentOffline)) }
          }
        }
        // The first to end (the uploads at shutdown, the timer when cancelled) ends both.
        await group.next()
        group.cancelAll()
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in
      task.cancel()
      endBatches()
      rearmed.finish()
    }
    return ReadingsWatch(presence: first, updates: updates, end: { continuation.finish() })
  }
}

/// The watched boards' presence, by device id, shared by a watch's two tasks.
private final class Boards: Sendable {
  let state: Mutex<[String: BoardPresence]>

  init(_ boards: [BoardPresence]) {
    state = Mutex(Dictionary(uniqueKeysWithValues: boards.map { ($0.deviceID, $0) }))
  }
}
