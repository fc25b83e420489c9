import BinarioProto
import Foundation
import SwiftProtobuf

typealias Telemetry = Binario_Telemetry_V1_Telemetry.Method

extension LoadOperation {
  /// Citizens' sensor boards uploading, and people looking at the air on maps and charts.
  static let moqa: [LoadOperation] = [
    // A board's batch: ten readings of the last ten minutes around the centre, as the boards
    // send them (a minute apart) with its device token.
    LoadOperation("readings upload", app: "MOQA") { context in
      let traveller = context.anyTraveller
      let now = Date()
      let readings = (0 ..< 10).map { minute in
        Binario_Telemetry_V1_Reading.with {
          $0.time = Google_Protobuf_Timestamp(date: now.addingTimeInterval(-Double(minute) * 60 - Double.random(in: 0 ..< 60)))
          $0.latitude = Cast.centre.latitude + Double(traveller.index % 50) * 0.001
          $0.longitude = Cast.centre.longitude + Double.random(in: -0.01 ... 0.01)
          $0.pm25 = Double.random(in: 3 ... 60)
          $0.pm10 = Double.random(in: 5 ... 80)
          $0.temperature = Double.random(in: 2 ... 30)
          $0.humidity = Double.random(in: 30 ... 90)
        }
      }
      _ = try await context.door.call(Telemetry.UploadReadings.self, .with { $0.readings = readings }, as: .device(traveller.boardToken))
    },
    LoadOperation("air map", app: "MOQA") { context in
      _ = try await context.call(
        Telemetry.GetPublicMap.self,
        .with {
          $0.measure = .pm25
          $0.south = 45.40
          $0.west = 9.05
          $0.north = 45.55
          $0.east = 9.30
        },
        as: context.anyTraveller.person
      )
    },
    LoadOperation("air chart", app: "MOQA") { context in
      let traveller = context.anyTraveller
      _ = try await context.call(
        Telemetry.GetSeries.self,
        .with {
          $0.deviceID = traveller.boardID
          $0.measure = .pm25
        },
        as: traveller.person
      )
    },
    LoadOperation("air quality index", app: "MOQA") { context in
      _ = try await context.call(Telemetry.GetAirQualityIndex.self, .init(), as: context.anyTraveller.person)
    },
  ]
}
