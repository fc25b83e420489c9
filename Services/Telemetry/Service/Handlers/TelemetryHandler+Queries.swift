import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension TelemetryHandler {
  public func getSeries(
    request: Binario_Telemetry_V1_GetSeriesRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_GetSeriesResponse {
    let caller = try CallerIdentity.signedIn()
    let measure = try Measure.required(request.measure)
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let (buckets, points) = try await domain.queries.series(
      userID: caller.userID,
      deviceID: request.deviceID,
      measure: measure,
      in: range,
      maximumPoints: Int(request.maxPoints),
      outliers: request.outlierWindow == 0 ? nil : try OutlierWindow(size: Int(request.outlierWindow), replace: request.replaceOutliers)
    )
    return .with {
      $0.unit = measure.unit
      $0.bucketMilliseconds = Int64((buckets.width * 1000).rounded())
      $0.points = points.map { point in
        .with {
          $0.start = Google_Protobuf_Timestamp(date: point.start)
          $0.count = Int32(clamping: point.count)
          $0.min = point.minimum
          $0.mean = point.mean
          $0.max = point.maximum
          $0.band = .init(measure.airQualityBand(of: point.mean))
          $0.outliers = Int32(clamping: point.outliers)
        }
      }
    }
  }

  public func getStatistics(
    request: Binario_Telemetry_V1_GetStatisticsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_GetStatisticsResponse {
    let caller = try CallerIdentity.signedIn()
    let measure = try Measure.required(request.measure)
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let summary = try await domain.queries.statistics(userID: caller.userID, deviceID: request.deviceID, measure: measure, in: range)
    return .with {
      $0.unit = measure.unit
      guard let summary else { return }
      $0.count = Int64(summary.count)
      $0.min = summary.minimum
      $0.max = summary.maximum
      $0.mean = summary.mean
      $0.q1 = summary.firstQuartile
      $0.median = summary.median
      $0.q3 = summary.thirdQuartile
    }
  }

  public func getAirQualityIndex(
    request: Binario_Telemetry_V1_GetAirQualityIndexRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_GetAirQualityIndexResponse {
    .init(language: RequestLanguage.current)
  }

  public func getPublicMap(
    request: Binario_Telemetry_V1_GetPublicMapRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_GetPublicMapResponse {
    let measure = try Measure.required(request.measure)
    let box = try GeoBox.checked(south: request.south, west: request.west, north: request.north, east: request.east)
    let asked: Range<Date>? =
      request.hasFrom || request.hasTo
      ? try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil) : nil
    let (points, total, range, campaigns) = try await domain.queries.publicMap(measure: measure, within: box, in: asked)
    var reference: [(sensor: ReferenceSensor, mean: Double, count: Int)] = []
    if let range { reference = try await domain.reference.stationMeans(measure: measure, within: box, in: range) }
    return .with {
      $0.unit = measure.unit
      $0.total = Int32(clamping: total)
      $0.sampled = total > points.count
      $0.campaigns = campaigns
      if let range {
        $0.from = Google_Protobuf_Timestamp(date: range.lowerBound)
        $0.to = Google_Protobuf_Timestamp(date: range.upperBound)
      }
      $0.points = points.map { .init($0, of: measure) }
      $0.reference = reference.map { .init($0, of: measure) }
    }
  }

  public func getMap(request: Binario_Telemetry_V1_GetMapRequest, context: ServerContext) async throws -> Binario_Telemetry_V1_GetMapResponse {
    let caller = try CallerIdentity.signedIn()
    let measure = try Measure.required(request.measure)
    let box = try GeoBox.checked(south: request.south, west: request.west, north: request.north, east: request.east)
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let (points, total) = try await domain.queries.map(
      userID: caller.userID,
      deviceID: request.deviceID,
      measure: measure,
      within: box,
      in: range
    )
    let reference = try await domain.reference.stationMeans(measure: measure, within: box, in: range)
    return .with {
      $0.unit = measure.unit
      $0.total = Int32(clamping: total)
      $0.sampled = total > points.count
      $0.points = points.map { .init($0, of: measure) }
      $0.reference = reference.map { .init($0, of: measure) }
    }
  }

  public func getGrid(request: Binario_Telemetry_V1_GetGridRequest, context: ServerContext) async throws -> Binario_Telemetry_V1_GetGridResponse {
    let caller = try CallerIdentity.signedIn()
    let measure = try Measure.required(request.measure)
    let box = try GeoBox.checked(south: request.south, west: request.west, north: request.north, east: request.east)
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let grid = try await domain.queries.grid(
      userID: caller.userID,
      deviceID: request.deviceID,
      measure: measure,
      within: box,
      in: range,
      rows: Int(request.rows == 0 ? 20 : request.rows),
      columns: Int(request.columns == 0 ? 20 : request.columns)
    )
    return .with {
      $0.unit = measure.unit
      $0.rows = Int32(grid.rows)
      $0.columns = Int32(grid.columns)
      for row in 0 ..< grid.rows {
        for column in 0 ..< grid.columns {
          guard let value = grid.value(row: row, column: column) else { continue }
          $0.cells.append(
            .with {
              $0.row = Int32(row)
              $0.column = Int32(column)
              $0.value = value
            }
          )
        }
      }
    }
  }

  public func getLatest(
    request: Binario_Telemetry_V1_GetLatestRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_GetLatestResponse {
    let latest = try await domain.queries.latest(
      userID: try CallerIdentity.signedIn().userID,
      deviceID: try required(request.deviceID, "device_id")
    )
    return .with {
      $0.values = Measure.allCases.compactMap { measure in
        latest[measure].map { found in
          .with {
            $0.measure = measure.proto
            $0.time = Google_Protobuf_Timestamp(date: found.time)
            $0.value = found.value
            $0.unit = measure.unit
            $0.band = .init(measure.airQualityBand(of: found.value))
          }
        }
      }
    }
  }

  public func exportReadings(
    request: Binario_Telemetry_V1_ExportReadingsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ExportReadingsResponse {
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let csv = try await domain.queries.csv(
      userID: try CallerIdentity.signedIn().userID,
      deviceID: try required(request.deviceID, "device_id"),
      in: range
    )
    return .with { $0.csv = csv }
  }

  public func correlateMeasures(
    request: Binario_Telemetry_V1_CorrelateMeasuresRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_CorrelateMeasuresResponse {
    let caller = try CallerIdentity.signedIn()
    let first = try Measure.required(request.first, field: "first")
    let second = try Measure.required(request.second, field: "second")
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let (r, buckets) = try await domain.queries.correlate(
      userID: caller.userID,
      deviceID: request.deviceID,
      first,
      second,
      in: range,
      maximumPoints: Int(request.maxPoints)
    )
    return .with {
      if let r { $0.correlation = r }
      $0.buckets = Int32(clamping: buckets)
    }
  }
}
