/// Limits and timers of one Binario connection, for either side.
public struct BinarioConnectionConfiguration: Sendable, Hashable {
  /// Frames above this size are a protocol error: the connection that carried one is closed.
  /// Senders refuse to send a message that would not fit (`RESOURCE_EXHAUSTED`).
  public var maximumFrameSize: Int
  /// After this long without receiving anything, send a `Ping`.
  public var keepaliveInterval: Duration
  /// After a `Ping`, close the connection if nothing arrives within this long.
  public var keepaliveTimeout: Duration
  /// Close the connection (with `GoAway`) after this long with no open calls. `nil`: never.
  public var idleTimeout: Duration?
  /// Per call, how many inbound messages may wait for a slow reader before the connection stops
  /// reading from the socket (so the sender's TCP window fills and its writes wait).
  public var inboundBufferHighWatermark: Int
  public var inboundBufferLowWatermark: Int
  /// Per call, how many bytes of messages a writer outside the event loop may queue before its
  /// `waitUntilWritable()` waits for the loop to write them.
  public var outboundQueueLimit: Int
  /// Whether frames written outside a read burst wait for the end of the event loop's current
  /// batch of tasks to leave together, with one flush (one TLS record and one `write` for every
  /// call answered in that batch), instead of each leaving with its own flush. Under load this
  /// saves CPU per call (Benchmarks/RESULTS.md has the figures); a lone call waits for
  /// the loop to finish its current tasks (a few µs).
  public var coalescesFlushes: Bool
  /// Close a connection whose TLS handshake takes longer than this, and one on which a frame's
  /// first bytes wait longer than this for the rest (a peer dribbling bytes to hold it). `nil`:
  /// no limit.
  public var slowPeerTimeout: Duration?
  /// The most calls a peer may have open at once on one connection; an `Open` beyond it is
  /// answered `RESOURCE_EXHAUSTED` at once. `nil`: no limit (services' own listeners, where the
  /// gateway multiplexes many clients' calls on few connections).
  public var maximumConcurrentCalls: Int?

  public init(
    maximumFrameSize: Int = 4 * 1024 * 1024,
    keepaliveInterval: Duration = .seconds(30),
    keepaliveTimeout: Duration = .seconds(10),
    idleTimeout: Duration? = .seconds(300),
    inboundBufferHighWatermark: Int = 64,
    inboundBufferLowWatermark: Int = 16,
    outboundQueueLimit: Int = 256 * 1024,
    coalescesFlushes: Bool = true,
    slowPeerTimeout: Duration? = .seconds(30),
    maximumConcurrentCalls: Int? = nil
  ) {
    self.maximumFrameSize = maximumFrameSize
    self.keepaliveInterval = keepaliveInterval
    self.keepaliveTimeout = keepaliveTimeout
    self.idleTimeout = idleTimeout
    self.inboundBufferHighWatermark = inboundBufferHighWatermark
    self.inboundBufferLowWatermark = inboundBufferLowWatermark
    self.outboundQueueLimit = outboundQueueLimit
    self.coalescesFlushes = coalescesFlushes
    self.slowPeerTimeout = slowPeerTimeout
    self.maximumConcurrentCalls = maximumConcurrentCalls
  }

  public static var defaults: Self { Self() }

  /// The largest message payload that fits in a frame, leaving room for the frame's own fields.
  var maximumPayloadSize: Int { self.maximumFrameSize - frameEnvelopeAllowance }
}

/// Room kept in a frame for everything but the payload (call id, field tags, lengths).
let frameEnvelopeAllowance = 64
