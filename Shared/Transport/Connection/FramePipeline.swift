import NIOCore
import NIOSSL

/// Adds the frame layer's handlers after TLS: the handshake's time limit, decoder (with the
/// frame-size and frame-time limits), encoder, and the connection handler of the side.
func addFrameHandlers(
  to pipeline: ChannelPipeline.SynchronousOperations,
  tls: NIOSSLContext,
  isServer: Bool,
  serverHostname: String?,
  connectionHandler: FrameConnectionHandler,
  configuration: BinarioConnectionConfiguration
) throws {
  if isServer {
    try pipeline.addHandler(NIOSSLServerHandler(context: tls))
  } else {
    try pipeline.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
  }
  if let timeout = configuration.slowPeerTimeout {
    try pipeline.addHandler(ConnectionStartTimeoutHandler(timeout: timeout))
  }
  try pipeline.addHandler(
    ByteToMessageHandler(
      FrameDecoder(maximumFrameSize: configuration.maximumFrameSize, completionTimeout: configuration.slowPeerTimeout)
    )
  )
  try pipeline.addHandler(FrameEncoder())
  try pipeline.addHandler(connectionHandler)
}
