/// Why a service's database could not be opened.
public struct DatabaseOpeningError: Error, CustomStringConvertible, Sendable, Equatable {
  public enum Reason: Sendable, Equatable {
    /// The database has applied migrations this build does not know: it was written by a newer
    /// version of the service. Opening it could corrupt data the newer schema relies on.
    case newerDatabase(unknownMigrations: [String])
    /// Migrations registered before ones the database already has were never applied: a migration
    /// was inserted into the list instead of appended to it.
    case skippedMigrations([String])
    /// The same identifier is registered twice.
    case duplicateMigration(String)
    /// A read-only database lacks migrations this build expects.
    case notMigrated(missingMigrations: [String])
    /// A migration threw, or left a foreign key violated; it was rolled back, earlier ones stay applied.
    case migrationFailed(identifier: String, message: String)
    /// A read-only database does not exist.
    case missingFile
    case cannotCreateFolder(message: String)
    /// SQLite refused the file (not a database, no permission, ...).
    case cannotOpen(message: String)
  }

  /// The database file.
  public let path: String
  public let reason: Reason

  public init(path: String, reason: Reason) {
    self.path = path
    self.reason = reason
  }

  public var description: String {
    let detail: String
    switch reason {
    case .newerDatabase(let unknown):
      detail =
        "it was migrated by a newer version of the service (unknown migrations: \(unknown.joined(separator: ", "))); run that version, or restore an older copy"
    case .skippedMigrations(let skipped):
      detail =
        "it lacks \(skipped.joined(separator: ", ")) although it has later migrations; new migrations must be appended at the end of the list, not inserted"
    case .duplicateMigration(let identifier):
      detail = "the migration \(identifier) is registered twice"
    case .notMigrated(let missing):
      detail = "it is opened read-only but lacks the migrations \(missing.joined(separator: ", ")); open it writable once to migrate it"
    case .migrationFailed(let identifier, let message):
      detail = "the migration \(identifier) failed and was rolled back: \(message)"
    case .missingFile:
      detail = "the file does not exist (a read-only database is never created)"
    case .cannotCreateFolder(let message):
      detail = "its folder cannot be created: \(message)"
    case .cannotOpen(let message):
      detail = message
    }
    return "cannot open the database \(path): \(detail)"
  }
}
