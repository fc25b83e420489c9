import ArgumentParser
import BinarioProto
import Foundation
import SwiftProtobuf

/// `binario reference`: ARPA Lombardia's monitoring stations.
struct ReferenceCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reference",
    abstract: "The regional reference stations: sensors near a point, your series beside one; admins import and fetch them.",
    subcommands: [Stations.self, Compare.self, Import.self, Fetch.self, Sources.self]
  )

  struct Stations: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "stations",
      abstract: "Reference sensors near a point, nearest first.",
      discussion: "binario reference stations --latitude 45.4642 --longitude 9.19 --radius 20000 --measure pm10"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @OptionGroup var position: PositionOptions
    @Option(help: "Metres (default 10,000).") var radius: Double = 0
    @Option(help: "Only sensors of this measure.") var measure: MeasureArgument?

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.telemetry.listReferenceSensors(
        .with {
          $0.latitude = position.latitude
          $0.longitude = position.longitude
          $0.radiusMetres = radius
          $0.measure = measure?.proto ?? .unspecified
        }
      )
      if response.sensors.isEmpty { print("no reference sensors there") }
      for found in response.sensors {
        print("\(String(format: "%6.0f m", found.distanceMetres))  \(Print.referenceSensor(found.sensor))")
      }
    }
  }

  struct Compare: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "compare",
      abstract: "Your series of a measure beside a reference sensor's, on the same buckets, with Pearson's r.",
      discussion: "binario reference compare --sensor 10283 --measure pm10 --from 2024-01-15 --to 2024-01-16 --points 24"
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "The reference sensor id (reference stations lists them).") var sensor: String
    @Option(help: "The measure.") var measure: MeasureArgument
    @OptionGroup var selection: ReadingsCommand.Selection
    @Option(help: "Buckets (default 500).") var points: Int32 = 0

    func call(_ gateway: GatewayConnection) async throws {
      var request = Binario_Telemetry_V1_CompareWithReferenceRequest()
      request.deviceID = selection.device ?? ""
      request.measure = measure.proto
      request.sensorID = sensor
      request.maxPoints = points
      try selection.range.apply(to: &request, from: \.from, to: \.to)
      let response = try await gateway.telemetry.compareWithReference(request)
      print("bucket start            mine      reference")
      for point in response.points {
        let mine = point.hasMine ? String(format: "%8.2f", point.mine) : "       -"
        let reference = point.hasReference ? String(format: "%8.2f", point.reference) : "       -"
        print("\(Print.date(point.start))  \(mine)  \(reference)")
      }
      if !response.averaging.isEmpty {
        print("the station's values are \(Self.averaging(response.averaging)), compared with your mean over the same span")
      }
      print(
        response.hasCorrelation
          ? "r = \(String(format: "%.3f", response.correlation)) on \(response.pairs) station values"
          : "r: not enough station values with your readings in their span"
      )
    }

    /// The station's averaging as a person says it.
    static func averaging(_ code: String) -> String {
      switch code {
      case "day": return "daily means"
      case "60m": return "hourly means"
      case "10m": return "10-minute means"
      default: return code.hasPrefix("running-") ? "means over the \(code.dropFirst(8).dropLast()) hours before each time" : code
      }
    }
  }

  struct Import: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Import a file as the open-data portal publishes it (admin): a station catalogue or measurements.",
      discussion: """
        binario reference import stations.csv --catalogue --network air_quality
        binario reference import measurements.json --measurements
        """
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Argument(help: "The file (JSON, CSV or GeoJSON).") var file: String
    @Flag(help: "What the file holds.") var kind: Kind
    @Option(help: "A catalogue's network: air_quality or weather.") var network = "air_quality"
    @Flag(help: "Measurements from the near-real-time feed (running PM means, not validated).") var nearRealTime = false

    enum Kind: String, EnumerableFlag {
      case catalogue, measurements
    }

    func call(_ gateway: GatewayConnection) async throws {
      let data = try Data(contentsOf: URL(fileURLWithPath: file))
      let response = try await gateway.telemetry.importReferenceData(
        .with {
          $0.kind = kind == .catalogue ? .catalogue : .measurements
          $0.network = network
          $0.data = data
          $0.nearRealTime = nearRealTime
        }
      )
      print("read \(response.read), added \(response.added), skipped \(response.skipped)")
      for problem in response.problems { print("  \(problem)") }
    }
  }

  struct Fetch: ConnectedCommand {
    static let configuration = CommandConfiguration(
      commandName: "fetch",
      abstract: "Fetch the configured portal sources now (admin), incrementally."
    )
    @OptionGroup var gateway: GatewayConnectionOptions
    @Option(help: "Only this source.") var source: String?

    func call(_ gateway: GatewayConnection) async throws {
      let response = try await gateway.telemetry.fetchReferenceData(
        .with { $0.source = source ?? "" }
      )
      for fetched in response.sources {
        print(
          fetched.error.isEmpty
            ? "\(fetched.source): read \(fetched.read), added \(fetched.added), skipped \(fetched.skipped)\(fetched.gapFilled > 0 ? ", \(fetched.gapFilled) of them filling a gap" : "")"
            : "\(fetched.source): failed: \(fetched.error)"
        )
      }
    }
  }

  struct Sources: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sources",
      abstract: "The open-data portal sources fetched on a schedule (admin): list, add or change, remove.",
      subcommands: [List.self, Save.self, Remove.self],
      defaultSubcommand: List.self
    )

    struct List: ConnectedCommand {
      static let configuration = CommandConfiguration(commandName: "list", abstract: "Each source with its last fetch and the next.")
      @OptionGroup var gateway: GatewayConnectionOptions

      func call(_ gateway: GatewayConnection) async throws {
        let response = try await gateway.telemetry.listReferenceSources(.init())
        if response.sources.isEmpty { print("no sources (binario reference sources add ..., or telemetry --reference-sources FILE)") }
        for source in response.sources {
          let fetched = source.hasLastFetchedAt ? "fetched \(Print.date(source.lastFetchedAt))" : "never fetched"
          let failed =
            source.consecutiveFailures == 0
            ? "" : "; \(source.consecutiveFailures) failed, the last at \(Print.date(source.lastFailedAt)): \(source.lastError)"
          print(
            "\(source.name)  \(source.kind) \(source.network)\(source.configured ? " (in the settings)" : "")"
              + "\(source.fillGapsFrom.isEmpty ? "" : ", gaps filled from \(source.fillGapsFrom)")  \(fetched)\(failed); "
              + "next \(Print.date(source.nextFetchAt))\n  \(source.url)"
          )
        }
      }
    }

    struct Save: ConnectedCommand {
      static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a source, or change a saved one (by its name).",
        discussion: """
          binario reference sources add --name arpa-air-current-year --kind measurements \\
            --url 'https://www.dati.lombardia.it/resource/nicp-bhqi.json'
          binario reference sources add --name arpa-air-today --kind near_real_time \\
            --fill-gaps-from arpa-air-current-year --url 'https://www.dati.lombardia.it/resource/ykhg-b8rs.json'
          """
      )
      @OptionGroup var gateway: GatewayConnectionOptions
      @Option(help: "Its name (letters, digits, - and _).") var name: String
      @Option(help: "The dataset's endpoint with its query parameters.") var url: String
      @Option(help: "catalogue, measurements (a yearly archive or the current year) or near_real_time (today's feed).") var kind: String
      @Option(help: "A catalogue's network: air_quality or weather.") var network = "air_quality"
      @Option(help: "A near-real-time feed's: the source that still holds what it no longer does.") var fillGapsFrom: String?

      func call(_ gateway: GatewayConnection) async throws {
        let saved = try await gateway.telemetry.saveReferenceSource(
          .with {
            $0.name = name
            $0.url = url
            $0.kind = kind
            $0.network = network
            $0.fillGapsFrom = fillGapsFrom ?? ""
          }
        )
        print("saved \(saved.source.name): fetched from \(Print.date(saved.source.nextFetchAt)) on, every period")
      }
    }

    struct Remove: ConnectedCommand {
      static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a saved source (what it imported stays).")
      @OptionGroup var gateway: GatewayConnectionOptions
      @Argument(help: "Its name.") var name: String

      func call(_ gateway: GatewayConnection) async throws {
        _ = try await gateway.telemetry.deleteReferenceSource(
          .with { $0.name = name }
        )
        print("removed \(name)")
      }
    }
  }
}

