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
}
