import Foundation
import GRPCCore

/// The bytes of one message as GRPCCore sees them on the Binario transport.
///
/// Wraps the `Data` the wire frames carry, so a message travels from frame to deserializer (and
/// from serializer to frame) without being copied.
public struct BinarioBytes: GRPCContiguousBytes, Sendable, Hashable {
  public var data: Data

  public init(_ data: Data) {
    self.data = data
  }

  public init(repeating byte: UInt8, count: Int) {
    self.data = Data(repeating: byte, count: count)
  }

  public init<Bytes: Sequence>(_ sequence: Bytes) where Bytes.Element == UInt8 {
    self.data = Data(sequence)
  }

  public var count: Int { self.data.count }

  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try self.data.withUnsafeBytes(body)
  }

  public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
    try self.data.withUnsafeMutableBytes(body)
  }
}
