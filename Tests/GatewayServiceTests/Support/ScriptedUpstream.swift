import BinarioTransport
import Foundation
import GatewayService
import NIOCore
import Synchronization

/// An upstream on the frame layer whose every call ends as its script says: for the `n`th call
/// (from 0) of a method, an answer (the request echoed) or an `End` (`UNAVAILABLE`, refused or
/// not). It counts the calls of each method it was sent.
final class ScriptedUpstream: BinarioCallAcceptor {
  enum Outcome: Sendable {
    case echo
    case end(WireEnd)
    /// Headers, these answers, then `end`.
    case answers([Data], end: WireEnd)
  }

  private let script: @Sendable (_ method: String, _ attempt: Int) -> Outcome
  private let calls = Mutex<[String: Int]>([:])
  private let requests = Mutex<[String: [Data]]>([:])

  init(script: @escaping @Sendable (_ method: String, _ attempt: Int) -> Outcome) {
    self.script = script
  }

  /// How many calls of `method` arrived.
  func calls(of method: String) -> Int { self.calls.withLock { $0[method, default: 0] } }

  /// The requests of `method`'s calls, in order.
  func requests(of method: String) -> [Data] { self.requests.withLock { $0[method, default: []] } }

  func acceptCall(_ call: BinarioServerCall) {
    let attempt = self.calls.withLock { calls in
      defer { calls[call.method, default: 0] += 1 }
      return calls[call.method, default: 0]
    }
    let outcome = self.script(call.method, attempt)
    let request = Mutex<Data?>(nil)
    call.onEvent { event in
      switch event {
      case .message(let payload): request.withLock { $0 = payload }
      case .halfClose:
        let payload = request.withLock { $0 } ?? Data()
        self.requests.withLock { $0[call.method, default: []].append(payload) }
        switch outcome {
        case .echo:
          call.sendHeaders([])
          call.sendMessage(request.withLock { $0 } ?? Data())
          call.end(WireEnd(code: WireStatusCode.ok))
        case .end(let end):
          call.end(end)
        case .answers(let answers, let end):
          call.sendHeaders([])
          for answer in answers { call.sendMessage(answer) }
          call.end(end)
        }
      case .cancelled: ()
      }
    }
  }

  /// Listens on 127.0.0.1:`port` (0: any) with the upstreams' certificate.
  func listen(port: Int = 0) async throws -> BinarioListener {
    try await BinarioListener.bind(host: "127.0.0.1", port: port, tls: GatewayTestPKI.upstreamTLS, acceptor: self)
  }
}

/// One unary call through the gateway on the frame layer: its answer and how it ended.
func rawCall(
  _ gateway: RunningGateway,
  method: String,
  request: Data,
  timeout: Duration? = .seconds(30)
) async throws -> (end: WireEnd, answer: Data?) {
  let connection = try await BinarioClientConnection.connect(
    host: "127.0.0.1",
    port: gateway.port,
    serverHostname: nil,
    tls: GatewayTestPKI.clientTLS.makeClientContext(verifyHostname: false)
  )
  defer { connection.close() }
  let answer = Mutex<Data?>(nil)
  let end = await withCheckedContinuation { (continuation: CheckedContinuation<WireEnd, Never>) in
    _ = connection.openCall(
      BinarioCallRequest(method: method, metadata: [], timeout: timeout, firstMessage: request, halfClose: true)
    ) { event in
      switch event {
      case .headers: ()
      case .message(let data): answer.withLock { $0 = data }
      case .end(let end): continuation.resume(returning: end)
      }
    }
  }
  return (end, answer.withLock { $0 })
}
