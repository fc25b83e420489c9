import GRDB

/// The tables of the event mechanism, created by a migration of each service that uses it
/// (`.add("v7-event-log", EventSchema.createLog)`): a producer's log, a consumer's cursors.
public enum EventSchema {
  /// A producer's tables: the log (`sequence` never reused, even after pruning, hence
  /// AUTOINCREMENT), how far each consumer has acknowledged, and how far the log was pruned.
  public static func createLog(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE event_log (
          sequence INTEGER PRIMARY KEY AUTOINCREMENT,
          type TEXT NOT NULL,
          subjects TEXT NOT NULL,
          payload BLOB NOT NULL,
          occurred_at REAL NOT NULL
        );
        CREATE INDEX event_log_by_time ON event_log(occurred_at);
        CREATE TABLE event_consumer (
          consumer TEXT PRIMARY KEY NOT NULL,
          acknowledged INTEGER NOT NULL,
          acknowledged_at REAL NOT NULL
        );
        CREATE TABLE event_log_pruned (
          singleton INTEGER PRIMARY KEY NOT NULL CHECK (singleton = 1),
          through INTEGER NOT NULL
        );
        """
    )
  }

  /// A consumer's table: the last event applied from each producer, and how many it was told
  /// it had lost (pruned before it read them).
  public static func createCursors(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE event_cursor (
          producer TEXT PRIMARY KEY NOT NULL,
          sequence INTEGER NOT NULL,
          lost INTEGER NOT NULL DEFAULT 0,
          updated_at REAL NOT NULL
        );
        """
    )
  }
}
