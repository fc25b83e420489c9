import BinarioEcho
import BinarioTransport
import GRPCCore
import GRPCProtobuf
import Synchronization

/// `binario.echo.v1.Probe`, an upstream that shows what reached it:
///
/// - `Metadata` (unary) answers the request metadata it received, one `key=value` per line,
///   sorted, in `text`, and the call's timeout as `timeout=<milliseconds>ms` when it has one.
/// - `Hang` (unary) records `started` (with the timeout it received in ms, if any), waits for
///   the call's cancellation, records `cancelled`, and ends.
struct ProbeService: RegistrableRPCService {
  static let serviceName = "binario.echo.v1.Probe"
  static let metadata = MethodDescriptor(fullyQualifiedService: serviceName, method: "Metadata", type: .unary)
  static let hang = MethodDescriptor(fullyQualifiedService: serviceName, method: "Hang", type: .unary)

  let events: EventRecorder

  func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
    router.registerHandler(
      forMethod: Self.metadata,
      deserializer: ProtobufDeserializer<Binario_Echo_V1_EchoRequest>(),
      serializer: ProtobufSerializer<Binario_Echo_V1_EchoResponse>()
    ) { request, context in
      _ = try await ServerRequest(stream: request).message
      var lines = request.metadata.map { key, value -> String in
        switch value {
        case .string(let text): return "\(key)=\(text)"
        case .binary(let bytes): return "\(key)=<\(bytes.count) bytes>"
        }
      }
      if let timeout = context.binarioTimeout { lines.append("timeout=\(Self.milliseconds(timeout))ms") }
      lines.sort()
      return StreamingServerResponse(single: ServerResponse(message: .with { $0.text = lines.joined(separator: "\n") }))
    }

    let events = self.events
    router.registerHandler(
      forMethod: Self.hang,
      deserializer: ProtobufDeserializer<Binario_Echo_V1_EchoRequest>(),
      serializer: ProtobufSerializer<Binario_Echo_V1_EchoResponse>()
    ) { request, context in
      let timeout = context.binarioTimeout.map { "\(Self.milliseconds($0))ms" } ?? "none"
      events.record("started timeout=\(timeout)")
      try? await context.cancellation.cancelled
      events.record("cancelled")
      throw RPCError(code: .cancelled, message: "cancelled")
    }
  }
}

extension ProbeService {
  static func milliseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
  }
}

/// Events seen by a test service, awaited by the test in order.
final class EventRecorder: Sendable {
  private struct State {
    var events: [String] = []
    var consumed = 0
    var waiter: CheckedContinuation<String, Never>?
  }

  private let state = Mutex(State())

  func record(_ event: String) {
    let waiter = self.state.withLock { state -> CheckedContinuation<String, Never>? in
      guard let waiter = state.waiter else {
        state.events.append(event)
        return nil
      }
      state.waiter = nil
      state.events.append(event)
      state.consumed += 1
      return waiter
    }
    waiter?.resume(returning: event)
  }

  /// Every event recorded so far, without waiting.
  var recorded: [String] {
    self.state.withLock { $0.events }
  }

  /// The next event not yet returned, waiting for it if need be (one waiter at a time).
  func next() async -> String? {
    await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
      let ready = self.state.withLock { state -> String? in
        if state.consumed < state.events.count {
          state.consumed += 1
          return state.events[state.consumed - 1]
        }
        state.waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
