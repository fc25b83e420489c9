import BinarioDomain
import Foundation

extension SchedulingDomain {
  /// Replaces the timetable with a zipped GTFS feed. A malformed feed is refused with the file,
  /// line and column at fault (`INVALID_ARGUMENT` on `feed_zip`) and changes nothing.
  public func importTimetable(zip bytes: [UInt8]) async throws -> TimetableImportSummary {
    guard !bytes.isEmpty else { throw ServiceError.invalid("feed_zip", "the feed's zip archive is required") }
    do {
      let feed = try GTFSFeedReader.read(files: try GTFSFeedFiles.zip(bytes))
      return try await importTimetable(feed, source: "upload")
    } catch let error as GTFSError {
      // The feed's problem as the reader says it (file, line, field), for whoever made the feed.
      throw ServiceError.invalid("feed_zip", PersonText(verbatim: error.description))
    }
  }

  /// Replaces the timetable with `feed`, atomically.
  public func importTimetable(_ feed: GTFSFeed, source: String) async throws -> TimetableImportSummary {
    let summary = try await store.replacingTimetable(with: feed, source: source, importedAt: clock.now().timeIntervalSince1970)
    try reloadCatalog()
    return summary
  }

  /// Loads the GTFS feed in `folder` if no timetable was ever imported (the demo network at
  /// first start). Returns what it loaded, or `nil` when a timetable was already there.
  public func importIfEmpty(folder: String) async throws -> TimetableImportSummary? {
    guard try !store.hasTimetable() else { return nil }
    let feed = try GTFSFeedReader.read(files: try GTFSFeedFiles.folder(folder))
    return try await importTimetable(feed, source: folder)
  }
}
