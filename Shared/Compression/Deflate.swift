import BinarioZlib

/// Deflate (RFC 1951) with the system's zlib, in the two wrappings the suite writes: raw, as a
/// zip entry stores it (scheduling's GTFS feed), and gzip (RFC 1952), as HTTP sends it (the
/// gateway's web app files).
public enum Deflate {
  public enum Wrapping: Sendable {
    /// The bare stream, no header or trailer.
    case raw
    /// A gzip header and trailer (with the CRC-32 and length).
    case gzip

    var windowBits: Int32 {
      switch self {
      case .raw: -MAX_WBITS
      // 15 window bits, +16: a gzip header and trailer rather than zlib's.
      case .gzip: MAX_WBITS + 16
      }
    }
  }

  /// `bytes` compressed, at zlib's `level` (1 fastest to 9 smallest; its default when `nil`),
  /// or `nil` when zlib cannot start (no memory).
  public static func compress(_ bytes: [UInt8], wrapping: Wrapping, level: Int32? = nil) -> [UInt8]? {
    var stream = z_stream()
    let started = deflateInit2_(
      &stream,
      level ?? Z_DEFAULT_COMPRESSION,
      Z_DEFLATED,
      wrapping.windowBits,
      level == Z_BEST_COMPRESSION ? 9 : 8,
      Z_DEFAULT_STRATEGY,
      ZLIB_VERSION,
      Int32(MemoryLayout<z_stream>.size)
    )
    guard started == Z_OK else { return nil }
    defer { deflateEnd(&stream) }
    var input = bytes
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
    // The output has deflateBound's room, so one call finishes the stream.
    guard status == Z_STREAM_END else { return nil }
    return Array(output.prefix(Int(stream.total_out)))
  }

  /// The CRC-32 zip and gzip keep of `bytes`.
  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { UInt32(BinarioZlib.crc32(0, $0.baseAddress, UInt32($0.count))) }
  }
}
