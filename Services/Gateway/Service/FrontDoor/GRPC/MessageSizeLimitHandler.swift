import NIOCore
import NIOHPACK
import NIOHTTP2

/// Refuses a request message over the gRPC door's limit the way gRPC servers do: with
/// `RESOURCE_EXHAUSTED` and a message, in trailers, as soon as the message's length prefix
/// arrives. (grpc-swift's own check resets the HTTP/2 stream instead, which clients report as
/// an internal error with no status.)
///
/// It sits first in each HTTP/2 stream's pipeline, before the transport's stream handler, and
/// reads only the 5-byte prefixes of the gRPC framing; frames pass through untouched until a
/// prefix declares more than `limit` bytes. Then it answers (trailers-only, or trailers after the
/// response headers already sent), asks the client to stop sending with `RST_STREAM(NO_ERROR)`,
/// drops the rest of the request and closes the stream, which cancels the call behind it.
final class MessageSizeLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTP2Frame.FramePayload
  typealias InboundOut = HTTP2Frame.FramePayload
  typealias OutboundIn = HTTP2Frame.FramePayload
  typealias OutboundOut = HTTP2Frame.FramePayload

  let limit: Int
  /// The prefix read so far of the next message (at most 5 bytes).
  private var prefix: [UInt8] = []
  /// Bytes of the current message still to come.
  private var remaining = 0
  private var responseHeadersSent = false
  private var refused = false

  init(limit: Int) {
    self.limit = limit
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !refused else { return }
    let payload = unwrapInboundIn(data)
    if case .data(let frame) = payload, case .byteBuffer(let buffer) = frame.data, let declared = self.oversized(in: buffer) {
      self.refuse(context: context, declared: declared)
      return
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard !refused else {
      promise?.fail(ChannelError.ioOnClosedChannel)
      return
    }
    if case .headers = unwrapOutboundIn(data) { responseHeadersSent = true }
    context.write(data, promise: promise)
  }

  /// The declared length of a message in `buffer` over the limit, if one begins there.
  private func oversized(in buffer: ByteBuffer) -> Int? {
    var view = buffer.readableBytesView[...]
    while !view.isEmpty {
      if remaining > 0 {
        let skipped = min(remaining, view.count)
        view = view.dropFirst(skipped)
        remaining -= skipped
        continue
      }
      let needed = 5 - prefix.count
      prefix += view.prefix(needed)
      view = view.dropFirst(needed)
      guard prefix.count == 5 else { break }
      let length = prefix[1 ... 4].reduce(0) { $0 << 8 | Int($1) }
      prefix = []
      if length > limit { return length }
      remaining = length
    }
    return nil
  }

  private func refuse(context: ChannelHandlerContext, declared: Int) {
    refused = true
    var trailers: HPACKHeaders = [:]
    if !responseHeadersSent {
      trailers.add(name: ":status", value: "200")
      trailers.add(name: "content-type", value: "application/grpc")
    }
    trailers.add(name: "grpc-status", value: "8")  // RESOURCE_EXHAUSTED
    // Printable ASCII without `%`: `grpc-message` needs no percent-encoding.
    trailers.add(name: "grpc-message", value: "the request message is \(declared) bytes; this door takes at most \(limit)")
    context.write(wrapOutboundOut(.headers(.init(headers: trailers, endStream: true))), promise: nil)
    // "Stop sending, without error" (RFC 9113 §8.1): the answer is complete. (Closing the
    // stream instead would reset it with CANCEL, which clients report over the status.)
    context.writeAndFlush(wrapOutboundOut(.rstStream(.noError)), promise: nil)
    context.close(promise: nil)
  }
}
