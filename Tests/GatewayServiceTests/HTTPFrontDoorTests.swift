import BinarioTransport
import Foundation
import GRPCCore
import GRPCProtobuf
import Hummingbird
import Testing

@testable import GatewayService

@Suite("The HTTP/JSON front door's answers: statuses, error bodies, retry hints, queries, CORS")
struct HTTPFrontDoorTests {
  @Test func everyStatusCodeHasItsHTTPStatus() {
    let expected: [(Int32, Int)] = [
      (0, 200), (1, 499), (2, 500), (3, 400), (4, 504), (5, 404), (6, 409), (7, 403), (8, 429),
      (9, 400), (10, 409), (11, 400), (12, 501), (13, 500), (14, 503), (15, 500), (16, 401),
    ]
    for (code, status) in expected {
      #expect(HTTPErrorBody.httpStatus(for: code).code == status, "code \(code)")
    }
  }

  @Test func theErrorBodyCarriesTheFieldViolationsOfTheStatusDetails() throws {
    let status = GoogleRPCStatus(
      code: .invalidArgument,
      message: "email: not an address",
      details: [.badRequest(violations: [.init(field: "email", description: "not an address")])]
    )
    let details: [UInt8] = try status.serializedBytes()
    var entry = WireMetadataEntry()
    entry.key = HTTPErrorBody.statusDetailsKey
    entry.value = .binary(Data(details))
    let body = HTTPErrorBody(end: WireEnd(code: WireStatusCode.invalidArgument, message: "email: not an address", trailers: [entry]), requestID: "r1")
    let json = try #require(try JSONSerialization.jsonObject(with: body.json()) as? [String: Any])
    #expect(json["code"] as? String == "INVALID_ARGUMENT")
    #expect(json["requestId"] as? String == "r1")
    let violations = json["fieldViolations"] as? [[String: String]]
    #expect(violations == [["field": "email", "description": "not an address"]])
  }

  @Test func aRateLimitRefusalIs429WithRetryAfter() {
    let end = WireEnd(
      code: WireStatusCode.resourceExhausted,
      message: "rate limit exceeded",
      trailers: [.text(GatewayCallForwarder.retryPushbackKey, "1200")]
    )
    let response = HTTPFrontDoorResponder.error(HTTPErrorBody(end: end, requestID: nil), end: end)
    #expect(response.status == .tooManyRequests)
    #expect(response.headers[.retryAfter] == "2")
  }

  @Test func queryValuesAreDecoded() {
    let items = HTTPRoute.queryItems("recipient=ada%40example.com&query=Ada+Lovelace&empty=&flag")
    #expect(items.map(\.0) == ["recipient", "query", "empty", "flag"])
    #expect(items.map(\.1) == ["ada@example.com", "Ada Lovelace", "", ""])
    #expect(HTTPRoute.queryItems(nil).isEmpty)
  }

  @Test func onlyConfiguredOriginsGetCORSHeadersButEveryAnswerGetsHSTS() {
    let policy = CrossOriginPolicy(allowedOrigins: ["https://app.example.com"])
    let preflight = policy.preflight(origin: "https://app.example.com")
    #expect(preflight.status == .noContent)
    #expect(preflight.headers[.accessControlAllowOrigin] == "https://app.example.com")
    #expect(policy.preflight(origin: "https://evil.example").headers[.accessControlAllowOrigin] == nil)
    var response = Response(status: .ok)
    policy.decorate(&response, origin: "https://evil.example")
    #expect(response.headers[.accessControlAllowOrigin] == nil)
    #expect(response.headers[.strictTransportSecurity]?.hasPrefix("max-age=") == true)
    #expect(CrossOriginPolicy(allowedOrigins: ["*"]).allows("https://anything.example"))
  }

  /// Answers every message with fixed JSON.
  struct FixedJSON: MessageTranscoding {
    let json: String
    func request(body: [UInt8], parameters: [(field: String, value: String, kind: HTTPRoute.ParameterKind)]) throws(TranscodingError) -> [UInt8] {
      []
    }
    func responseJSON(_ message: [UInt8]) throws(TranscodingError) -> [UInt8] { Array(self.json.utf8) }
  }

  private func streamRoute(resumes: Bool, json: String) -> HTTPRoute {
    HTTPRoute(
      verb: .get,
      template: "/v1/things:watch",
      body: "",
      rpc: "/binario.test.v1.Things/Watch",
      serverStreaming: true,
      resumesAtCursor: resumes,
      parameterKinds: ["cursor": .string],
      transcoder: FixedJSON(json: json),
      summary: ""
    )
  }

  @Test func anEventIsIdentifiedByItsCursorWhereTheStreamResumes() {
    let json = #"{"cursor":"c-42","name":"x"}"#
    let resumable = ServerSentEvents.event(Data([1]), route: self.streamRoute(resumes: true, json: json), position: 7, requestID: "r1")
    #expect(String(decoding: resumable, as: UTF8.self) == "id: c-42\nevent: message\ndata: \(json)\n\n")
    let counted = ServerSentEvents.event(Data([1]), route: self.streamRoute(resumes: false, json: json), position: 7, requestID: "r1")
    #expect(String(decoding: counted, as: UTF8.self).hasPrefix("id: 7\n"))
  }

  @Test func aRetryHintIsRoundedUpToWholeMilliseconds() {
    // The token bucket's wait is fractional; the hint never says 0.
    var bucket = TokenBucket(tokens: 0.5, updated: .zero)
    let wait = bucket.take(at: .zero, limit: RateLimit(ratePerSecond: 10, burst: 1))
    #expect(wait == .milliseconds(50))
  }
}
