import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOTLS
import Testing

@testable import BinarioTransport

/// What leaves a connection with each flush when calls are answered outside a read burst.
@Suite("Flushes: the answers of one turn of the event loop leave together")
struct FlushCoalescingTests {
  @Test(arguments: [true, false])
  func callsAnsweredInOneTurnShareOneFlush(coalesces: Bool) throws {
    var configuration = BinarioConnectionConfiguration.defaults
    configuration.coalescesFlushes = coalesces
    let connection = try EmbeddedServerConnection(configuration: configuration)
    for id in [1, 3] as [UInt64] {
      var open = WireFrame()
      open.callID = id
      open.kind = .open(
        .with {
          $0.method = "/test.v1.Test/Call"
          $0.halfClose = true
        }
      )
      try connection.channel.writeInbound(open)
    }
    #expect(connection.acceptor.calls.count == 2)

    // Outside the read burst, on the loop, as a handler task would answer.
    for call in connection.acceptor.calls { call.end(WireEnd(code: WireStatusCode.ok)) }
    if coalesces {
      #expect(connection.flushes.count == 0, "nothing leaves before the loop's current tasks are done")
      connection.loop.run()
      #expect(connection.flushes.count == 1)
    } else {
      // Each call's answer goes out in a task of its own, with a flush of its own.
      connection.loop.run()
      #expect(connection.flushes.count == 2)
    }
    let ends = try connection.writtenFrames().filter(\.isEnd).map(\.callID)
    #expect(ends == [1, 3])
  }
}
