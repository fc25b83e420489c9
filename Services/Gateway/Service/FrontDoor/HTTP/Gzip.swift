import BinarioCompression
import Foundation

/// gzip for the web app's own files: each is compressed once when the gateway reads it, at
/// zlib's best level, and sent so to every browser that takes gzip (about a third of the bytes
/// for JavaScript, CSS and JSON, which matters on a slow phone connection).
enum Gzip {
  /// `data` gzip-compressed, or `nil` if zlib fails.
  static func compress(_ data: Data) -> Data? {
    Deflate.compress([UInt8](data), wrapping: .gzip, level: 9).map { Data($0) }
  }
}
