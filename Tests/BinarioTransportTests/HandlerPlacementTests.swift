import BinarioEcho
import BinarioTransport
import Dispatch
import GRPCCore
import GRPCProtobuf
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// Where a GRPCCore handler runs on the Binario transport: on its connection's event loop, and
/// back on that loop after awaiting work elsewhere (see `EventLoopTaskExecutor`).
@Suite("Handlers run on their connection's event loop")
struct HandlerPlacementTests {
  @Test func aHandlerRunsOnAnEventLoopAndComesBackToItAfterAwaitingElsewhere() async throws {
    try await withTestServer(services: [LoopReportingService()]) { port, _ in
      try await withTestClient(port: port) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        // Several calls: a resumption that landed on another thread by chance would show in one.
        for _ in 0 ..< 20 {
          let reply = try await echo.get(.with { $0.text = "where" })
          #expect(reply.text == "on one event loop throughout")
        }
      }
    }
  }

  @Test func callsOnOneConnectionShareItsEventLoop() async throws {
    let loops = LoopRecorder()
    try await withTestServer(services: [LoopReportingService(recorder: loops)]) { port, _ in
      try await withTestClient(port: port, pool: .init(size: 1)) { client, _ in
        let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
        for _ in 0 ..< 10 { _ = try await echo.get(.with { $0.text = "where" }) }
      }
    }
    #expect(loops.distinctCount == 1)
  }
}

/// Answers `Echo/Get` with where it ran: the event loop it started on, and the one it was on
/// after awaiting a job on a Dispatch queue.
private struct LoopReportingService: RegistrableRPCService {
  var recorder: LoopRecorder?

  func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
    let recorder = self.recorder
    router.registerHandler(
      forMethod: Binario_Echo_V1_Echo.Method.Get.descriptor,
      deserializer: ProtobufDeserializer<Binario_Echo_V1_EchoRequest>(),
      serializer: ProtobufSerializer<Binario_Echo_V1_EchoResponse>()
    ) { request, context in
      let before = MultiThreadedEventLoopGroup.currentEventLoop
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume() }
      }
      let after = MultiThreadedEventLoopGroup.currentEventLoop
      let text: String
      switch (before, after) {
      case (nil, _): text = "not on an event loop"
      case (let before?, let after?) where before === after:
        text = "on one event loop throughout"
        recorder?.record(before)
      default: text = "on another thread after awaiting"
      }
      return StreamingServerResponse(single: ServerResponse(message: .with { $0.text = text }))
    }
  }
}

private final class LoopRecorder: Sendable {
  private let loops = Mutex<[ObjectIdentifier]>([])

  func record(_ loop: any EventLoop) {
    self.loops.withLock { $0.append(ObjectIdentifier(loop)) }
  }

  var distinctCount: Int { self.loops.withLock { Set($0).count } }
}
