import BinarioTransport
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SwiftProtobuf

/// The gateway's own calls to an upstream (health checks, signing keys, the revocation feed),
/// made on the frame layer: encode the request, open the call, decode what comes back. No
/// GRPCCore client, and the same connections and certificate as forwarded calls.
extension UpstreamConnections {
  /// A unary call: the single response, or the status the call ended with.
  func unary<Response: SwiftProtobuf.Message>(
    method: String,
    request: some SwiftProtobuf.Message,
    metadata: WireMetadata = [],
    timeout: Duration?,
    on loop: any EventLoop,
    as responseType: Response.Type = Response.self
  ) async throws(UpstreamCallError) -> Response {
    let payload: Data
    do {
      payload = try request.serializedData()
    } catch {
      throw UpstreamCallError(code: WireStatusCode.internalError, message: "cannot encode the request to \(method): \(error)")
    }
    let connection = try await self.connection(on: loop)
    let collected = NIOLockedValueBox<Data?>(nil)
    let end = await withCheckedContinuation { (continuation: CheckedContinuation<WireEnd, Never>) in
      _ = connection.openCall(
        BinarioCallRequest(method: method, metadata: metadata, timeout: timeout, firstMessage: payload, halfClose: true)
      ) { event in
        switch event {
        case .headers: ()
        case .message(let data): collected.withLockedValue { $0 = data }
        case .end(let end): continuation.resume(returning: end)
        }
      }
    }
    guard end.statusCode == WireStatusCode.ok else { throw UpstreamCallError(end: end) }
    guard let data = collected.withLockedValue({ $0 }) else {
      throw UpstreamCallError(code: WireStatusCode.internalError, message: "\(method) ended OK without a response")
    }
    do {
      return try Response(serializedBytes: data)
    } catch {
      throw UpstreamCallError(code: WireStatusCode.internalError, message: "the response of \(method) does not decode: \(error)")
    }
  }

  /// A server-streaming call: `onMessage` gets each decoded response (on the connection's event
  /// loop) until the call ends; returns the final status (OK included). Cancelling the calling
  /// task cancels the call.
  func serverStream<Response: SwiftProtobuf.Message>(
    method: String,
    request: some SwiftProtobuf.Message,
    metadata: WireMetadata = [],
    on loop: any EventLoop,
    as responseType: Response.Type = Response.self,
    onMessage: @escaping @Sendable (Response) -> Void
  ) async throws(UpstreamCallError) -> WireEnd {
    let payload: Data
    do {
      payload = try request.serializedData()
    } catch {
      throw UpstreamCallError(code: WireStatusCode.internalError, message: "cannot encode the request to \(method): \(error)")
    }
    let connection = try await self.connection(on: loop)
    let call = NIOLockedValueBox<BinarioClientCall?>(nil)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<WireEnd, Never>) in
        let opened = connection.openCall(
          BinarioCallRequest(method: method, metadata: metadata, firstMessage: payload, halfClose: true)
        ) { event in
          switch event {
          case .headers: ()
          case .message(let data):
            if let message = try? Response(serializedBytes: data) {
              onMessage(message)
            } else {
              call.withLockedValue { $0 }?.cancel()
            }
          case .end(let end):
            continuation.resume(returning: end)
          }
        }
        call.withLockedValue { $0 = opened }
        if Task.isCancelled { opened.cancel() }
      }
    } onCancel: {
      call.withLockedValue { $0 }?.cancel()
    }
  }
}
