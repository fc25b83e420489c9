import BinarioCompression
import Foundation

extension ZipArchive {
  /// A zip archive of `files`, in their order, each deflated with the system's zlib and stamped
  /// `modified` (the DOS date and time zip keeps, in UTC). Names are marked UTF-8. What
  /// ``ZipArchive`` reads back, and any unzip tool.
  static func archive(_ files: [(name: String, bytes: [UInt8])], modified: Date) -> [UInt8] {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: modified)
    let dosTime = UInt16(parts.hour! << 11 | parts.minute! << 5 | parts.second! / 2)
    let dosDate = UInt16(max(0, parts.year! - 1980) << 9 | parts.month! << 5 | parts.day!)
    let utf8Names: UInt16 = 0x0800

    var archive: [UInt8] = []
    var directory: [UInt8] = []
    for file in files {
      let name = Array(file.name.utf8)
      // zlib fails to start only without memory, which nothing here can recover from.
      guard let compressed = Deflate.compress(file.bytes, wrapping: .raw) else { preconditionFailure("zlib could not deflate") }
      let checksum = Deflate.crc32(file.bytes)
      let offset = UInt32(archive.count)

      archive.append32(0x0403_4B50)
      archive.append16(20)  // version needed: deflate
      archive.append16(utf8Names)
      archive.append16(8)  // deflated
      archive.append16(dosTime)
      archive.append16(dosDate)
      archive.append32(checksum)
      archive.append32(UInt32(compressed.count))
      archive.append32(UInt32(file.bytes.count))
      archive.append16(UInt16(name.count))
      archive.append16(0)  // no extra field
      archive.append(contentsOf: name)
      archive.append(contentsOf: compressed)

      directory.append32(0x0201_4B50)
      directory.append16(20)  // made by
      directory.append16(20)
      directory.append16(utf8Names)
      directory.append16(8)
      directory.append16(dosTime)
      directory.append16(dosDate)
      directory.append32(checksum)
      directory.append32(UInt32(compressed.count))
      directory.append32(UInt32(file.bytes.count))
      directory.append16(UInt16(name.count))
      directory.append16(0)  // extra
      directory.append16(0)  // comment
      directory.append16(0)  // disk
      directory.append16(0)  // internal attributes
      directory.append32(0)  // external attributes
      directory.append32(offset)
      directory.append(contentsOf: name)
    }
    let directoryOffset = UInt32(archive.count)
    archive.append(contentsOf: directory)
    archive.append32(0x0605_4B50)
    archive.append16(0)
    archive.append16(0)
    archive.append16(UInt16(files.count))
    archive.append16(UInt16(files.count))
    archive.append32(UInt32(directory.count))
    archive.append32(directoryOffset)
    archive.append16(0)  // no comment
    return archive
  }
}

extension [UInt8] {
  fileprivate mutating func append16(_ value: UInt16) {
    self.append(UInt8(value & 0xFF))
    self.append(UInt8(value >> 8))
  }

  fileprivate mutating func append32(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) { self.append(UInt8(value >> UInt32(shift) & 0xFF)) }
  }
}
