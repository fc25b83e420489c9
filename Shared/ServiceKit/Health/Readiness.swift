import Synchronization

/// What `GET /readyz` answers: whether this process takes calls now, for load balancers and
/// Kubernetes readiness probes (which cannot speak `grpc.health.v1` over mutual TLS).
///
/// The process is ready when every check passes. ``ServiceRunner`` adds the server's own checks
/// (it listens and is not draining; for a GRPCCore server, `grpc.health` reports the whole server
/// `SERVING`); a service may add more with ``add(_:check:)``. Checks run on each probe, so they
/// must be cheap and must not block. Checks are about this process only: one that depended on
/// another service would take every replica out of its load balancer when that service is down.
public final class Readiness: Sendable {
  private struct Check {
    var name: String
    var reasonNotReady: @Sendable () -> String?
  }

  private let checks = Mutex<[Check]>([])
  private let notes = Mutex<[Check]>([])

  public init() {}

  /// Adds a check named `name`; `check` returns `nil` when ready, else why not, for a person.
  public func add(_ name: String, check: @escaping @Sendable () -> String?) {
    self.checks.withLock { $0.append(Check(name: name, reasonNotReady: check)) }
  }

  /// Adds a check that passes only while `listener` is listening.
  public func add(_ name: String, listener: ListenerState) {
    self.add(name) {
      let phase = listener.phase
      return phase == .listening ? nil : "\(phase)"
    }
  }

  /// Adds a note named `name`: something a person must look at that does not stop the process
  /// taking calls (events a consumer lost). `note` returns `nil` when there is nothing to say.
  /// `/readyz` lists notes after its verdict, ready or not.
  public func addNote(_ name: String, note: @escaping @Sendable () -> String?) {
    self.notes.withLock { $0.append(Check(name: name, reasonNotReady: note)) }
  }

  /// The notes that have something to say now, as `name: note`.
  public func currentNotes() -> [String] {
    let notes = self.notes.withLock { $0 }
    return notes.compactMap { note in note.reasonNotReady().map { "\(note.name): \($0)" } }
  }

  /// The checks that fail now, as `name: reason`; empty when the process is ready.
  public func failures() -> [String] {
    let checks = self.checks.withLock { $0 }
    return checks.compactMap { check in check.reasonNotReady().map { "\(check.name): \($0)" } }
  }
}
