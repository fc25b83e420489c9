import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension TicketingStore {
  public func fareTable() async throws -> FareTable? {
    if let table = fareTableInForce.withLock({ $0 }) { return table }
    let json = try await pool.read { db in try String.fetchOne(try db.cachedStatement(sql: "SELECT json FROM fare_table WHERE id = 1")) }
    let table = try json.map { try FareTable.decode(Data($0.utf8)) }
    fareTableInForce.withLock { $0 = table }
    return table
  }

  public func replaceFareTable(_ table: FareTable, at now: Date) async throws {
    let json = String(decoding: table.encoded(), as: UTF8.self)
    try await pool.write { db in
      try db.executeCached(
        sql: "INSERT OR REPLACE INTO fare_table (id, json, loaded_at) VALUES (1, ?, ?)",
        arguments: [json, now.timeIntervalSince1970]
      )
    }
    fareTableInForce.withLock { $0 = table }
  }
}
