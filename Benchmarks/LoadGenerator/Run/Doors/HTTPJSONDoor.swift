import AsyncHTTPClient
import GRPCCore
import GatewayService
import NIOCore
import NIOHTTP1
import SwiftProtobuf

/// The HTTP/JSON door: AsyncHTTPClient over HTTP/1.1 and TLS, each method by its route, the
/// answer read with proto3's JSON mapping and a server stream as Server-Sent Events.
struct HTTPJSONDoor: Door {
  let kind = DoorKind.httpJSON
  let client: HTTPClient
  /// `https://localhost:7443`.
  let base: String
  let timeout: Duration
  private let routes: [String: HTTPRoute]

  /// The largest answer read (a departures board with its calling points is some tens of KB).
  static let answerLimit = 8 << 20

  init(client: HTTPClient, base: String, timeout: Duration) {
    self.client = client
    self.base = base
    self.timeout = timeout
    self.routes = Dictionary(HTTPRouteTable.generated.map { ($0.rpc, $0) }, uniquingKeysWith: { first, _ in first })
  }

  func unary<Request: Message & Sendable, Response: Message & Sendable>(
    _ method: MethodDescriptor,
    _ request: Request,
    as caller: Caller,
    answer: Response.Type
  ) async throws -> Response {
    let response = try await send(method, request, as: caller, timeout: .nanoseconds(Int64(timeout.nanoseconds)))
    let body = try await response.body.collect(upTo: Self.answerLimit)
    guard response.status == .ok else { throw Self.failure(response.status, body: body) }
    do {
      var options = JSONDecodingOptions()
      options.ignoreUnknownFields = true
      return try Response(jsonUTF8Bytes: Array(body.readableBytesView), options: options)
    } catch {
      throw CallFailure(code: "bad answer", message: "\(method): \(error)")
    }
  }

  func serverStream<Request: Message & Sendable, Response: Message & Sendable>(
    _ method: MethodDescriptor,
    _ request: Request,
    as caller: Caller,
    answer: Response.Type,
    received: @escaping @Sendable (Response) -> Void
  ) async throws {
    do {
      let response = try await send(method, request, as: caller, timeout: .hours(24))
      guard response.status == .ok else {
        throw Self.failure(response.status, body: try await response.body.collect(upTo: Self.answerLimit))
      }
      var events = ServerSentEvents()
      var options = JSONDecodingOptions()
      options.ignoreUnknownFields = true
      for try await chunk in response.body {
        for event in events.take(chunk) {
          if event.name == "error" {
            throw Self.failure(.ok, body: ByteBuffer(string: event.data))
          }
          received(try Response(jsonString: event.data, options: options))
        }
      }
    } catch is CancellationError {
      return
    } catch let error as HTTPClientError where Task.isCancelled && error == .cancelled {
      return
    }
  }

  private func send(
    _ method: MethodDescriptor,
    _ message: some Message,
    as caller: Caller,
    timeout: TimeAmount
  ) async throws -> HTTPClientResponse {
    guard let route = routes["/\(method.fullyQualifiedMethod)"] else {
      throw CallFailure(code: "UNIMPLEMENTED", message: "\(method) has no HTTP route")
    }
    let shape = try HTTPJSONRequest(route: route, message: message)
    var request = HTTPClientRequest(url: base + shape.target)
    request.method = HTTPMethod(rawValue: shape.verb)
    if let authorization = caller.authorization { request.headers.add(name: "authorization", value: authorization) }
    if let body = shape.body {
      request.headers.add(name: "content-type", value: "application/json")
      request.body = .bytes(ByteBuffer(string: body))
    }
    do {
      return try await client.execute(request, timeout: timeout)
    } catch let error as HTTPClientError where error == .deadlineExceeded {
      throw CallFailure(code: "DEADLINE_EXCEEDED", message: "no answer within \(timeout)")
    } catch let error as HTTPClientError {
      throw CallFailure(code: "HTTP client: \(error)", message: "\(error)")
    }
  }

  /// The JSON error's `code` (the gRPC name) when the answer has one, else the HTTP status.
  private static func failure(_ status: HTTPResponseStatus, body: ByteBuffer) -> CallFailure {
    let text = String(buffer: body)
    if let error = try? Google_Protobuf_Struct(jsonString: text), case .stringValue(let code)? = error.fields["code"]?.kind {
      if case .stringValue(let message)? = error.fields["message"]?.kind { return CallFailure(code: code, message: message) }
      return CallFailure(code: code, message: text)
    }
    return CallFailure(code: "HTTP \(status.code)", message: String(text.prefix(200)))
  }
}

extension Duration {
  fileprivate var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }
}

/// Server-Sent Events out of a body's chunks: `event:` and `data:` lines up to a blank line.
struct ServerSentEvents {
  struct Event: Equatable {
    var name = "message"
    var data = ""
  }

  private var pending = ""

  /// The events `chunk` completes.
  mutating func take(_ chunk: ByteBuffer) -> [Event] {
    pending += String(buffer: chunk)
    var events: [Event] = []
    while let end = pending.range(of: "\n\n") {
      let block = pending[..<end.lowerBound]
      pending = String(pending[end.upperBound...])
      var event = Event()
      var lines: [Substring] = []
      for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("event:") {
          event.name = line.dropFirst(6).trimmingPrefix(" ").description
        } else if line.hasPrefix("data:") {
          lines.append(line.dropFirst(5).trimmingPrefix(" "))
        }
      }
      guard !lines.isEmpty else { continue }
      event.data = lines.joined(separator: "\n")
      events.append(event)
    }
    return events
  }
}
