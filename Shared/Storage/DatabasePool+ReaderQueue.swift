import GRDB

extension DatabasePool {
  /// A read-only transaction on one of GRDB's reader threads, the reader released there: the async
  /// read every Binario process uses, for reads too long to hold an event loop (short, indexed
  /// reads use ``readOnCurrentThread(_:)``).
  ///
  /// Never GRDB's own async `read`: that one keeps its reader until the awaiting task resumes, and
  /// a task resumes on an event loop (NIO's loops are the global executor), while a synchronous
  /// read blocks its loop until a reader is free. With both in use the readers end up held by
  /// tasks that only a blocked loop could run, and the process hangs for good: measured, dispatch
  /// under 64 `ListSavedPlaces` in flight, and identity under the load generator (its event log
  /// served to five consumers while sign-ups read on the loops). Here `body` runs and the reader
  /// is released on GRDB's reader queue; the task is resumed with the result after.
  public func readOnReaderQueue<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      self.asyncRead { database in
        continuation.resume(with: Result { try body(database.get()) })
      }
    }
  }
}
