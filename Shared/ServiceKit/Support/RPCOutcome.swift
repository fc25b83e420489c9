import GRPCCore

/// How a call ended, as its caller sees it: the status code GRPCCore sends for a result or error.
struct RPCOutcome: Sendable, Hashable {
  var code: Status.Code

  static let ok = RPCOutcome(code: .ok)

  /// The code GRPCCore's server executor derives from `error`: an `RPCError`'s or
  /// `RPCErrorConvertible`'s own code, `UNKNOWN` for anything else.
  init(error: any Error) {
    if let error = error as? RPCError {
      self.code = Status.Code(error.code)
    } else if let error = error as? any RPCErrorConvertible {
      self.code = Status.Code(error.rpcErrorCode)
    } else {
      self.code = .unknown
    }
  }

  init(code: Status.Code) {
    self.code = code
  }

  var isOK: Bool { self.code == .ok }

  /// The canonical upper-snake name (`OK`, `NOT_FOUND`, …), as gRPC tooling prints it.
  var name: String { StatusCodeName.of(self.code) }
}