/// `binario simulate-board`: a fake board streaming a reading a second (MOQA's auto-fetch mode).
struct SimulateBoardCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "simulate-board",
    abstract: "Stream a simulated board's readings, one a second, with its device token (Ctrl-C or --count ends it).",
    discussion: "binario simulate-board --token-file .dev/bike-board.token --latitude 45.4642 --longitude 9.19 --count 60"
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @OptionGroup var device: DeviceTokenOptions
  @OptionGroup var position: PositionOptions
  @Option(help: "Readings to send (default: until interrupted).") var count: Int?
  @Option(help: "Seconds between readings.") var interval: Double = 1

  func call(_ gateway: GatewayConnection) async throws {
    let metadata = try device.metadata()
    let count = self.count
    let interval = self.interval
    let start = (latitude: position.latitude, longitude: position.longitude)
    let response = try await gateway.telemetry.streamReadings(metadata: metadata) { writer in
      var board = SimulatedBoard(latitude: start.latitude, longitude: start.longitude)
      var sent = 0
      var last = Date.distantPast
      while count.map({ sent < $0 }) ?? true {
        // A reading is identified by its device and millisecond: never two in one.
        last = max(Date(), last.addingTimeInterval(0.001))
        let reading = board.next(at: last)
        try await writer.write(.with { $0.readings = [reading] })
        sent += 1
        print(
          "sent \(Print.date(reading.time))  \(String(format: "%.5f, %.5f", reading.latitude, reading.longitude))  pm2.5 \(Print.value(reading.pm25)) µg/m³  \(Print.value(reading.temperature)) °C"
        )
        if count.map({ sent < $0 }) ?? true { try await Task.sleep(for: .seconds(interval)) }
      }
    }
    Print.uploadOutcome(response, sent: Int(response.accepted) + response.rejected.count)
  }
}

