import NIOCore

/// A task executor that runs jobs on one event loop: the preferred executor of a server call's
/// handler task, so the handler runs on the loop its connection reads and writes on.
///
/// Without it, a handler runs on Swift's global executor, and every call crosses threads twice
/// at least (the request to the handler's thread, the response back to the loop). Worse, the
/// response parts a GRPCCore handler writes one after another (headers, message, status) reach
/// an idle loop one by one, and each leaves in a TLS record and a `write` of its own. On the
/// loop, the parts of one turn share one flush (``BinarioConnectionConfiguration/coalescesFlushes``),
/// and a task that awaits something elsewhere (a database queue) comes back to this loop, not to
/// whichever thread the global executor picks.
///
/// The price: a handler that blocks its thread blocks its connection's loop. Handlers must move
/// long blocking work elsewhere (identity hashes passwords on Dispatch, for instance).
final class EventLoopTaskExecutor: TaskExecutor {
  let eventLoop: any EventLoop

  init(_ eventLoop: any EventLoop) {
    self.eventLoop = eventLoop
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    self.eventLoop.execute {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
    }
  }
}
