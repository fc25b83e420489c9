import BinarioDomain
import Foundation

/// A board calibrated against a reference station: the fit on the station's spans the board spent
/// within ``ReferenceData/colocationRadius`` of it, and the board's series over the range, raw and
/// corrected bucket by bucket.
public struct BoardCalibration: Sendable, Hashable {
  /// The particulate measure fitted (the station sensor's).
  public var measure: Measure
  public var fit: Calibration
  /// How the station averages its values (each pair is one of them beside the board's mean over
  /// its span).
  public var averaging: Averaging?
  public var points: [CalibratedPoint]
  /// Seconds per bucket of `points`.
  public var bucketWidth: TimeInterval
}

/// One time bucket of the board's series: the raw mean, and the mean of its readings corrected
/// by the fit (`nil` when none of them has a humidity to correct with).
public struct CalibratedPoint: Sendable, Hashable {
  public var start: Date
  public var raw: Double
  public var corrected: Double?
}

/// A board's reading as a calibration reads it: its particulate value, the humidity the board
/// measured with it, and where it was.
public struct CalibrationReading: Sendable, Hashable {
  public var time: Date
  public var value: Double
  public var humidity: Double?
  public var position: GeoPoint?

  public init(time: Date, value: Double, humidity: Double?, position: GeoPoint?) {
    (self.time, self.value, self.humidity, self.position) = (time, value, humidity, position)
  }
}

extension ReferenceData {
  /// How near a station a board's reading must be made to be paired with the station's.
  public static let colocationRadius = 1_000.0

  /// Fits one board's particulate readings against a station's (`sensorID`, a PM2.5 or PM10
  /// sensor) over `range`: each station value beside the board's mean value and mean humidity
  /// over the same span, from the readings made within ``colocationRadius`` of the station. The
  /// board's series over the whole range comes back raw and corrected, wherever it was.
  public func calibrate(
    userID: String,
    deviceID: String,
    sensorID: String,
    in range: Range<Date>,
    maximumPoints: Int
  ) async throws -> BoardCalibration {
    guard !deviceID.isEmpty else { throw ServiceError.invalid("device_id", "a calibration is one board's: pick the board") }
    guard let sensor = try await store.referenceSensor(id: sensorID) else { throw ServiceError.notFound("no reference sensor \(sensorID)") }
    guard let measure = sensor.measure, measure == .pm2_5 || measure == .pm10 else {
      throw ServiceError.invalid("sensor_id", "a calibration fits particulate matter: pick a station's PM2.5 or PM10 sensor")
    }
    let range = try ReadingQueries.checked(range)
    let points = maximumPoints == 0 ? 500 : maximumPoints
    guard (1 ... ReadingQueries.maximumSeriesPoints).contains(points) else {
      throw ServiceError.invalid("max_points", "a series has 1 to \(ReadingQueries.maximumSeriesPoints) points")
    }
    let readings = try await store.calibrationReadings(
      deviceSeqs: try await queries.devices(userID: userID, deviceID: deviceID),
      measure: measure,
      in: range
    )
    .sorted { $0.time < $1.time }
    let near = readings.filter { reading in
      guard reading.humidity != nil, let position = reading.position else { return false }
      return position.distance(to: sensor.position) <= Self.colocationRadius
    }
    let reference = try await preferredValues(sensorID: sensorID, overlapping: range)
    let samples = Self.colocatedSamples(near, reference: reference, in: range)
    guard let fit = Calibration.fit(samples) else {
      if near.isEmpty {
        throw ServiceError.failedPrecondition(
          "none of the board's readings with a humidity in this range was made within 1 km of \(PersonText(verbatim: sensor.stationName))"
        )
      }
      if samples.count < Calibration.minimumPairs {
        throw ServiceError.failedPrecondition(
          "the board was within 1 km of \(PersonText(verbatim: sensor.stationName)) for \(samples.count) of the station's values: a calibration needs \(Calibration.minimumPairs)"
        )
      }
      throw ServiceError.failedPrecondition(
        "the board's values or its humidity never changed near the station: a fit cannot tell their effects apart"
      )
    }
    let buckets = TimeBuckets(range: range, maximumPoints: points)
    let corrected = buckets.points(
      readings.compactMap { reading in reading.humidity.map { (reading.time, fit.corrected(raw: reading.value, humidity: $0)) } }
    )
    let correctedByStart = Dictionary(corrected.map { ($0.start, $0.mean) }, uniquingKeysWith: { first, _ in first })
    return BoardCalibration(
      measure: measure,
      fit: fit,
      averaging: reference.last?.averaging,
      points: buckets.points(readings.map { ($0.time, $0.value) }).map {
        CalibratedPoint(start: $0.start, raw: $0.mean, corrected: correctedByStart[$0.start])
      },
      bucketWidth: buckets.width
    )
  }

  /// Each station value beside the mean value and humidity of the board's time-ordered readings
  /// within its span (clipped to `range`); spans without a reading are left out.
  static func colocatedSamples(
    _ readings: [CalibrationReading],
    reference: [ReferenceMeasurement],
    in range: Range<Date>
  ) -> [Calibration.Sample] {
    let times = readings.map { ($0.time, 0.0) }
    return reference.compactMap { measurement in
      let window = measurement.window.clamped(to: range)
      let inSpan = readings[firstIndex(in: times, atOrAfter: window.lowerBound) ..< firstIndex(in: times, atOrAfter: window.upperBound)]
      guard !inSpan.isEmpty else { return nil }
      let count = Double(inSpan.count)
      return Calibration.Sample(
        raw: inSpan.reduce(0) { $0 + $1.value } / count,
        humidity: inSpan.reduce(0) { $0 + ($1.humidity ?? 0) } / count,
        reference: measurement.value
      )
    }
  }
}