/// A fake board walking about: a random walk of a few metres a second, values drifting smoothly
/// within plausible bounds.
struct SimulatedBoard {
  var latitude: Double
  var longitude: Double
  var temperature = 12.0
  var humidity = 60.0
  var pm25 = 18.0
  var generator = SystemRandomNumberGenerator()

  mutating func next(at time: Date) -> Binario_Telemetry_V1_Reading {
    latitude += Double.random(in: -0.00003 ... 0.00003, using: &generator)
    longitude += Double.random(in: -0.00004 ... 0.00004, using: &generator)
    temperature = min(35, max(-5, temperature + Double.random(in: -0.1 ... 0.1, using: &generator)))
    humidity = min(95, max(20, humidity + Double.random(in: -0.5 ... 0.5, using: &generator)))
    pm25 = min(150, max(1, pm25 + Double.random(in: -1 ... 1, using: &generator)))
    var reading = Binario_Telemetry_V1_Reading()
    reading.time = Google_Protobuf_Timestamp(date: time)
    reading.latitude = latitude
    reading.longitude = longitude
    reading.temperature = (temperature * 100).rounded() / 100
    reading.humidity = (humidity * 10).rounded() / 10
    reading.pressure = 1013.2
    reading.pm25 = (pm25 * 10).rounded() / 10
    reading.pm10 = ((pm25 * 1.4) * 10).rounded() / 10
    reading.pm1 = ((pm25 * 0.7) * 10).rounded() / 10
    reading.eco2 = 420
    reading.tvoc = 35
    return reading
  }
}
