import NIOCore
import NIOPosix

/// Sends `request` raw over a fresh TCP connection to `address` and reads until the server
/// closes the connection; returns everything read.
func exchangeHTTP(_ request: String, with address: SocketAddress) async throws -> String {
  let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .connect(to: address) { channel in
      channel.eventLoop.makeCompletedFuture {
        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
      }
    }
  return try await channel.executeThenClose { inbound, outbound in
    try await outbound.write(ByteBuffer(string: request))
    var response = ""
    for try await chunk in inbound {
      response += String(buffer: chunk)
    }
    return response
  }
}
