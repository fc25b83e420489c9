import BinarioProto
import Foundation
import GRDB

/// The events scheduling tells the other services
/// (proto/binario/scheduling/v1/scheduling_events.proto), each recorded in the transaction of the
/// timetable change it reports. Subjects are `<trip>/<date>` run keys.
extension SchedulingStore {
  func recordRunRenamed(_ tripID: String, on date: ServiceDate, to newTripID: String, at now: Date, _ db: Database) throws {
    let event = Binario_Scheduling_V1_RunRenamed.with {
      $0.tripID = tripID
      $0.serviceDate = date.description
      $0.newTripID = newTripID
    }
    try events.record(event, subjects: ["\(tripID)/\(date)", "\(newTripID)/\(date)"], at: now, in: db)
  }

  func recordRunEdited(_ tripID: String, on date: ServiceDate, stopsChanged: Bool, at now: Date, _ db: Database) throws {
    let event = Binario_Scheduling_V1_RunEdited.with {
      $0.tripID = tripID
      $0.serviceDate = date.description
      $0.stopsChanged = stopsChanged
    }
    try events.record(event, subjects: ["\(tripID)/\(date)"], at: now, in: db)
  }

  func recordRunRemoved(_ tripID: String, on date: ServiceDate, reason: String, at now: Date, _ db: Database) throws {
    let event = Binario_Scheduling_V1_RunRemoved.with {
      $0.tripID = tripID
      $0.serviceDate = date.description
      $0.reason = reason
    }
    try events.record(event, subjects: ["\(tripID)/\(date)"], at: now, in: db)
  }

  func recordTimetableReplaced(_ summary: TimetableImportSummary, at now: Date, _ db: Database) throws {
    let event = Binario_Scheduling_V1_TimetableReplaced.with {
      $0.stations = UInt32(clamping: summary.stations)
      $0.trips = UInt32(clamping: summary.trips)
    }
    try events.record(event, subjects: [], at: now, in: db)
  }
}
