import GRDB

extension Database {
  /// Executes `sql` as a statement compiled once per connection and kept (GRDB's statement
  /// cache): for statements a service runs on every call, whose compilation would otherwise cost
  /// more than running them.
  public func executeCached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
    try cachedStatement(sql: sql).execute(arguments: arguments)
  }
}
