import BinarioProto
import Synchronization

/// The load generator's engine: a cast, a mix and a door; `run(rate:for:)` plays the mix at a
/// total rate for a while and reports what each operation saw.
public struct LoadGenerator: Sendable {
  public let door: any Door
  public let cast: Cast
  public let mix: LoadMix
  /// At most this many calls in flight: past it the suite is so far behind that starting more
  /// would only measure the generator. A call not started counts as a failure.
  public var inFlightBound = 5_000
  private let streams = StreamRecorder()
  /// Inside ``withNotificationStreamsOpen(_:)``: the streams are open already.
  private var streamsKeptOpen = false

  public init(door: any Door, cast: Cast, mix: LoadMix) {
    self.door = door
    self.cast = cast
    self.mix = mix
  }

  /// Runs `body` with ``LoadMix/notificationStreams`` streams open throughout, across all the
  /// runs it makes with the generator it is given, as apps keep theirs: a run that opens its own
  /// closes them at its end, and a hundred streams closed and opened again between the steps of
  /// a search, all from one address, meet the gateway's per-address connection limit while the
  /// closed connections' TLS closes complete (docs/known-issues.md).
  public func withNotificationStreamsOpen<Result: Sendable>(_ body: (LoadGenerator) async throws -> Result) async throws -> Result {
    try await withThrowingTaskGroup(of: Void.self) { group in
      for traveller in cast.travellers.prefix(mix.notificationStreams) {
        group.addTask { await self.keepNotificationsOpen(traveller) }
      }
      var keeping = self
      keeping.streamsKeptOpen = true
      let result = try await body(keeping)
      group.cancelAll()
      return result
    }
  }

  /// Plays the mix at `rate` operations per second: first `warmUp` unmeasured, then `duration`
  /// measured, with ``LoadMix/notificationStreams`` streams held open throughout (opened for
  /// the run unless ``withNotificationStreamsOpen(_:)`` keeps them). Every call started is waited
  /// for (each has the door's deadline), so the report counts them all.
  public func run(rate: Double, for duration: Duration, warmUp: Duration = .seconds(2)) async -> LoadReport {
    let measurements = Measurements()
    let context = LoadContext(door: door, cast: cast)
    let counters = Counters()
    let start = ContinuousClock.now + .milliseconds(50)
    let measuredFrom = start + warmUp
    let end = measuredFrom + duration
    let rates = mix.rates(total: rate)

    _ = streams.takeFigures()
    await withTaskGroup(of: Void.self) { streams in
      if !streamsKeptOpen {
        for traveller in cast.travellers.prefix(mix.notificationStreams) {
          streams.addTask { await self.keepNotificationsOpen(traveller) }
        }
      }
      await withDiscardingTaskGroup { operations in
        for (name, perSecond) in rates where perSecond > 0 {
          let operation = LoadOperation.catalogue[name]!
          let schedule = ArrivalSchedule(start: start, perSecond: perSecond)
          operations.addTask {
            await withDiscardingTaskGroup { calls in
              for number in 0 ..< schedule.count(before: end) {
                let intended = schedule.instant(of: number)
                try? await Task.sleep(until: intended, clock: .continuous)
                let measured = intended >= measuredFrom
                guard counters.inFlight.add(1, ordering: .relaxed).newValue <= inFlightBound else {
                  counters.inFlight.subtract(1, ordering: .relaxed)
                  if measured { counters.notStarted.add(1, ordering: .relaxed) }
                  continue
                }
                calls.addTask {
                  defer { counters.inFlight.subtract(1, ordering: .relaxed) }
                  do {
                    try await operation.perform(context)
                    if measured { measurements.succeeded(name, microseconds: Self.microseconds(since: intended)) }
                  } catch {
                    if measured { measurements.failed(name, CallFailure.from(error), microseconds: Self.microseconds(since: intended)) }
                  }
                }
              }
            }
          }
        }
      }
      streams.cancelAll()
    }

    let streamFigures = streams.takeFigures()
    let figures = measurements.snapshot
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    let operations = rates.map { name, perSecond in
      let measured = figures[name] ?? Measurements.Operation()
      let histogram = measured.latencies
      return LoadReport.Operation(
        name: name,
        app: LoadOperation.catalogue[name]!.app,
        scheduledPerSecond: perSecond,
        completed: Int(histogram.totalCount),
        p50: histogram.totalCount == 0 ? 0 : histogram.valueAtPercentile(50),
        p90: histogram.totalCount == 0 ? 0 : histogram.valueAtPercentile(90),
        p99: histogram.totalCount == 0 ? 0 : histogram.valueAtPercentile(99),
        p999: histogram.totalCount == 0 ? 0 : histogram.valueAtPercentile(99.9),
        max: histogram.totalCount == 0 ? 0 : histogram.max,
        failures: measured.failures,
        examples: measured.examples
      )
    }
    return LoadReport(
      door: door.kind,
      rate: rate,
      seconds: seconds,
      operations: operations,
      streams: streamFigures,
      notStarted: counters.notStarted.load(ordering: .relaxed)
    )
  }

  /// A traveller's app open on the notifications: the stream is reopened after a failure (a
  /// failure counted) until the run ends.
  private func keepNotificationsOpen(_ traveller: Traveller) async {
    while !Task.isCancelled {
      streams.opened()
      do {
        try await traveller.person.call(through: door) { caller in
          try await door.serverStream(
            Binario_Scheduling_V1_Notifications.Method.WatchNotifications.descriptor,
            Binario_Scheduling_V1_WatchNotificationsRequest(),
            as: caller,
            answer: Binario_Scheduling_V1_WatchNotificationsResponse.self
          ) { [streams] _ in streams.message() }
        }
        if Task.isCancelled { return streams.closed(nil) }
        streams.closed(CallFailure(code: "ended", message: "the suite ended a notification stream"))
      } catch {
        if Task.isCancelled { return streams.closed(nil) }
        streams.closed(CallFailure.from(error))
      }
      try? await Task.sleep(for: .seconds(1))
    }
  }

  private static func microseconds(since instant: ContinuousClock.Instant) -> UInt64 {
    let elapsed = ContinuousClock.now - instant
    let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
    return UInt64(max(0, micros))
  }
}

/// The calls in flight and those not started, shared by every operation's schedule.
private final class Counters: Sendable {
  let inFlight = Atomic(0)
  let notStarted = Atomic(0)
}
