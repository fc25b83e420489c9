import BinarioDomain
import BinarioTransport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A server-streaming call over HTTP/JSON, as Server-Sent Events (`text/event-stream`): one
/// `message` event per response message, its data the message's canonical JSON on one line.
///
/// An event's id is the message's `cursor` for a route that ``HTTPRoute/resumesAtCursor`` (a
/// client reconnecting with `Last-Event-ID` resumes after it), else its position in the stream.
/// A call that fails before its first message answers with the JSON error and its HTTP status,
/// like a unary call; one that fails later ends the stream with an `error` event carrying the
/// same JSON error body.
///
/// A stream with nothing to say for ``keepAliveInterval`` gets a comment line: proxies keep an
/// idle stream open, and a client that went away without a word (a closed tab) is found out by
/// the write failing, which cancels its call. Graceful shutdown ends every open stream through
/// ``OpenStreams``.
enum ServerSentEvents {
  static let keepAliveInterval = TimeAmount.seconds(15)

  static func response(
    for call: BridgedClientCall,
    responses: BridgedResponseReader,
    route: HTTPRoute,
    openStreams: OpenStreams,
    requestID doorRequestID: String
  ) async -> Response {
    var responses = responses
    var requestID: String? = doorRequestID
    // The first part decides the HTTP status: headers (or a message) open the stream; an end
    // first is a refusal or a failure.
    var first: BridgedClientCall.Response?
    var opened = false
    while let part = await responses.next() {
      if case .headers(let headers) = part {
        requestID = headers.firstText(GatewayRequestID.key) ?? doorRequestID
        opened = true
        break
      }
      first = part
      break
    }
    switch first {
    case .end(let end)?:
      requestID = requestID ?? end.trailers.firstText(GatewayRequestID.key)
      if end.statusCode != WireStatusCode.ok {
        return HTTPFrontDoorResponder.error(HTTPErrorBody(end: end, requestID: requestID), end: end)
      }
    case nil where !opened:
      return HTTPFrontDoorResponder.error(
        HTTPErrorBody(code: WireStatusCode.cancelled, message: "the call was cancelled", language: .fallback, requestID: requestID)
      )
    default:
      ()
    }

    var headers = HTTPFields()
    headers[.contentType] = "text/event-stream"
    headers[.cacheControl] = "no-cache"
    if let requestID { headers[HTTPFrontDoorResponder.requestID] = requestID }
    let (rest, opening) = (responses, first)
    let streamRequestID = requestID
    return Response(
      status: .ok,
      headers: headers,
      body: ResponseBody { writer in
        var (responses, pending) = (rest, opening)
        var position = 0
        openStreams.add(call)
        defer { openStreams.remove(call) }
        do {
          // Cancelled (the front door's grace period is over), the call ends: the wait below
          // is not cancellable by itself.
          try await withTaskCancellationHandler {
            while true {
              let next: BridgedClientCall.Response?
              if let waiting = pending {
                next = waiting
                pending = nil
              } else {
                switch await responses.next(idle: Self.keepAliveInterval) {
                case .response(let part): next = part
                case .finished: next = nil
                case .idle:
                  try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                  continue
                }
              }
              guard let part = next else { break }
              switch part {
              case .headers:
                continue
              case .message(let data):
                position += 1
                let event = Self.event(data, route: route, position: position, requestID: streamRequestID)
                try await writer.write(ByteBuffer(bytes: event))
                call.responseWritten(bytes: data.count)
              case .end(let end):
                if end.statusCode != WireStatusCode.ok {
                  let body = HTTPErrorBody(end: end, requestID: streamRequestID).json()
                  try await writer.write(ByteBuffer(string: "event: error\ndata: " + String(decoding: body, as: UTF8.self) + "\n\n"))
                }
              }
            }
          } onCancel: {
            call.clientCancelled()
          }
          try await writer.finish(nil)
        } catch {
          call.clientCancelled()
          throw error
        }
      }
    )
  }

  /// One `message` event for a response message.
  static func event(_ message: Data, route: HTTPRoute, position: Int, requestID: String?) -> [UInt8] {
    let json: [UInt8]
    do {
      json = try route.transcoder.responseJSON(Array(message))
    } catch {
      let body = HTTPErrorBody(
        code: WireStatusCode.internalError,
        message: "a message does not decode: \(error)",
        language: .fallback,
        requestID: requestID
      )
      return Array("event: error\ndata: ".utf8) + Array(body.json()) + Array("\n\n".utf8)
    }
    var id = "\(position)"
    if route.resumesAtCursor,
      let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
      let cursor = object["cursor"] as? String
    {
      id = cursor
    }
    // Canonical JSON from swift-protobuf has no raw newlines (they are escaped in strings).
    return Array("id: \(id)\nevent: message\ndata: ".utf8) + json + Array("\n\n".utf8)
  }
}
