import GRDB

extension Database {
  /// Whether `table` has a row whose `id` column is `id`: for a keyed creating write
  /// (``BinarioDomain/IdempotencyKey``), whose id is its key's, to find that its first attempt
  /// committed already. Called in the write's own transaction, so the check and the insert that
  /// follows are one step.
  public func hasRow(in table: String, id: String) throws -> Bool {
    try Bool.fetchOne(self, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [id]) ?? false
  }
}
