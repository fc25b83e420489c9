import Foundation

/// A GTFS feed's files by name, as ``GTFSFeedReader`` reads them: from a folder, or from a zip
/// archive (how operators publish feeds, and how an admin uploads one).
public enum GTFSFeedFiles {
  /// The `.txt` files of `folder`.
  public static func folder(_ folder: String) throws(GTFSError) -> [String: [UInt8]] {
    let url = URL(fileURLWithPath: folder)
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder)
    } catch {
      throw GTFSError(file: folder, reason: "the folder cannot be read: \(error.localizedDescription)")
    }
    var files: [String: [UInt8]] = [:]
    for name in names where name.hasSuffix(".txt") {
      guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(name).path) else {
        throw GTFSError(file: name, reason: "the file cannot be read")
      }
      files[name] = Array(data)
    }
    return files
  }

  /// The `.txt` files of a zip archive, at its top level or in one folder inside it (some
  /// publishers zip the folder). Entries over `maximumFileSize` are refused. Read with
  /// ``ZipArchive``, which checks every offset and size against the archive's bytes.
  public static func zip(_ bytes: [UInt8], maximumFileSize: Int = 256 << 20) throws(GTFSError) -> [String: [UInt8]] {
    let archive: ZipArchive
    do {
      archive = try ZipArchive(bytes)
    } catch {
      throw GTFSError(file: "feed.zip", reason: error.reason)
    }
    var files: [String: [UInt8]] = [:]
    for entry in archive.entries where !entry.isDirectory {
      let name = String(entry.path.split(separator: "/").last ?? "")
      guard name.hasSuffix(".txt"), !name.hasPrefix(".") else { continue }
      guard entry.uncompressedSize <= maximumFileSize else {
        throw GTFSError(file: name, reason: "\(entry.uncompressedSize) bytes; a feed's file may have at most \(maximumFileSize)")
      }
      guard files[name] == nil else { throw GTFSError(file: name, reason: "the archive holds \(name) twice") }
      var data = Data()
      do {
        // The header's size may lie (a zip bomb): the bytes themselves are counted too.
        try archive.extract(entry) { chunk in
          guard data.count + chunk.count <= maximumFileSize else { throw GTFSFileTooLarge() }
          data.append(chunk)
        }
      } catch is GTFSFileTooLarge {
        throw GTFSError(file: name, reason: "more than \(maximumFileSize) bytes once unpacked")
      } catch let damaged as ZipArchive.Damaged {
        throw GTFSError(file: name, reason: "the archive's entry is damaged: \(damaged.reason)")
      } catch {
        throw GTFSError(file: name, reason: "the archive's entry is damaged")
      }
      files[name] = Array(data)
    }
    return files
  }
}

/// An entry that unpacks to more than it may.
private struct GTFSFileTooLarge: Error {}
