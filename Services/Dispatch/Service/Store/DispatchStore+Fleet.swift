import BinarioDomain
import Foundation
import GRDB

extension DispatchTransaction {
  public func allTaxis() throws -> [Taxi] {
    try taxis()
  }

  public func insertTaxi(_ taxi: Taxi) throws {
    try db.execute(
      sql: "INSERT INTO taxi (code, plate, capacity, driver_user_id) VALUES (?, ?, ?, ?)",
      arguments: [taxi.code, taxi.plate, taxi.capacity, taxi.driverUserID]
    )
  }

  public func updateTaxiDetails(code: String, plate: String, capacity: Int, driverUserID: String?) throws {
    try db.execute(
      sql: "UPDATE taxi SET plate = ?, capacity = ?, driver_user_id = ? WHERE code = ?",
      arguments: [plate, capacity, driverUserID, code]
    )
  }

  public func deleteTaxi(code: String) throws {
    try db.execute(sql: "DELETE FROM taxi WHERE code = ?", arguments: [code])
  }

  /// Whether a taxi with `plate`, or one driven by `driverUserID`, exists other than `code`.
  public func taxiCode(plate: String) throws -> String? {
    try String.fetchOne(db.cachedStatement(sql: "SELECT code FROM taxi WHERE plate = ?"), arguments: [plate])
  }

  public func taxiCode(driverUserID: String) throws -> String? {
    try String.fetchOne(db.cachedStatement(sql: "SELECT code FROM taxi WHERE driver_user_id = ?"), arguments: [driverUserID])
  }
}
