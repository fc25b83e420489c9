import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore

extension TelemetryHandler {
  public func listOpenData(
    request: Binario_Telemetry_V1_ListOpenDataRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ListOpenDataResponse {
    let listing = try await domain.openData.list(
      from: try day(request.fromDay, "from_day"),
      to: try day(request.toDay, "to_day"),
      area: request.area.isEmpty ? nil : request.area
    )
    let language = RequestLanguage.current
    return .with {
      $0.files = listing.files.map { file in
        .with {
          $0.day = file.day.description
          $0.area = file.area
          $0.areaName = OpenDataAreas.name(of: file.area).rendered(in: language)
          $0.readings = Int32(clamping: file.readings)
          $0.boards = Int32(clamping: file.boards)
          $0.path = Self.openDataPath(day: file.day, area: file.area)
        }
      }
      if let days = listing.days {
        $0.fromDay = days.lowerBound.description
        $0.toDay = days.upperBound.description
      }
      $0.earlierDay = listing.earlier?.description ?? ""
      $0.areas = listing.areas.map { area in
        .with {
          $0.area = area
          $0.name = OpenDataAreas.name(of: area).rendered(in: language)
        }
      }
    }
  }

  public func downloadOpenData(
    request: Binario_Telemetry_V1_DownloadOpenDataRequest,
    context: ServerContext
  ) async throws -> Google_Api_HttpBody {
    guard let day = try day(request.day, "day") else { throw ServiceError.invalid("day", "is required") }
    let (csv, _) = try await domain.openData.csv(day: day, area: try required(request.area, "area"))
    return .with {
      $0.contentType = "text/csv; charset=utf-8"
      $0.data = Data(csv.utf8)
    }
  }

  /// A request's day (`YYYY-MM-DD`), `nil` when empty.
  private func day(_ text: String, _ field: String) throws -> CalendarDate? {
    if text.isEmpty { return nil }
    guard let day = CalendarDate(iso: text) else { throw ServiceError.invalid(field, "a date as YYYY-MM-DD, not \"\(text)\"") }
    return day
  }

  /// The HTTP door's path of a file's CSV.
  static func openDataPath(day: CalendarDate, area: String) -> String {
    "/v1/telemetry/open-data/\(day.description)/\(area.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? area)"
  }
}
