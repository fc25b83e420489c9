import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import Logging
import SwiftProtobuf
import Synchronization

extension SchedulingHandler {
  public func importTimetable(
    request: Binario_Scheduling_V1_ImportTimetableRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ImportTimetableResponse {
    let summary = try await domain.importTimetable(zip: Array(request.feedZip))
    logger.notice(
      "imported a timetable",
      metadata: ["stations": "\(summary.stations)", "trips": "\(summary.trips)"]
    )
    return .with {
      $0.stations = Int32(summary.stations)
      $0.lines = Int32(summary.lines)
      $0.trips = Int32(summary.trips)
      $0.timezone = summary.timezone
      $0.unusedFiles = summary.unusedFiles
      $0.serviceDays = Int32(summary.serviceDays)
    }
  }
}
