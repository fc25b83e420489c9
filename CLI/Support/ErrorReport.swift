import GRPCCore
import GRPCProtobuf

/// Says what went wrong in words: the status, the server's message, and each field at fault.
enum ErrorReport {
  static func describe(_ error: any Error) -> String {
    guard let rpcError = error as? RPCError else {
      return "error: \(error)"
    }
    var lines = ["error: \(rpcError.message) [\(rpcError.code)]"]
    if let status = try? rpcError.unpackGoogleRPCStatus() {
      for detail in status.details {
        if let badRequest = detail.badRequest {
          for violation in badRequest.violations {
            lines.append("  \(violation.field): \(violation.violationDescription)")
          }
        }
      }
    }
    switch rpcError.code {
    case .unavailable:
      lines.append("  (is the suite running? start it with scripts/run-local.sh)")
    case .unauthenticated:
      lines.append("  (sign in again with 'binario login')")
    default:
      break
    }
    return lines.joined(separator: "\n")
  }
}
