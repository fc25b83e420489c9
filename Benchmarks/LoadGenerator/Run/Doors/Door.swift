import BinarioServiceKit
import GRPCCore
import SwiftProtobuf

/// One of the gateway's three front doors, as the generator calls through it: the same method and
/// request message whichever the door, so an operation is written once and runs through all three.
public protocol Door: Sendable {
  var kind: DoorKind { get }

  /// Calls `method` with `request` as `caller` and answers its response, or throws a
  /// ``CallFailure`` naming what the door said.
  func unary<Request: Message & Sendable, Response: Message & Sendable>(
    _ method: MethodDescriptor,
    _ request: Request,
    as caller: Caller,
    answer: Response.Type
  ) async throws -> Response

  /// Opens `method`'s server stream and hands each message to `received` until the stream ends
  /// (it returns) or fails (it throws); cancelling the task closes it.
  func serverStream<Request: Message & Sendable, Response: Message & Sendable>(
    _ method: MethodDescriptor,
    _ request: Request,
    as caller: Caller,
    answer: Response.Type,
    received: @escaping @Sendable (Response) -> Void
  ) async throws
}

/// The gateway's front doors, by the name an operator passes (`--door`).
public enum DoorKind: String, CaseIterable, Sendable, Codable {
  case binario
  case grpc
  case httpJSON = "http-json"
}

/// Who makes a call: a person signed in (their access token), a sensor board (its device token),
/// or nobody.
public enum Caller: Sendable {
  case anonymous
  case bearer(String)
  case device(String)

  /// The `authorization` value every door carries (a header over HTTP, metadata otherwise).
  var authorization: String? {
    switch self {
    case .anonymous: nil
    case .bearer(let token): "Bearer \(token)"
    case .device(let token): "Device \(token)"
    }
  }
}

/// A call that did not succeed, by what the door said: a gRPC status code's name (`UNAVAILABLE`,
/// the HTTP door's JSON `code` too) or, without one, the HTTP status or the local error.
public struct CallFailure: Error, Sendable, CustomStringConvertible {
  /// What the report counts failures by: `UNAVAILABLE`, `HTTP 502`, `timed out`, ...
  public let code: String
  public let message: String

  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(code): \(message)" }

  /// The code a person's token refusal carries: the generator signs that person in again.
  var isUnauthenticated: Bool { code == "UNAUTHENTICATED" }

  /// `error` as the report names it.
  static func from(_ error: any Error) -> CallFailure {
    switch error {
    case let failure as CallFailure: return failure
    case let rpc as RPCError: return CallFailure(code: StatusCodeName.of(Status.Code(rpc.code)), message: rpc.message)
    default: return CallFailure(code: "\(type(of: error))", message: "\(error)")
    }
  }
}
