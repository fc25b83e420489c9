import ArgumentParser
import BinarioDomain
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// `--test-clock <file>`: runs the process on a clock an end-to-end test moves ahead, so what
/// takes hours (a reservation dispatched ten minutes before its meeting, a driver's wait for a
/// passenger) is tested in moments, without sleeping. The file holds how many seconds ahead of
/// the wall clock the process runs; the test writes it and sends the process `SIGUSR1`, the
/// process writes the offset it now runs at to `<file>.applied`, and the jobs waiting wake at
/// once. The clock never goes back. Not for production: a service adopts it
/// with `@OptionGroup var testClock: TestClockOption`, passes ``additionalSettings`` and reads
/// its time from ``ServiceRunnerContext/domainClock()``.
public struct TestClockOption: ParsableArguments, Sendable {
  public static let setting = Setting(
    "testClock",
    help:
      "End-to-end tests only: a file holding how many seconds ahead of the wall clock this process runs; it is read at start and again at each SIGUSR1.",
    valueName: "file"
  )

  @Option(name: .customLong(Self.setting.flagName), help: Self.setting.argumentHelp)
  public var file: String?

  public init() {}

  public var additionalSettings: [AdditionalSetting] {
    [Self.setting.given(file)]
  }

  /// Writes the offset the process now runs at to `<file>.applied`: what a test waits for after
  /// signalling, before it calls the process on the new time.
  static func acknowledge(_ offset: TimeInterval, of path: String) throws {
    try "\(offset)\n".write(toFile: path + ".applied", atomically: true, encoding: .utf8)
  }

  /// The offset a test clock file holds (seconds; a missing or empty file is 0).
  static func offset(in path: String) throws -> TimeInterval {
    guard let data = FileManager.default.contents(atPath: path) else { return 0 }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty { return 0 }
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
      throw ConfigurationError(setting: setting.key, source: .defaults, reason: "\(path) should hold a number of seconds, 0 or more")
    }
    return seconds
  }
}

extension ServiceRunnerContext {
  /// The clock the service's domain reads: the wall clock, or with `--test-clock` an
  /// ``AdjustableClock`` set from its file (again at each `SIGUSR1`); the jobs added afterwards
  /// (``addJob(_:)``) then wait on it.
  public func domainClock() throws -> any DomainClock {
    guard let path = try additionalSettings.value(TestClockOption.setting, { $0 }) else { return SystemClock() }
    let clock = AdjustableClock(offset: try TestClockOption.offset(in: path))
    try TestClockOption.acknowledge(clock.currentOffset, of: path)
    jobTimer.withLock { $0 = AdjustableJobTimer(clock: clock) }
    logger.warning("running on a test clock", metadata: ["file": "\(path)", "offset_seconds": "\(clock.currentOffset)"])
    addService(TestClockSignals(clock: clock, path: path, logger: logger), name: "test-clock")
    return clock
  }
}

/// Re-reads the test clock's file at each `SIGUSR1`.
struct TestClockSignals: Service {
  let clock: AdjustableClock
  let path: String
  let logger: Logger

  func run() async throws {
    await cancelWhenGracefulShutdown {
      for await _ in await UnixSignalsSequence(trapping: .sigusr1) {
        do {
          clock.set(offset: try TestClockOption.offset(in: path))
          try TestClockOption.acknowledge(clock.currentOffset, of: path)
          logger.notice("test clock moved", metadata: ["offset_seconds": "\(clock.currentOffset)"])
        } catch {
          logger.error("test clock file unreadable", metadata: ["error": "\(error)"])
        }
      }
    }
  }
}
