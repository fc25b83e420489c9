import Foundation
import Testing
import ZIPFoundation

@testable import SchedulingService

@Suite("GTFS feeds from a folder or a zip archive")
struct GTFSFeedFilesTests {
  /// The demo network zipped in memory, inside a folder as some publishers ship it.
  private func zippedDemo() throws -> [UInt8] {
    let archive = try Archive(data: Data(), accessMode: .create)
    for (name, bytes) in try GTFSFeedFiles.folder(GTFSFeedReaderTests.demoFolder.path).sorted(by: { $0.key < $1.key }) {
      let data = Data(bytes)
      try archive.addEntry(with: "demo-feed/\(name)", type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) {
        position,
        size in data.subdata(in: Int(position) ..< Int(position) + size)
      }
    }
    return Array(try #require(archive.data))
  }

  @Test func aZippedFeedReadsLikeItsFolder() throws {
    let fromFolder = try GTFSFeedReader.read(files: GTFSFeedFiles.folder(GTFSFeedReaderTests.demoFolder.path))
    let fromZip = try GTFSFeedReader.read(files: GTFSFeedFiles.zip(self.zippedDemo()))
    #expect(fromZip == fromFolder)
  }

  @Test func notAZipOrTooLargeIsRefusedByName() throws {
    let garbage = #expect(throws: GTFSError.self) { try GTFSFeedFiles.zip(Array("not a zip".utf8)) }
    #expect(garbage?.reason == "not a zip archive")
    let large = #expect(throws: GTFSError.self) { try GTFSFeedFiles.zip(self.zippedDemo(), maximumFileSize: 1000) }
    #expect(large?.reason.contains("1000") == true)
  }

  @Test("zlib inflates exactly an entry's bytes: whole, it matches the file; cut short or damaged, it is refused")
  func inflateSeesOnlyTheEntrysBytes() throws {
    let archive = try ZipArchive(self.zippedDemo())
    let entry = try #require(archive.entries.first { $0.path.hasSuffix("stop_times.txt") })
    #expect(entry.method == 8)
    let compressed = try archive.compressedBytes(of: entry)
    var inflated = Data()
    let checksum = try ZipArchive.inflate(compressed) { inflated.append($0) }
    #expect(checksum == entry.crc32)
    #expect(Array(inflated) == (try GTFSFeedFiles.folder(GTFSFeedReaderTests.demoFolder.path))["stop_times.txt"])

    // Cut anywhere, even one byte short of its end, the stream asks for more than the entry has.
    for cut in [1, compressed.count / 2, compressed.count - 1] {
      let short = #expect(throws: ZipArchive.Damaged.self) { _ = try ZipArchive.inflate(compressed.prefix(cut)) { _ in } }
      #expect(short?.reason == "the entry's compressed data ends before its stream does")
    }
    let damaged = #expect(throws: ZipArchive.Damaged.self) { _ = try ZipArchive.inflate([0xFF, 0xFF, 0xFF, 0xFF]) { _ in } }
    #expect(damaged?.reason == "the entry's compressed data is damaged")
  }
}
