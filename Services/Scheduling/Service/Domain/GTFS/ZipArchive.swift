import BinarioZlib
import Foundation

/// The entries of a zip archive held in memory, read from its central directory with every offset
/// and size checked against the archive's bytes, and unpacked (stored or deflated) from exactly
/// their own compressed bytes.
///
/// Why not ZIPFoundation's `Archive`: found by the `gtfs` fuzzer (`Fuzz/Regressions/gtfs`), its
/// in-memory archive traps on an entry whose offsets point past the end, and on Linux its inflate
/// loop reads on past an entry's data until the stream ends, so a deflate stream that never ends
/// spins forever at the end of the file. Nor its `Data.decompress`: it always tells zlib a whole
/// buffer of input is there, so an entry's last, shorter chunk lets zlib read on past it into
/// whatever memory follows (found by the same fuzzer as a crash in libz; kept as
/// `zip-inflate-reads-past-the-last-chunk`). Entries are inflated here with zlib itself, given
/// exactly the entry's bytes. Zip64 is not read (a feed is far below 4 GiB).
struct ZipArchive {
  struct Entry {
    var path: String
    var isDirectory: Bool
    var method: UInt16
    var crc32: UInt32
    var compressedSize: Int
    var uncompressedSize: Int
    var localHeaderOffset: Int
  }

  /// Why an archive or an entry cannot be read: for a person.
  struct Damaged: Error {
    var reason: String
  }

  let bytes: [UInt8]
  let entries: [Entry]

  init(_ bytes: [UInt8]) throws(Damaged) {
    self.bytes = bytes
    // The end of central directory record: 22 bytes and a comment of up to 65,535 at the end.
    let earliest = max(0, bytes.count - 22 - 65_535)
    var end = bytes.count - 22
    while end >= earliest, Self.uint32(bytes, at: end) != 0x0605_4B50 { end -= 1 }
    guard end >= earliest, end >= 0 else { throw Damaged(reason: "not a zip archive") }
    let count = Int(Self.uint16(bytes, at: end + 10)!)
    let directoryOffset = Int(Self.uint32(bytes, at: end + 16)!)
    guard count != 0xFFFF, directoryOffset != 0xFFFF_FFFF else { throw Damaged(reason: "a zip64 archive, which is not read") }
    var entries: [Entry] = []
    var offset = directoryOffset
    for _ in 0 ..< count {
      guard Self.uint32(bytes, at: offset) == 0x0201_4B50,
        let method = Self.uint16(bytes, at: offset + 10),
        let crc32 = Self.uint32(bytes, at: offset + 16),
        let compressedSize = Self.uint32(bytes, at: offset + 20),
        let uncompressedSize = Self.uint32(bytes, at: offset + 24),
        let nameLength = Self.uint16(bytes, at: offset + 28),
        let extraLength = Self.uint16(bytes, at: offset + 30),
        let commentLength = Self.uint16(bytes, at: offset + 32),
        let localHeaderOffset = Self.uint32(bytes, at: offset + 42),
        offset + 46 + Int(nameLength) <= bytes.count
      else { throw Damaged(reason: "the archive's directory is damaged") }
      let path = String(decoding: bytes[(offset + 46) ..< (offset + 46 + Int(nameLength))], as: UTF8.self)
      entries.append(
        Entry(
          path: path,
          isDirectory: path.hasSuffix("/"),
          method: method,
          crc32: crc32,
          compressedSize: Int(compressedSize),
          uncompressedSize: Int(uncompressedSize),
          localHeaderOffset: Int(localHeaderOffset)
        )
      )
      offset += 46 + Int(nameLength) + Int(extraLength) + Int(commentLength)
    }
    self.entries = entries
  }

  /// `entry`'s compressed bytes, as stored in the archive.
  func compressedBytes(of entry: Entry) throws -> ArraySlice<UInt8> {
    let header = entry.localHeaderOffset
    guard Self.uint32(self.bytes, at: header) == 0x0403_4B50,
      let nameLength = Self.uint16(self.bytes, at: header + 26),
      let extraLength = Self.uint16(self.bytes, at: header + 28)
    else { throw Damaged(reason: "the entry's header is damaged") }
    let start = header + 30 + Int(nameLength) + Int(extraLength)
    guard start + entry.compressedSize <= self.bytes.count else { throw Damaged(reason: "the entry runs past the archive's end") }
    return self.bytes[start ..< (start + entry.compressedSize)]
  }

  /// `entry`'s bytes, handed to `consumer` a chunk at a time (which may throw to stop).
  func extract(_ entry: Entry, consumer: (Data) throws -> Void) throws {
    let data = try self.compressedBytes(of: entry)
    switch entry.method {
    case 0:
      try consumer(Data(data))
    case 8:
      let crc32 = try Self.inflate(data, consumer: consumer)
      guard crc32 == entry.crc32 else { throw Damaged(reason: "the entry's checksum does not match") }
    default:
      throw Damaged(reason: "compression method \(entry.method) (only stored and deflated entries are read)")
    }
  }

  /// Inflates the raw deflate stream `compressed` (no zlib header, as zip stores it), handing the
  /// output to `consumer` a chunk at a time; returns the output's CRC-32. zlib sees exactly these
  /// bytes: a stream that does not end within them is damaged.
  static func inflate(_ compressed: ArraySlice<UInt8>, consumer: (Data) throws -> Void) throws -> UInt32 {
    var stream = z_stream()
    guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw Damaged(reason: "zlib could not start inflating")
    }
    defer { inflateEnd(&stream) }
    var checksum = UInt32(crc32(0, nil, 0))
    var output = [UInt8](repeating: 0, count: 64 * 1024)
    let input = Array(compressed)
    try input.withUnsafeBufferPointer { input in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = UInt32(input.count)
      var status = Z_OK
      while status != Z_STREAM_END {
        let produced = try output.withUnsafeMutableBufferPointer { output -> Int in
          stream.next_out = output.baseAddress
          stream.avail_out = UInt32(output.count)
          status = BinarioZlib.inflate(&stream, Z_NO_FLUSH)
          switch status {
          case Z_OK, Z_STREAM_END, Z_BUF_ERROR: break
          default: throw Damaged(reason: "the entry's compressed data is damaged")
          }
          let produced = output.count - Int(stream.avail_out)
          if produced > 0 {
            checksum = UInt32(crc32(UInt(checksum), output.baseAddress, UInt32(produced)))
            try consumer(Data(output[0 ..< produced]))
          }
          return produced
        }
        // zlib wants more input than the entry has: the stream runs on past it.
        if status != Z_STREAM_END, produced == 0, stream.avail_in == 0 {
          throw Damaged(reason: "the entry's compressed data ends before its stream does")
        }
      }
    }
    return checksum
  }

  private static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16? {
    guard offset >= 0, offset + 2 <= bytes.count else { return nil }
    return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
  }

  private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32? {
    guard offset >= 0, offset + 4 <= bytes.count else { return nil }
    return (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
  }
}
