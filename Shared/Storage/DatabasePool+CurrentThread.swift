import GRDB

extension DatabasePool {
  /// Runs `body` in a read-only transaction on the calling thread, as GRDB's synchronous `read`
  /// does, from sync or async code alike.
  ///
  /// GRDB's async `read` hops to its pool's queue for a reader, then to the reader's queue, and
  /// back to the caller's executor after each: four thread switches for one read, each a wake-up
  /// on the critical path of a request handled on its connection's event loop. This reads where
  /// the caller is instead; the caller's thread is busy meanwhile, so keep it to short, indexed
  /// reads. With WAL, readers never wait for the writer: the time taken is the read's own work.
  ///
  /// Writes stay on GRDB's async `write`: a write may wait for the writer lock.
  public func readOnCurrentThread<T>(_ body: (Database) throws -> T) throws -> T {
    try self.read(body)
  }
}
