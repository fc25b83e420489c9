import BinarioTransport
import Foundation
import NIOCore

/// A client's call as the gateway's forwarding sees it, whichever front door it came through:
/// the Binario listener's ``BinarioServerCall`` itself, or a ``BridgedClientCall`` from the gRPC
/// (HTTP/2) and HTTP/JSON front doors. One access check, rate limit, metadata rewrite and relay
/// serve them all.
///
/// The contract is ``BinarioServerCall``'s: events arrive on ``eventLoop`` to the handler set
/// with ``onEvent(_:)`` (earlier ones are kept and replayed); answers may be sent from the loop;
/// nothing is delivered after ``end(_:)``.
public protocol GatewayClientCall: AnyObject, Sendable {
  /// The front door the call came through (the `door` label of the gateway's metrics).
  var door: GatewayDoor { get }
  /// The full method name, e.g. `/binario.identity.v1.Identity/Login`.
  var method: String { get }
  var metadata: WireMetadata { get }
  /// The caller's timeout, enforced by the call itself: when it passes, the client hears
  /// `DEADLINE_EXCEEDED` and the handler gets `.cancelled(.deadlineExceeded)`.
  var timeout: Duration? { get }
  var peer: BinarioCallPeer { get }
  var eventLoop: any EventLoop { get }
  func onEvent(_ handler: @escaping @Sendable (ServerCallEvent) -> Void)
  func sendHeaders(_ metadata: WireMetadata)
  /// Returns `false` (sending nothing) if the message is too large for this front door.
  @discardableResult
  func sendMessage(_ payload: Data) -> Bool
  func end(_ end: WireEnd)
  /// Whether the client side takes more right now.
  var isWritable: Bool { get }
  /// Returns once the client side takes more (or the call is over).
  func waitUntilWritable() async
  /// Stops (or resumes) reading the client's messages. Called on ``eventLoop``.
  func setReadPaused(_ paused: Bool)
}

extension BinarioServerCall: GatewayClientCall {
  public var door: GatewayDoor { .binario }
}

/// The gateway's front doors.
public enum GatewayDoor: String, Sendable, CaseIterable {
  case binario
  case grpc
  case httpJSON = "http-json"
}
