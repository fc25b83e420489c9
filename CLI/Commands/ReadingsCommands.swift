import ArgumentParser
import BinarioProto
import Foundation
import GRPCCore
import SwiftProtobuf

/// `binario readings`: upload a board's readings and look at them.
struct ReadingsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "readings",
    abstract: "Sensor readings: upload a file with a device token; series, map, statistics, latest values, correlation, CSV export.",
    subcommands: [Upload.self, Series.self, Map.self, Stats.self, Latest.self, Correlate.self, Export.self]
  )

  /// Which readings a query is about.
  struct Selection: ParsableArguments {
    @Option(help: "One device you see (default: all your own).") var device: String?
    @OptionGroup var range: TimeRangeOptions
  }

  struct Upload: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "upload",
      abstract: "Upload readings from a CSV or JSON file (or - for stdin), in batches of 1,000, with the board's device token.",
      discussion: """
        CSV: a header with time, latitude, longitude, optional position_altitude, then measure columns
        (temperature, humidity, pressure, altitude, tvoc, eco2, pm0.5, pm1, pm2.5, pm4, pm10); JSON:
        an array of objects with the same keys.
          binario readings upload walk.csv --token-file .dev/bike-board.token
        """
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var device: DeviceTokenOptions
    @Argument(help: "The file, or - for standard input.") var file: String
    @Option(help: "csv or json (default: guessed from the content).") var format: String?
    @Option(name: .customLong("batch"), help: "Readings per call (1 to 10,000).") var batchSize = 1_000

    func call(_ gateway: GatewayConnection) async throws {
      let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
      let readings = try ReadingFile.parse(data, format: format)
      let metadata = try device.metadata()
      var total = Binario_Telemetry_V1_UploadReadingsResponse()
      for start in stride(from: 0, to: readings.count, by: max(1, min(batchSize, 10_000))) {
        let batch = Array(readings[start ..< min(readings.count, start + batchSize)])
        let response = try await gateway.telemetry.uploadReadings(.with { $0.readings = batch }, metadata: metadata)
        total.stored += response.stored
        total.duplicates += response.duplicates
        total.accepted += response.accepted
        total.rejected += response.rejected.map { refusal in
          var shifted = refusal
          shifted.index += Int32(start)
          return shifted
        }
      }
      Print.uploadOutcome(total, sent: readings.count)
    }
  }

  struct Series: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "series",
      abstract: "One measure over time in buckets (min, mean, max), for a chart.",
      discussion: "binario readings series --measure pm2.5 --from 2024-01-15 --to 2024-01-16 --points 24"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "The measure.") var measure: MeasureArgument
    @OptionGroup var selection: Selection
    @Option(help: "At most this many buckets (default 500).") var points: Int32 = 0

    func call(_ gateway: GatewayConnection) async throws {
      var request = Binario_Telemetry_V1_GetSeriesRequest()
      request.deviceID = selection.device ?? ""
      request.measure = measure.proto
      request.maxPoints = points
      try selection.range.apply(to: &request, from: \.from, to: \.to)
      let response = try await gateway.telemetry.getSeries(request)
      if response.points.isEmpty { print("no readings") }
      for point in response.points {
        print(
          "\(Print.date(point.start))  n=\(point.count)  min \(Print.value(point.min))  mean \(Print.value(point.mean))  max \(Print.value(point.max)) \(response.unit)"
        )
      }
    }
  }

  struct Map: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "map",
      abstract: "Readings of a measure in a box, with the reference stations' means there.",
      discussion: "binario readings map --measure pm10 --box 45.40,9.10,45.55,9.30 --from 2024-01-15 --to 2024-01-16"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "The measure.") var measure: MeasureArgument
    @Option(help: "south,west,north,east in degrees.") var box: BoxArgument
    @OptionGroup var selection: Selection
    @Option(help: "Print at most this many points.") var limit = 20

    func call(_ gateway: GatewayConnection) async throws {
      var request = Binario_Telemetry_V1_GetMapRequest()
      request.deviceID = selection.device ?? ""
      request.measure = measure.proto
      (request.south, request.west, request.north, request.east) = (box.south, box.west, box.north, box.east)
      try selection.range.apply(to: &request, from: \.from, to: \.to)
      let response = try await gateway.telemetry.getMap(request)
      print("\(response.total) readings in the box\(response.sampled ? " (\(response.points.count) sampled)" : "")")
      for point in response.points.prefix(limit) {
        print("  \(Print.date(point.time))  \(point.latitude), \(point.longitude)  \(Print.value(point.value)) \(response.unit)")
      }
      if response.points.count > limit { print("  … \(response.points.count - limit) more") }
      if !response.reference.isEmpty { print("reference stations:") }
      for station in response.reference {
        print(
          "  \(station.sensor.stationName) (\(station.sensor.latitude), \(station.sensor.longitude))  mean \(Print.value(station.mean)) \(station.sensor.unit) over \(station.count) measurements"
        )
      }
    }
  }

  struct Stats: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "stats",
      abstract: "Count, minimum, quartiles, maximum and mean of a measure (exact; quartiles by R's and NumPy's default).",
      discussion: "binario readings stats --measure temperature --from 2024-01-15 --to 2024-01-16"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "The measure.") var measure: MeasureArgument
    @OptionGroup var selection: Selection

    func call(_ gateway: GatewayConnection) async throws {
      var request = Binario_Telemetry_V1_GetStatisticsRequest()
      request.deviceID = selection.device ?? ""
      request.measure = measure.proto
      try selection.range.apply(to: &request, from: \.from, to: \.to)
      let s = try await gateway.telemetry.getStatistics(request)
      guard s.count > 0 else {
        print("no readings")
        return
      }
      print(
        "count \(s.count)  min \(Print.value(s.min))  Q1 \(Print.value(s.q1))  median \(Print.value(s.median))  Q3 \(Print.value(s.q3))  max \(Print.value(s.max))  mean \(Print.value(s.mean)) \(s.unit)"
      )
    }
  }

  struct Latest: ConnectedCommand {
    static let configuration = CommandConfiguration(commandName: "latest", abstract: "A board's latest value of each measure.")
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The device id.") var device: String

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.telemetry.getLatest(
        .with { $0.deviceID = device }
      )
      if response.values.isEmpty { print("no readings yet") }
      for value in response.values {
        print("\(MeasureArgument.name(value.measure))  \(Print.value(value.value)) \(value.unit)  at \(Print.date(value.time))")
      }
    }
  }

  struct Correlate: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "correlate",
      abstract: "Pearson's r of two measures on shared time buckets.",
      discussion: "binario readings correlate --measure pm2.5 --with humidity --from 2024-01-15 --to 2024-01-16"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "The first measure.") var measure: MeasureArgument
    @Option(name: .customLong("with"), help: "The second measure.") var other: MeasureArgument
    @OptionGroup var selection: Selection
    @Option(help: "Buckets (default 500).") var points: Int32 = 0

    func call(_ gateway: GatewayConnection) async throws {
      var request = Binario_Telemetry_V1_CorrelateMeasuresRequest()
      request.deviceID = selection.device ?? ""
      request.first = measure.proto
      request.second = other.proto
      request.maxPoints = points
      try selection.range.apply(to: &request, from: \.from, to: \.to)
      let response = try await gateway.telemetry.correlateMeasures(request)
      print(
        response.hasCorrelation
          ? "r = \(String(format: "%.3f", response.correlation)) over \(response.buckets) buckets" : "not enough shared buckets (\(response.buckets))"
      )
    }
  }

  struct Export: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "A board's readings as CSV.",
      discussion: "binario readings export dev_… --from 2024-01-15 --to 2024-01-16 --output walk.csv"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The device id.") var device: String
    @OptionGroup var range: TimeRangeOptions
    @Option(help: "Write here instead of standard output.") var output: String?

    func call(_ gateway: GatewayConnection) async throws {
      var request = Binario_Telemetry_V1_ExportReadingsRequest()
      request.deviceID = device
      try range.apply(to: &request, from: \.from, to: \.to)
      let response = try await gateway.telemetry.exportReadings(request)
      if let output {
        try Data(response.csv.utf8).write(to: URL(fileURLWithPath: output))
        print("wrote \(response.csv.split(whereSeparator: \.isNewline).count - 1) readings to \(output)")
      } else {
        print(response.csv, terminator: "")
      }
    }
  }
}
