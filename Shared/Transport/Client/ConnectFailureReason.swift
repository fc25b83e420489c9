import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Why a connection attempt failed, in a few words for a log line or an `UNAVAILABLE` message:
/// "connection refused", "no answer within 2 s", "TLS handshake failed: ...", rather than
/// NIO's nested error values.
enum ConnectFailureReason {
  static func describe(_ error: any Error) -> String {
    switch error {
    case let error as NIOConnectionError:
      if let dns = error.dnsAError ?? error.dnsAAAAError { return "cannot resolve \(error.host): \(describe(dns))" }
      let reasons = error.connectionErrors.map { describe($0.error) }
      return reasons.isEmpty ? "no address to connect to" : Array(Set(reasons)).sorted().joined(separator: "; ")
    case let error as IOError:
      return String(cString: strerror(error.errnoCode)).lowercased()
    case ChannelError.connectTimeout(let timeout):
      return "no answer within \(Duration.nanoseconds(timeout.nanoseconds))"
    case let error as NIOSSLError:
      return "TLS handshake failed: \(error)"
    case let error as BoringSSLError:
      return "TLS handshake failed: \(error)"
    default:
      return "\(error)"
    }
  }
}
