import BinarioDomain
import BinarioTracing
import GRDB
import Tracing

/// A service's `DatabasePool` with a span around every transaction: what stores hold.
///
/// It has the shape of the GRDB calls stores make (`read`, `write`, sync and async, and
/// ``readOnCurrentThread(_:)``), so a store's SQL reads as plain GRDB. Each transaction is a
/// client span of the current trace named `read <file>` or `write <file>`, with the semantic
/// conventions' `db.system.name` (`sqlite`), `db.namespace` (the file) and `db.operation.name`.
/// Anything else GRDB offers is on ``underlying``.
///
/// A write that fails because the disk is full (`SQLITE_FULL`) throws
/// ``BinarioDomain/ServiceError/storageFull(_:)``: the caller hears `RESOURCE_EXHAUSTED` and may
/// retry once space is freed. SQLite rolls the transaction back and carries on, so reads, health
/// and later writes need nothing done.
public struct TracedDatabasePool: Sendable {
  public let underlying: DatabasePool
  private let loopReaders: LoopReaders
  private let tracer: any Tracer
  private let namespace: String
  private let readName: String
  private let writeName: String
  /// A transaction span's attributes, the same for every read and every write of this file:
  /// built once, given to each span whole.
  private let readAttributes: SpanAttributes
  private let writeAttributes: SpanAttributes

  /// - Parameter tracer: By default the process's (``InstrumentationSystem``), read once here.
  public init(_ pool: DatabasePool, tracer: any Tracer = InstrumentationSystem.tracer) {
    self.underlying = pool
    self.loopReaders = LoopReaders(of: pool)
    self.tracer = tracer
    let label = pool.configuration.label ?? "database"
    self.namespace = label
    self.readName = "read " + label
    self.writeName = "write " + label
    var attributes = SpanAttributes()
    attributes[SpanAttributeName.databaseSystem] = "sqlite"
    attributes[SpanAttributeName.databaseNamespace] = label
    attributes[SpanAttributeName.databaseOperation] = Operation.read.rawValue
    self.readAttributes = attributes
    attributes[SpanAttributeName.databaseOperation] = Operation.write.rawValue
    self.writeAttributes = attributes
  }

  /// A read-only transaction, as ``readOnCurrentThread(_:)``.
  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    try self.readOnCurrentThread(body)
  }

  /// A read-only transaction on one of GRDB's reader threads
  /// (``GRDB/DatabasePool/readOnReaderQueue(_:)``: never GRDB's own async `read`, which can hang
  /// a process), for reads too long to hold an event loop (short, indexed reads use
  /// ``readOnCurrentThread(_:)``).
  public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    let span = self.start(.read)
    defer { span.end() }
    do {
      return try await self.underlying.readOnReaderQueue(body)
    } catch {
      Self.failed(span, error)
      throw error
    }
  }

  /// A read on the calling thread: on an event loop, on that loop's own read-only connection
  /// (``LoopReaders``); elsewhere through the pool (``GRDB/DatabasePool/readOnCurrentThread(_:)``).
  public func readOnCurrentThread<T>(_ body: (Database) throws -> T) throws -> T {
    let span = self.start(.read)
    defer { span.end() }
    return try self.recording(span) {
      try self.loopReaders.read(body) { try self.underlying.readOnCurrentThread(body) }
    }
  }

  public func write<T>(_ body: (Database) throws -> T) throws -> T {
    let span = self.start(.write)
    defer { span.end() }
    return try self.recording(span) {
      do {
        return try self.underlying.write(body)
      } catch {
        throw self.storageFull(error) ?? error
      }
    }
  }

  public func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
    let span = self.start(.write)
    defer { span.end() }
    do {
      return try await self.underlying.write(body)
    } catch {
      Self.failed(span, error)
      throw self.storageFull(error) ?? error
    }
  }

  /// The refusal a full disk gets, for `error` when that is what it is.
  private func storageFull(_ error: any Error) -> ServiceError? {
    guard let error = error as? DatabaseError, error.resultCode == .SQLITE_FULL else { return nil }
    return .storageFull("the service's storage (\(self.namespace)) is full: nothing was written; retry once space is freed")
  }

  /// Closes the loops' connections, then the pool.
  public func close() throws {
    try self.loopReaders.close()
    try self.underlying.close()
  }

  private static func failed(_ span: any Span, _ error: any Error) {
    span.recordError(error)
    span.setStatus(SpanStatus(code: .error))
  }

  private enum Operation: String {
    case read, write
  }

  private func start(_ operation: Operation) -> any Span {
    let span = self.tracer.startSpan(
      operation == .read ? self.readName : self.writeName,
      context: ServiceContext.current ?? .topLevel,
      ofKind: .client
    )
    if span.isRecording {
      span.attributes = operation == .read ? self.readAttributes : self.writeAttributes
    }
    return span
  }

  private func recording<T>(_ span: any Span, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch {
      Self.failed(span, error)
      throw error
    }
  }
}
