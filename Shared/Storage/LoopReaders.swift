import GRDB
import NIOPosix
import Synchronization

/// A read-only connection of its own for each event loop that reads: what a handler's short reads
/// (``TracedDatabasePool/readOnCurrentThread(_:)``) use when they run on a loop, as every
/// handler does.
///
/// A read through GRDB's pool takes a reader from the pool first (a semaphore, a dispatch group
/// and a queue of its own around the list of readers), then releases it the same way. A loop's
/// connection is only ever used from that loop's thread, so none of that is needed: one lookup
/// under an uncontended lock, and the connection's own serial queue, entered on the calling
/// thread. With WAL each connection reads its own snapshot, as the pool's readers do.
///
/// Off a loop (GRDB's reader threads, Dispatch, a test's thread), or when the loop's connection
/// is already inside a read further up the same thread's stack (a read nested in another),
/// reads go through the pool.
final class LoopReaders: Sendable {
  /// A loop's connection and whether a read on it is under way (only its loop's thread touches
  /// `busy`; atomic only to be `Sendable`).
  private final class Reader: Sendable {
    let connection: DatabaseQueue
    let busy = Atomic<Bool>(false)

    init(_ connection: DatabaseQueue) {
      self.connection = connection
    }
  }

  private struct State {
    var readers: [ObjectIdentifier: Reader] = [:]
    var closed = false
  }

  private let path: String
  private let configuration: Configuration
  private let state = Mutex(State())

  /// Connections to `pool`'s file, configured as its own but read-only.
  init(of pool: DatabasePool) {
    self.path = pool.path
    var configuration = pool.configuration
    configuration.readonly = true
    configuration.label = (configuration.label ?? "database") + ".loop"
    self.configuration = configuration
  }

  /// `body` in a read-only transaction on the current loop's connection, or `fallback()` off a
  /// loop or when that connection is busy.
  func read<T>(_ body: (Database) throws -> T, otherwise fallback: () throws -> T) throws -> T {
    guard let loop = MultiThreadedEventLoopGroup.currentEventLoop, let reader = try self.reader(for: ObjectIdentifier(loop)),
      !reader.busy.exchange(true, ordering: .relaxed)
    else {
      return try fallback()
    }
    defer { reader.busy.store(false, ordering: .relaxed) }
    return try reader.connection.inDatabase { db in try db.readOnlyTransaction(body) }
  }

  /// The loop's reader, opened on first use; `nil` once closed.
  private func reader(for loop: ObjectIdentifier) throws -> Reader? {
    try self.state.withLock { state in
      guard !state.closed else { return nil }
      if let reader = state.readers[loop] { return reader }
      let reader = Reader(try DatabaseQueue(path: self.path, configuration: self.configuration))
      state.readers[loop] = reader
      return reader
    }
  }

  /// Closes every loop's connection (each after the read under way on it, if any); later reads go
  /// through the pool.
  func close() throws {
    let readers = self.state.withLock { state in
      state.closed = true
      defer { state.readers = [:] }
      return Array(state.readers.values)
    }
    for reader in readers { try reader.connection.close() }
  }
}
