import NIOCore
import SwiftProtobuf

/// The size of a frame's length prefix: a 4-byte unsigned big-endian integer.
let framePrefixSize = 4

/// Splits the inbound byte stream into frames and decodes each as a `WireFrame`.
///
/// The length prefix is checked against the limit *before* any of the frame is buffered, so a
/// peer announcing a huge frame costs nothing: the decoder throws and the connection closes.
/// A frame must arrive whole within `completionTimeout` of its first bytes; a peer dribbling
/// one (slowloris) has its connection closed with a protocol error.
final class FrameDecoder: ByteToMessageDecoder {
  typealias InboundOut = WireFrame

  private let maximumFrameSize: Int
  private let completionTimeout: Duration?
  /// Running while part of a frame is buffered.
  private var partialFrameTimer: Scheduled<Void>?

  init(maximumFrameSize: Int, completionTimeout: Duration? = nil) {
    self.maximumFrameSize = maximumFrameSize
    self.completionTimeout = completionTimeout
  }

  func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
    guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else {
      self.partialFrameBuffered(context: context, buffered: buffer.readableBytes)
      return .needMoreData
    }
    let frameLength = Int(length)
    guard frameLength <= self.maximumFrameSize else {
      throw BinarioProtocolError.frameTooLarge(length: frameLength, limit: self.maximumFrameSize)
    }
    guard buffer.readableBytes >= framePrefixSize + frameLength else {
      self.partialFrameBuffered(context: context, buffered: buffer.readableBytes)
      return .needMoreData
    }
    self.partialFrameTimer?.cancel()
    self.partialFrameTimer = nil
    buffer.moveReaderIndex(forwardBy: framePrefixSize)
    let body = buffer.readSlice(length: frameLength)!
    let frame: WireFrame
    do {
      frame = try WireFrame(serializedBytes: ByteBufferBytes(body))
    } catch {
      throw BinarioProtocolError.undecodableFrame
    }
    context.fireChannelRead(Self.wrapInboundOut(frame))
    return .continue
  }

  func decodeLast(
    context: ChannelHandlerContext,
    buffer: inout ByteBuffer,
    seenEOF: Bool
  ) throws -> DecodingState {
    while try self.decode(context: context, buffer: &buffer) == .continue {}
    if buffer.readableBytes > 0 {
      let announced = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self).map(Int.init)
      let missing = (announced ?? 0) + framePrefixSize - buffer.readableBytes
      buffer.moveReaderIndex(to: buffer.writerIndex)
      throw BinarioProtocolError.truncatedFrame(missingBytes: max(missing, 1))
    }
    return .needMoreData
  }

  func decoderRemoved(context: ChannelHandlerContext) {
    self.partialFrameTimer?.cancel()
    self.partialFrameTimer = nil
  }

  /// Starts the completion clock when a frame's first bytes wait for the rest.
  private func partialFrameBuffered(context: ChannelHandlerContext, buffered: Int) {
    guard buffered > 0, self.partialFrameTimer == nil, let timeout = self.completionTimeout else { return }
    let context = NIOLoopBound(context, eventLoop: context.eventLoop)
    self.partialFrameTimer = context.value.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
      context.value.fireErrorCaught(BinarioProtocolError.frameTooSlow(timeout))
    }
  }
}

/// Encodes outbound `WireFrame`s as length-prefixed protobuf, serializing straight into the
/// outbound buffer (no intermediate copy).
final class FrameEncoder: ChannelOutboundHandler {
  typealias OutboundIn = WireFrame
  typealias OutboundOut = ByteBuffer

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    let frame = Self.unwrapOutboundIn(data)
    do {
      let bytes: ByteBufferBytes = try frame.serializedBytes()
      context.write(Self.wrapOutboundOut(bytes.framedBuffer), promise: promise)
    } catch {
      promise?.fail(error)
      context.fireErrorCaught(error)
    }
  }
}

/// Lets SwiftProtobuf read from and write into a `ByteBuffer` without copying.
///
/// When SwiftProtobuf serializes into it (`init(repeating:count:)` then
/// `withUnsafeMutableBytes`), the buffer already holds the frame's 4-byte length prefix in front
/// of the message bytes, so ``framedBuffer`` is ready to write to the channel.
struct ByteBufferBytes: SwiftProtobufContiguousBytes {
  private var buffer: ByteBuffer
  private var prefixed: Bool

  init(_ buffer: ByteBuffer) {
    self.buffer = buffer
    self.prefixed = false
  }

  init(repeating: UInt8, count: Int) {
    var buffer = ByteBufferAllocator().buffer(capacity: count + framePrefixSize)
    buffer.writeInteger(UInt32(truncatingIfNeeded: count))
    buffer.writeRepeatingByte(repeating, count: count)
    self.buffer = buffer
    self.prefixed = true
  }

  init(_ sequence: some Sequence<UInt8>) {
    self.init(ByteBuffer(bytes: sequence))
  }

  var count: Int {
    self.buffer.readableBytes - (self.prefixed ? framePrefixSize : 0)
  }

  /// The length-prefixed frame (only for buffers created by serialization).
  var framedBuffer: ByteBuffer {
    precondition(self.prefixed)
    return self.buffer
  }

  func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let skip = self.prefixed ? framePrefixSize : 0
    return try self.buffer.withUnsafeReadableBytes { try body(UnsafeRawBufferPointer(rebasing: $0.dropFirst(skip))) }
  }

  mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
    let skip = self.prefixed ? framePrefixSize : 0
    return try self.buffer.withUnsafeMutableReadableBytes {
      try body(UnsafeMutableRawBufferPointer(rebasing: $0.dropFirst(skip)))
    }
  }
}
