import BinarioDomain
import Foundation

extension SchedulingDomain {
  /// The timetable as a zipped GTFS static feed, and when the timetable last changed (its
  /// import, or a run added, edited or removed since: its Last-Modified); `NOT_FOUND` before any
  /// import. Its trip, stop and route ids are those the realtime feed names. Kept until the
  /// store's timetable version moves (on any change of a run, live changes included).
  public func staticFeed() throws -> (zip: [UInt8], modified: Date) {
    let version = store.timetableVersion
    if let kept = staticFeedZip.withLock({ $0 }), kept.version == version { return (kept.zip, kept.modified) }
    guard let (feed, modified) = try store.staticFeed(configuredZone: configuredZone.timeZone.identifier) else {
      throw ServiceError.notFound("no timetable has been imported yet")
    }
    let zip = ZipArchive.archive(GTFSFeedWriter.files(feed, version: ISO8601DateFormatter().string(from: modified)), modified: modified)
    staticFeedZip.withLock { $0 = (version, zip, modified) }
    return (zip, modified)
  }
}
