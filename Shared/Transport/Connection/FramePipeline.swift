import NIOCore
import NIOSSL

/// Adds the frame layer's handlers after TLS: decoder (with the frame-size limit), encoder, and
/// the connection handler of the side.
func addFrameHandlers(
  to pipeline: ChannelPipeline.SynchronousOperations,
  tls: NIOSSLContext,
  isServer: Bool,
  serverHostname: String?,
  connectionHandler: FrameConnectionHandler,
  maximumFrameSize: Int
) throws {
  if isServer {
    try pipeline.addHandler(NIOSSLServerHandler(context: tls))
  } else {
    try pipeline.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
  }
  try pipeline.addHandler(ByteToMessageHandler(FrameDecoder(maximumFrameSize: maximumFrameSize)))
  try pipeline.addHandler(FrameEncoder())
  try pipeline.addHandler(connectionHandler)
}
