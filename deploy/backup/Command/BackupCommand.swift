import ArgumentParser
import BinarioStorage
import Foundation

/// `binario-backup`: a service's database backups, for an operator (deploy/README.md, "Backups
/// and restore"). The services back themselves up on a schedule (`--backup-interval`); this lists
/// the backups, takes one now, and restores a stopped service from one.
public struct BackupCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "binario-backup",
    abstract: "List, take and restore the backups of a Binario service's database.",
    discussion: """
      A service keeps <service>.sqlite in its data directory and its backups in its backup \
      directory (--backup-directory, default <data-directory>/backups), as <service>-<UTC time>.sqlite. \
      --data-directory and --backup-directory default to BINARIO_DATA_DIRECTORY and BINARIO_BACKUP_DIRECTORY, \
      as the service reads them. Examples:
        binario-backup list
        binario-backup take --service identity
        binario-backup restore --service identity --latest     (identity stopped)
      """,
    subcommands: [ListBackups.self, TakeBackup.self, RestoreBackup.self]
  )

  public init() {}
}

/// Where the backups and the database are: flags, else the variables the service reads.
struct BackupLocation: ParsableArguments {
  @Option(help: "The service's data directory (default: BINARIO_DATA_DIRECTORY).")
  var dataDirectory: String?

  @Option(help: "Where its backups are (default: BINARIO_BACKUP_DIRECTORY, else backups in the data directory).")
  var backupDirectory: String?

  var environment: [String: String] { ProcessInfo.processInfo.environment }

  func data() throws -> String {
    guard let directory = self.dataDirectory ?? self.environment["BINARIO_DATA_DIRECTORY"] else {
      throw ValidationError("say where the service's data directory is: --data-directory (or BINARIO_DATA_DIRECTORY)")
    }
    return directory
  }

  func backups() throws -> String {
    if let directory = self.backupDirectory ?? self.environment["BINARIO_BACKUP_DIRECTORY"] { return directory }
    return (try self.data() as NSString).appendingPathComponent("backups")
  }

  func backups(of service: String) throws -> DatabaseBackups {
    let database = URL(fileURLWithPath: try self.data()).appendingPathComponent("\(service).sqlite")
    return DatabaseBackups(database: database, directory: URL(fileURLWithPath: try self.backups()))
  }
}

struct ListBackups: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "List the backups, newest first.")

  @OptionGroup var location: BackupLocation

  @Option(help: "Only this service's (identity, scheduling, ticketing, geo-offers, dispatch, telemetry).")
  var service: String?

  func run() throws {
    let folder = URL(fileURLWithPath: try self.location.backups())
    let services = try self.service.map { [$0] } ?? DatabaseBackups.services(in: folder)
    var any = false
    for service in services {
      let backups = try DatabaseBackups(database: URL(fileURLWithPath: "/").appendingPathComponent("\(service).sqlite"), directory: folder).list()
      for backup in backups {
        any = true
        print("\(service)  \(BackupTimes.shown(backup.takenAt))  \(BackupTimes.size(backup.bytes))  \(backup.file.path)")
      }
    }
    if !any { print("no backups in \(folder.path)") }
  }
}

struct TakeBackup: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "take",
    abstract: "Take a backup now; the service may be running (it goes on serving meanwhile)."
  )

  @OptionGroup var location: BackupLocation

  @Option(help: "The service whose database to back up.")
  var service: String

  func run() throws {
    let backups = try self.location.backups(of: self.service)
    guard FileManager.default.fileExists(atPath: backups.database.path) else {
      throw ValidationError("there is no \(backups.database.path): is \(self.service)'s data directory right?")
    }
    let backup = try backups.take(at: Date())
    print("took \(backup.file.path) (\(BackupTimes.size(backup.bytes)))")
  }
}

struct RestoreBackup: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "Put a backup in the place of a stopped service's database.",
    discussion: """
      The service must be stopped (the command takes its data directory's lock, which the running \
      service holds). The backup is checked first; the database it replaces is kept beside it, as \
      <service>.sqlite.before-restore-<time>. Start the service afterwards: what changed after the \
      backup was taken is lost, and the services that follow its events are told (docs/events.md).
      """
  )

  @OptionGroup var location: BackupLocation

  @Option(help: "The service to restore.")
  var service: String

  @Flag(help: "Restore the newest backup.")
  var latest = false

  @Option(help: "Restore this backup file.")
  var file: String?

  func validate() throws {
    guard self.latest != (self.file != nil) else { throw ValidationError("say which backup: --latest or --file <backup>") }
  }

  func run() throws {
    let backups = try self.location.backups(of: self.service)
    let chosen: DatabaseBackups.Backup
    if let file {
      let url = URL(fileURLWithPath: file)
      guard let backup = try backups.list().first(where: { $0.file.standardizedFileURL == url.standardizedFileURL }) else {
        throw ValidationError("\(file) is not one of \(self.service)'s backups in \(backups.directory.path) (binario-backup list)")
      }
      chosen = backup
    } else {
      guard let newest = try backups.list().first else {
        throw ValidationError("\(self.service) has no backups in \(backups.directory.path)")
      }
      chosen = newest
    }
    let lock = try DataDirectoryLock(directory: try self.location.data())
    let now = Date()
    let restored = try backups.restore(chosen, lock: lock, at: now)
    let minutes = Int(now.timeIntervalSince(chosen.takenAt) / 60)
    print("restored \(self.service) from \(chosen.file.lastPathComponent), taken \(BackupTimes.shown(chosen.takenAt)) (\(minutes) min ago)")
    if let aside = restored.replacedMovedTo {
      print("the database it replaced is kept as \(aside.path)")
    }
    print("start \(self.service) now; the services that follow its events will notice it went back in time")
  }
}

/// How the tool shows a time and a size.
enum BackupTimes {
  /// In Europe/Rome, with its offset: `2026-11-30 06:02:03 +01:00`.
  static func shown(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "Europe/Rome")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xxx"
    return formatter.string(from: date)
  }

  static func size(_ bytes: Int64) -> String {
    bytes < 1024 * 1024 ? "\(max(1, bytes / 1024)) KiB" : String(format: "%.1f MiB", Double(bytes) / 1_048_576)
  }
}
