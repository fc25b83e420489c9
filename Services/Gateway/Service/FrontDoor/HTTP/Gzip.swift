import BinarioZlib
import Foundation

/// gzip (RFC 1952) with the system's zlib, for the web app's own files: each is compressed once
/// when the gateway reads it, and sent so to every browser that takes gzip (about a third of
/// the bytes for JavaScript, CSS and JSON, which matters on a slow phone connection).
enum Gzip {
  /// `data` gzip-compressed at zlib's best level, or `nil` if zlib fails.
  static func compress(_ data: Data) -> Data? {
    var stream = z_stream()
    // 15 window bits, +16: a gzip header and trailer rather than zlib's.
    guard
      deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, MAX_WBITS + 16, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        == Z_OK
    else { return nil }
    defer { deflateEnd(&stream) }
    var input = [UInt8](data)
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
    let status = input.withUnsafeMutableBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target in
        stream.next_in = source.baseAddress
        stream.avail_in = UInt32(source.count)
        stream.next_out = target.baseAddress
        stream.avail_out = UInt32(target.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { return nil }
    return Data(output.prefix(Int(stream.total_out)))
  }
}
