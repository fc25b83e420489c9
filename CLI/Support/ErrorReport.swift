import GRPCCore
import GRPCProtobuf

/// Says what went wrong in words: the status, the server's message, and each field at fault.
enum ErrorReport {
  static func describe(_ error: any Error) -> String {
    guard let rpcError = error as? RPCError else {
      return "error: \(error)"
    }
    var fieldLines: [String] = []
    if let status = try? rpcError.unpackGoogleRPCStatus() {
      for detail in status.details {
        if let badRequest = detail.badRequest {
          for violation in badRequest.violations {
            fieldLines.append("  \(violation.field): \(violation.violationDescription)")
          }
        }
      }
    }
    // The server's message already lists the fields at fault; with the list below it, a
    // headline that counts them says the same once.
    let headline: String
    switch fieldLines.count {
    case 0: headline = rpcError.message
    case 1: headline = "1 field is not valid"
    default: headline = "\(fieldLines.count) fields are not valid"
    }
    var lines = ["error: \(headline) [\(rpcError.code)]"] + fieldLines
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
