import GRDB

extension DatabasePool {
  /// Runs `body` in a read-only transaction on the calling thread, from sync or async code alike:
  /// what a handler's per-call reads use.
  ///
  /// GRDB's async `read` hops to its pool's queue for a reader, then to the reader's queue, and
  /// back to the caller's executor after each: four thread switches for one read, each a wake-up
  /// on the critical path of a request handled on its connection's event loop. This reads where
  /// the caller is instead; the caller's thread is busy meanwhile, so keep it to short, indexed
  /// reads. With WAL, readers never wait for the writer: the time taken is the read's own work.
  ///
  /// The transaction (a snapshot across all of `body`'s statements, as GRDB's `read` gives) is
  /// begun and committed with statements compiled once per reader connection. GRDB's own `read`
  /// compiles `BEGIN` and `COMMIT` anew on every call, and compiling runs its statement
  /// authorizer: measured, that was a tenth of identity's CPU per `GetMe`.
  ///
  /// Writes stay on GRDB's async `write`: a write may wait for the writer lock.
  public func readOnCurrentThread<T>(_ body: (Database) throws -> T) throws -> T {
    try self.unsafeRead { db in try db.readOnlyTransaction(body) }
  }
}

extension Database {
  /// `body` in a transaction begun and committed with cached statements (see
  /// ``GRDB/DatabasePool/readOnCurrentThread(_:)``), rolled back if `body` or the commit throws.
  func readOnlyTransaction<T>(_ body: (Database) throws -> T) throws -> T {
    try self.executeCached(sql: "BEGIN DEFERRED TRANSACTION")
    let result: T
    do {
      result = try body(self)
    } catch {
      try? self.executeCached(sql: "ROLLBACK TRANSACTION")
      throw error
    }
    do {
      try self.executeCached(sql: "COMMIT TRANSACTION")
    } catch {
      // Never hand the connection back inside a transaction.
      try? self.executeCached(sql: "ROLLBACK TRANSACTION")
      throw error
    }
    return result
  }
}
