import Foundation
import Synchronization

/// The HTTP/JSON front door's open Server-Sent Events streams, so that graceful shutdown can
/// end them at once (each client told `UNAVAILABLE`, and reconnecting) rather than wait for
/// streams that never end on their own.
final class OpenStreams: Sendable {
  private struct State {
    var calls: [ObjectIdentifier: BridgedClientCall] = [:]
    var isClosed = false
  }

  private let state = Mutex(State())

  /// Keeps `call` until ``remove(_:)``; a call opened after ``endAll()`` is ended at once.
  func add(_ call: BridgedClientCall) {
    let accepted = self.state.withLock { state in
      guard !state.isClosed else { return false }
      state.calls[ObjectIdentifier(call)] = call
      return true
    }
    if !accepted { call.gatewayShuttingDown() }
  }

  func remove(_ call: BridgedClientCall) {
    _ = self.state.withLock { $0.calls.removeValue(forKey: ObjectIdentifier(call)) }
  }

  /// Ends every open stream, and any opened later.
  func endAll() {
    let calls = self.state.withLock { state in
      state.isClosed = true
      defer { state.calls = [:] }
      return Array(state.calls.values)
    }
    for call in calls { call.gatewayShuttingDown() }
  }
}
